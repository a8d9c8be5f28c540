//! Confidence intervals for a win rate: Wilson's score interval, the conservative interval for deals some of
//! which are undecided, and an estimate from a sample of the undecided deals solved again.

use serde::Serialize;

/// The normal quantile for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// An interval of proportions, both ends from 0 to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The lower bound.
    pub low: f64,
    /// The upper bound.
    pub high: f64,
}

/// Wilson's score interval for `successes` out of `trials`, with normal quantile `z` ([`Z95`] for 95 %).
/// With no trials it is the whole of 0..1.
///
/// ```
/// use patience_solver::stats::interval::{wilson, Z95};
///
/// let i = wilson(5, 10, Z95);
/// assert!((i.low - 0.2366).abs() < 1e-4 && (i.high - 0.7634).abs() < 1e-4);
/// ```
pub fn wilson(successes: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval {
            low: 0.0,
            high: 1.0,
        };
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At 0 or all successes one bound is exactly 0 or 1; rounding would leave it a hair away.
    Interval {
        low: if successes == 0 {
            0.0
        } else {
            (centre - half).max(0.0)
        },
        high: if successes >= trials {
            1.0
        } else {
            (centre + half).min(1.0)
        },
    }
}

/// A win rate over deals that were won, lost or left undecided, with its conservative 95 % interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WinRate {
    /// Won / (won + lost + unknown): the undecided deals are counted as losses.
    pub point: f64,
    /// From the lower Wilson bound with the undecided deals counted as losses to the upper Wilson bound with
    /// them counted as wins: the true rate lies inside whatever the undecided deals turn out to be.
    pub interval: Interval,
}

impl WinRate {
    /// The win rate of `won`, `lost` and `unknown` deals, with its conservative 95 % interval.
    ///
    /// ```
    /// use patience_solver::stats::interval::WinRate;
    ///
    /// let rate = WinRate::new(7, 2, 1);
    /// assert_eq!(rate.point, 0.7);
    /// assert!(rate.interval.low < 0.7 && rate.interval.high > 0.8);
    /// ```
    pub fn new(won: u64, lost: u64, unknown: u64) -> WinRate {
        let n = won + lost + unknown;
        let as_losses = wilson(won, n, Z95);
        let as_wins = wilson(won + unknown, n, Z95);
        WinRate {
            point: if n == 0 { 0.0 } else { won as f64 / n as f64 },
            interval: Interval {
                low: as_losses.low,
                high: as_wins.high,
            },
        }
    }
}

/// How the undecided deals of a sample, solved again with higher limits, came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Sample {
    /// Won.
    pub won: u64,
    /// Proved lost.
    pub lost: u64,
    /// Still undecided.
    pub unknown: u64,
}

impl Sample {
    /// How many deals the sample holds.
    pub fn len(&self) -> u64 {
        self.won + self.lost + self.unknown
    }

