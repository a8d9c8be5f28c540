//! What a batch of per-deal records says about a game: counts, win rate with its interval, time and nodes per
//! deal.

use serde::Serialize;

use crate::stats::interval::WinRate;
use crate::stats::results::{DealResult, Outcome};

/// The mean, median and largest of some numbers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// The mean (0 for no numbers).
    pub mean: f64,
    /// The median: the middle number, or the mean of the two middle ones (0 for no numbers).
    pub median: f64,
    /// The largest (0 for no numbers).
    pub max: f64,
}

impl Spread {
    /// The spread of `values`.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Spread {
        let mut values: Vec<f64> = values.into_iter().collect();
        if values.is_empty() {
            return Spread {
                mean: 0.0,
                median: 0.0,
                max: 0.0,
            };
        }
        values.sort_by(f64::total_cmp);
        let n = values.len();
        let median = if n % 2 == 1 {
            values[n / 2]
        } else {
            (values[n / 2 - 1] + values[n / 2]) / 2.0
        };
        Spread {
            mean: values.iter().sum::<f64>() / n as f64,
            median,
            max: values[n - 1],
        }
    }
}

/// Seconds spent on the deals of each verdict, in all: where a run's time went.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SecondsByVerdict {
    /// On the deals won.
    pub won: f64,
    /// On the deals proved lost.
    pub lost: f64,
    /// On the deals a limit left undecided.
    pub unknown: f64,
}

/// One game's results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The game's id.
    pub game: String,
    /// Deals counted.
    pub deals: u64,
    /// Deals won.
    pub won: u64,
    /// Deals proved lost.
    pub lost: u64,
    /// Deals left undecided by a limit.
    pub unknown: u64,
    /// The win rate, the undecided deals counted as losses, and its conservative 95 % interval.
    pub win_rate: WinRate,
    /// Seconds per deal.
    pub seconds: Spread,
    /// Seconds in all, by verdict.
    pub seconds_by_verdict: SecondsByVerdict,
    /// Nodes per deal.
    pub nodes: Spread,
}

impl Summary {
    /// The summary of `game`'s records among `records` (records of other games are left out).
    pub fn of<'a>(game: &str, records: impl IntoIterator<Item = &'a DealResult>) -> Summary {
        let records: Vec<&DealResult> = records.into_iter().filter(|r| r.game == game).collect();
        let count = |outcome| records.iter().filter(|r| r.verdict == outcome).count() as u64;
        let seconds = |outcome| {
            records
                .iter()
                .filter(|r| r.verdict == outcome)
                .fold(0.0, |sum, r| sum + r.seconds)
        };
        let (won, lost, unknown) = (
            count(Outcome::Won),
            count(Outcome::Lost),
            count(Outcome::Unknown),
        );
        Summary {
            game: game.to_string(),
            deals: records.len() as u64,
            won,
            lost,
            unknown,
            win_rate: WinRate::new(won, lost, unknown),
            seconds: Spread::of(records.iter().map(|r| r.seconds)),
            seconds_by_verdict: SecondsByVerdict {
                won: seconds(Outcome::Won),
                lost: seconds(Outcome::Lost),
                unknown: seconds(Outcome::Unknown),
            },
            nodes: Spread::of(records.iter().map(|r| r.nodes as f64)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_has_mean_median_and_max() {
        let s = Spread::of([3.0, 1.0, 2.0, 10.0]);
        assert_eq!(s.mean, 4.0);
        assert_eq!(s.median, 2.5);
        assert_eq!(s.max, 10.0);
        assert_eq!(Spread::of([5.0]).median, 5.0);
        assert_eq!(Spread::of([]).max, 0.0);
    }

    #[test]
    fn a_summary_counts_one_game() {
        let record = |game: &str, deal, verdict| DealResult {
            game: game.into(),
            deal,
            verdict,
            limit: None,
            moves: None,
            nodes: deal * 10,
            seconds: deal as f64,
        };
        let records = [
            record("a", 1, Outcome::Won),
            record("a", 2, Outcome::Lost),
            record("a", 3, Outcome::Unknown),
            record("a", 4, Outcome::Won),
            record("b", 1, Outcome::Won),
        ];
        let s = Summary::of("a", &records);
        assert_eq!((s.deals, s.won, s.lost, s.unknown), (4, 2, 1, 1));
        assert_eq!(s.win_rate.point, 0.5);
        assert_eq!(s.nodes.max, 40.0);
        assert_eq!(
            s.seconds_by_verdict,
            SecondsByVerdict {
                won: 5.0,
                lost: 2.0,
                unknown: 3.0
            }
        );
    }
}
