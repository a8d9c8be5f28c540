//! Many deals solved in parallel: which deals (a range, a shard of it), and the run itself.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use patience_core::{Position, RuleSet};
use rayon::prelude::*;

use crate::stats::results::DealResult;
use crate::{solve_with_cancel, Limit, Limits, Report, Verdict};

/// Deals `first..=last`, written `A..B` (both ends included) or `N` for one deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DealRange {
    /// The first deal.
    pub first: u64,
    /// The last deal, included.
    pub last: u64,
}

/// A deal range or a shard could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}`: {reason}")]
pub struct ParseError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl DealRange {
    /// How many deals the range holds.
    pub fn len(&self) -> u64 {
        self.last - self.first + 1
    }

    /// Whether the range holds no deal (never: a range holds one deal at least).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The deals of the range that belong to `shard`, in order.
    pub fn deals(&self, shard: Shard) -> impl Iterator<Item = u64> {
        let first = self.first + (shard.index - 1);
        let step = shard.count;
        let last = self.last;
        (0..)
            .map(move |k: u64| first.checked_add(k.checked_mul(step)?))
            .map_while(move |deal| deal.filter(|&d| d <= last))
    }
}

impl FromStr for DealRange {
    type Err = ParseError;

    /// Reads `A..B` (or `A..=B`), both ends included, or a single deal `N`.
    fn from_str(text: &str) -> Result<DealRange, ParseError> {
        let error = |reason: &str| ParseError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let number = |part: &str| -> Result<u64, ParseError> {
            let n: u64 = part.trim().parse().map_err(|_| {
                error("expected deal numbers FIRST..LAST such as 1..1000 (both included), or one deal number")
            })?;
            if n == 0 {
                return Err(error("0 is not a deal: deal numbers start at 1"));
            }
            Ok(n)
        };
        let (first, last) = match text.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
            None => {
                let n = number(text)?;
                (n, n)
            }
        };
        if first > last {
            return Err(error("the first deal is after the last"));
        }
        Ok(DealRange { first, last })
    }
}

impl fmt::Display for DealRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.first, self.last)
    }
}

/// Shard `index` of `count` (`I/N`, from 1): the deals whose place in the range (from 0) is `index - 1` modulo
/// `count`. Shards 1/N .. N/N together hold every deal once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 1.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The whole range: shard 1 of 1.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };
}

impl FromStr for Shard {
    type Err = ParseError;

    /// Reads `I/N`, 1 ≤ I ≤ N.
    fn from_str(text: &str) -> Result<Shard, ParseError> {
        let error = |reason: &str| ParseError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| error("expected a shard I/N such as 3/16"))?;
        let read = |part: &str| part.trim().parse::<u64>().ok();
        let (Some(index), Some(count)) = (read(i), read(n)) else {
            return Err(error(
                "expected a shard I/N such as 3/16, with whole numbers",
            ));
        };
        if count == 0 || index == 0 || index > count {
            return Err(error("a shard I/N needs 1 ≤ I ≤ N"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One deal of one game to solve.
#[derive(Debug, Clone)]
pub struct Job<'a> {
    /// The game.
    pub rules: &'a RuleSet,
    /// The deal number.
    pub deal: u64,
}

/// Solves every job on `threads` threads (all cores for 0), each within `limits` (give each its share of the
/// memory). `done` is called with each record as its deal finishes, from the thread that solved it. Once
/// `cancel` is set, searches under way stop as [`Limit::Cancelled`] and jobs not begun are not started (and
/// have no record). The records come back in job order.
pub fn run(
    jobs: &[Job<'_>],
    threads: usize,
    limits: &Limits,
    cancel: &AtomicBool,
    done: impl Fn(&DealResult) + Sync,
) -> Result<Vec<DealResult>, rayon::ThreadPoolBuildError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let results = pool.install(|| {
        jobs.par_iter()
            .with_max_len(1)
            .filter_map(|job| {
                if cancel.load(Ordering::Relaxed) {
                    return None;
                }
                let record = solve_deal(job, limits, cancel);
                done(&record);
                Some(record)
            })
            .collect()
    });
    Ok(results)
}

/// Solves one job, giving its record.
pub fn solve_deal(job: &Job<'_>, limits: &Limits, cancel: &AtomicBool) -> DealResult {
    let report = match Position::deal(job.rules, job.deal) {
        Ok(position) => solve_with_cancel(job.rules, &position, limits, cancel),
        // Deal 0 is refused before this; treat it as nothing searched.
        Err(_) => Report {
            verdict: Verdict::Unknown(Limit::Cancelled),
            nodes: 0,
            stored: 0,
            elapsed: Default::default(),
            table_bytes: 0,
            passes: Vec::new(),
        },
    };
    DealResult::from_report(&job.rules.id, job.deal, &report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::results::Outcome;
    use patience_core::builtin;

    #[test]
    fn ranges_are_read_with_both_ends_included() {
        let range: DealRange = "1..10".parse().expect("a range");
        assert_eq!(range, DealRange { first: 1, last: 10 });
        assert_eq!(range.len(), 10);
        assert_eq!(
            "5".parse::<DealRange>(),
            Ok(DealRange { first: 5, last: 5 })
        );
        assert_eq!(
            "3..=4".parse::<DealRange>(),
            Ok(DealRange { first: 3, last: 4 })
        );
        for bad in ["10..1", "0..5", "a..b", "1-10", "", "1.."] {
            assert!(bad.parse::<DealRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_split_the_range_without_overlap() {
        let range: DealRange = "1..10".parse().expect("a range");
        let one: Vec<u64> = range.deals("1/3".parse().expect("a shard")).collect();
        let two: Vec<u64> = range.deals("2/3".parse().expect("a shard")).collect();
        let three: Vec<u64> = range.deals("3/3".parse().expect("a shard")).collect();
        assert_eq!(one, [1, 4, 7, 10]);
        assert_eq!(two, [2, 5, 8]);
        assert_eq!(three, [3, 6, 9]);
        assert_eq!(range.deals(Shard::WHOLE).count(), 10);
        for bad in ["0/3", "4/3", "1/0", "1", "a/b"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let top = DealRange {
            first: u64::MAX - 1,
            last: u64::MAX,
        };
        assert_eq!(top.deals(Shard::WHOLE).count(), 2);
    }

    #[test]
    fn a_batch_comes_back_in_job_order() {
        let rules = builtin::rules("fortunes-favor").expect("a game");
        let jobs: Vec<Job> = (1..=6)
            .map(|deal| Job {
                rules: &rules,
                deal,
            })
            .collect();
        let seen = std::sync::Mutex::new(Vec::new());
        let limits = Limits {
            time: Some(std::time::Duration::from_secs(5)),
            memory_bytes: 64 << 20,
            nodes: None,
        };
        let records = run(&jobs, 2, &limits, &AtomicBool::new(false), |r| {
            if let Ok(mut seen) = seen.lock() {
                seen.push(r.deal);
            }
        })
        .expect("a pool");
        let deals: Vec<u64> = records.iter().map(|r| r.deal).collect();
        assert_eq!(deals, [1, 2, 3, 4, 5, 6]);
        assert_eq!(seen.lock().map(|s| s.len()).unwrap_or(0), 6);
        assert!(records.iter().all(|r| r.game == "fortunes-favor"));
        assert!(records.iter().any(|r| r.verdict != Outcome::Unknown));
    }
}