    /// Whether the sample holds no deal.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl WinRate {
    /// The win rate of `won`, `lost` and `unknown` deals, estimated with `sample`, some of the unknown deals chosen
    /// without regard to how they come out (say, the first by number) and solved again with higher limits. This is
    /// double sampling for stratification: the deals are a sample of all deals, split into the won, the lost and the
    /// undecided, and the undecided are sampled again. With `N` deals, `U` of them undecided, and `k` of those in
    /// the sample, `w` of them won, the estimate is `(won + U·w/k) / N`, and its variance (Cochran, *Sampling
    /// Techniques*, 12.4) that of a win rate over `N` deals, plus the sample's: `(U/N)² q(1−q)/k · (U−k)/(U−1)`
    /// for a share `q` won. In the variance both proportions are taken as Agresti and Coull take them (`z²/2`
    /// successes and `z²` trials more), so that a share of 0 or 1 still has a spread, and the interval is the estimate ± 1.96
    /// standard deviations. The sample's deals still undecided are counted, as [`WinRate::new`] counts them, once
    /// as lost (the estimate, and the lower bound) and once as won (the upper bound). Each bound is then kept within
    /// [`WinRate::new`]'s conservative interval: with few deals solved again the normal approximation can reach
    /// past the rate the undecided deals would give if every one of them were won (or lost), and the estimate must
    /// not claim less than what holds whatever they turn out to be. With an empty sample it is [`WinRate::new`]'s
    /// rate.
    ///
    /// ```
    /// use patience_solver::stats::interval::{Sample, WinRate};
    ///
    /// // 1,000 deals, 600 undecided; 100 of those solved again: 40 won, 60 lost.
    /// let rate = WinRate::with_sample(150, 250, 600, Sample { won: 40, lost: 60, unknown: 0 });
    /// assert!((rate.point - 0.39).abs() < 1e-9);
    /// assert!(rate.interval.low > 0.32 && rate.interval.high < 0.46);
    /// ```
    pub fn with_sample(won: u64, lost: u64, unknown: u64, sample: Sample) -> WinRate {
        if sample.is_empty() || unknown == 0 {
            return WinRate::new(won, lost, unknown);
        }
        let deals = won + lost + unknown;
        let z2 = Z95 * Z95;
        let k = sample.len().min(unknown) as f64;
        let (n, u) = (deals as f64, unknown as f64);
        let finite = if unknown > 1 {
            (u - k) / (u - 1.0)
        } else {
            0.0
        };
        let at = |sample_won: u64| {
            let point = (won as f64 + u * sample_won as f64 / k) / n;
            let p = (point * n + z2 / 2.0) / (n + z2);
            let q = (sample_won as f64 + z2 / 2.0) / (k + z2);
            let variance = p * (1.0 - p) / n + (u / n).powi(2) * q * (1.0 - q) / k * finite;
            (point, Z95 * variance.sqrt())
        };
        let (low_point, low_half) = at(sample.won);
        let (high_point, high_half) = at(sample.won + sample.unknown);
        let conservative = WinRate::new(won, lost, unknown).interval;
        WinRate {
            point: low_point,
            interval: Interval {
                low: (low_point - low_half).max(conservative.low),
                high: (high_point + high_half).min(conservative.high),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64) {
        assert!((got - want).abs() < 5e-5, "got {got}, want {want}");
    }

    #[test]
    fn wilson_matches_known_values() {
        let i = wilson(0, 10, Z95);
        close(i.low, 0.0);
        close(i.high, 0.2775);
        let i = wilson(5, 10, Z95);
        close(i.low, 0.2366);
        close(i.high, 0.7634);
        let i = wilson(10, 10, Z95);
        close(i.low, 0.7225);
        close(i.high, 1.0);
        let i = wilson(712, 1000, Z95);
        close(i.low, 0.6832);
        close(i.high, 0.7392);
        let i = wilson(1, 2, Z95);
        close(i.low, 0.0945);
        close(i.high, 0.9055);
    }

    #[test]
    fn no_trials_is_the_whole_range() {
        assert_eq!(
            wilson(0, 0, Z95),
            Interval {
                low: 0.0,
                high: 1.0
            }
        );
        let rate = WinRate::new(0, 0, 0);
        assert_eq!(rate.point, 0.0);
        assert_eq!(rate.interval.high, 1.0);
    }

    /// A small generator of random numbers, so that the test runs the same every time.
    struct Rng(u64);

    impl Rng {
        fn unit(&mut self) -> f64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Runs of `deals` deals, each won at once with `easy`, lost at once with `hard`, else undecided and won with
    /// `later`; the first `k` undecided solved again. The share of runs whose interval holds the true rate.
    fn coverage(deals: u64, easy: f64, hard: f64, later: f64, k: u64, runs: u32) -> f64 {
        let truth = easy + (1.0 - easy - hard) * later;
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut held = 0;
        for _ in 0..runs {
            let (mut won, mut lost, mut unknown) = (0, 0, 0);
            let mut sample = Sample::default();
            for _ in 0..deals {
                let r = rng.unit();
                if r < easy {
                    won += 1;
                } else if r < easy + hard {
                    lost += 1;
                } else {
                    unknown += 1;
                    let won_later = rng.unit() < later;
                    if sample.len() < k {
                        if won_later {
                            sample.won += 1;
                        } else {
                            sample.lost += 1;
                        }
                    }
                }
            }
            let rate = WinRate::with_sample(won, lost, unknown, sample);
            held += u32::from(rate.interval.low <= truth && truth <= rate.interval.high);
        }
        f64::from(held) / f64::from(runs)
    }

    #[test]
    fn the_estimate_from_a_sample_holds_the_true_rate_95_times_in_100() {
        // Chameleon at 500,000 nodes a deal: 14 % won, 29 % lost, the rest undecided.
        for (deals, k, later) in [
            (10_000, 100, 0.35),
            (2_000, 50, 0.35),
            (1_000, 200, 0.05),
            (500, 30, 0.9),
        ] {
            let share = coverage(deals, 0.14, 0.29, later, k, 2_000);
            assert!(
                (0.93..=0.975).contains(&share),
                "{deals} deals, {k} solved again, {later}: {share}"
            );
        }
    }

    #[test]
    fn the_estimate_from_a_sample_narrows_the_conservative_interval() {
        let conservative = WinRate::new(1379, 2874, 5747);
        let sample = Sample {
            won: 38,
            lost: 55,
            unknown: 7,
        };
        let estimate = WinRate::with_sample(1379, 2874, 5747, sample);
        assert!(estimate.interval.high - estimate.interval.low < 0.16);
        assert!(conservative.interval.low <= estimate.interval.low);
        assert!(estimate.interval.high <= conservative.interval.high);
        // The sample's undecided deals widen it: counted as won they raise the upper bound.
        let decided = WinRate::with_sample(
            1379,
            2874,
            5747,
            Sample {
                won: 38,
                lost: 62,
                unknown: 0,
            },
        );
        assert_eq!(decided.point, estimate.point);
        assert!(estimate.interval.high > decided.interval.high);
        // Every undecided deal solved again, and decided: the rate of the deals, and about Wilson's interval.
        let all = WinRate::with_sample(
            1379,
            2874,
            5747,
            Sample {
                won: 2000,
                lost: 3747,
                unknown: 0,
            },
        );
        close(all.point, 0.3379);
        let wilson = wilson(3379, 10_000, Z95);
        assert!(
            (all.interval.low - wilson.low).abs() < 1e-3
                && (all.interval.high - wilson.high).abs() < 1e-3
        );
        // Six of 25 undecided deals solved again: the normal approximation alone would reach past the upper bound
        // with every undecided deal won.
        let (conservative, estimate) = (
            WinRate::new(3, 12, 25),
            WinRate::with_sample(
                3,
                12,
                25,
                Sample {
                    won: 4,
                    lost: 1,
                    unknown: 1,
                },
            ),
        );
        assert_eq!(estimate.interval.high, conservative.interval.high);
        assert!(estimate.interval.low > conservative.interval.low + 0.1);
        // No sample: the conservative interval.
        assert_eq!(
            WinRate::with_sample(5, 3, 2, Sample::default()),
            WinRate::new(5, 3, 2)
        );
    }

    #[test]
    fn conservative_interval_spans_both_readings_of_the_unknowns() {
        let rate = WinRate::new(5, 3, 2);
        close(rate.point, 0.5);
        close(rate.interval.low, wilson(5, 10, Z95).low);
        close(rate.interval.high, wilson(7, 10, Z95).high);
        // With nothing undecided it is Wilson's interval.
        let rate = WinRate::new(712, 288, 0);
        close(rate.interval.low, 0.6832);
        close(rate.interval.high, 0.7392);
    }
}
