//! Confidence intervals for a win rate: Wilson's score interval, and the conservative interval for deals some
//! of which are undecided.

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
