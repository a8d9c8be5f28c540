//! Which deals of a results file of deals solved again (`stats --resolve`) make a fair sample of a run's undecided
//! deals, when the merge of several shards reads them back.
//!
//! A run solves again its first undecided deals by number: chosen by number, they do not hang on how they come
//! out. A run stopped while solving them (a pre-empted cluster task that was not sent again) keeps the deals it
//! finished and leaves out those it was solving, which are the slow ones, while deals after them may be done: the
//! deals of its file are then no longer a fair sample. Its file shows it by a gap: an undecided deal of its shard
//! that it did not solve again, between two that it did. The merge does not know which shard a file was, but the
//! deals of one shard are spaced by the shard count `N`, so a file's deals are all alike modulo the greatest common
//! divisor `g` of their differences, a multiple of `N`: every undecided deal alike modulo `g` and between two of
//! the file's deals is one of its shard's first undecided deals, and so one the file should hold. Where the file
//! holds a few deals only, `g` may be a multiple of `N` larger than it, and a gap may go unseen; with ten deals
//! or more it is `N` but by chance. The deals before the first gap are still a fair sample (the first of its
//! shard's undecided deals, up to a number fixed before they were solved again, less the stop's timing); the deals
//! after it are left out. A file that several shards wrote into is read the same way: up to its first gap it holds
//! the first undecided deals of all of them.

use std::collections::BTreeSet;

/// The deals of one file of deals solved again (one game's) that make a fair sample, and the gap that cut it short.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FairSample {
    /// The deals kept, by number: those undecided in the run, up to the first gap.
    pub deals: Vec<u64>,
    /// The first gap, if there is one.
    pub gap: Option<Gap>,
}

/// An undecided deal that a file of deals solved again leaves out between two that it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gap {
    /// The deal left out.
    pub missing: u64,
    /// The file's deals after it, left out of the sample.
    pub left_out: usize,
}

/// The fair sample among the deals `resolved` of one file of deals solved again, for a run whose undecided deals
/// are `undecided`. A deal of `resolved` that the run does not leave undecided is not in the sample (the caller
/// counts those).
pub fn fair_sample(undecided: &BTreeSet<u64>, resolved: &BTreeSet<u64>) -> FairSample {
    let held: Vec<u64> = resolved.intersection(undecided).copied().collect();
    let whole = |held: Vec<u64>| FairSample {
        deals: held,
        gap: None,
    };
    let (&first, &last) = match held.as_slice() {
        [first, .., last] => (first, last),
        _ => return whole(held),
    };
    // Above 0: the deals held differ.
    let spacing = held.iter().fold(0, |g, &deal| gcd(g, deal - first));
    let Some(&missing) = undecided
        .range(first..=last)
        .find(|&&deal| (deal - first) % spacing == 0 && !resolved.contains(&deal))
    else {
        return whole(held);
    };
    let kept = held.partition_point(|&deal| deal < missing);
    FairSample {
        gap: Some(Gap {
            missing,
            left_out: held.len() - kept,
        }),
        deals: held[..kept].to_vec(),
    }
}

/// The greatest common divisor, `gcd(0, n) = n`.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(deals: &[u64]) -> BTreeSet<u64> {
        deals.iter().copied().collect()
    }

    #[test]
    fn a_whole_run_solved_again_without_a_stop_is_all_kept() {
        let undecided = set(&[2, 3, 5, 8, 13, 21]);
        let sample = fair_sample(&undecided, &set(&[2, 3, 5, 8]));
        assert_eq!(sample.deals, vec![2, 3, 5, 8]);
        assert_eq!(sample.gap, None);
    }

    #[test]
    fn a_deal_left_out_between_two_solved_again_cuts_the_sample_there() {
        // The run was solving deal 5 when it stopped, and had finished 8 and 13.
        let undecided = set(&[2, 3, 5, 8, 13, 21]);
        let sample = fair_sample(&undecided, &set(&[2, 3, 8, 13]));
        assert_eq!(sample.deals, vec![2, 3]);
        assert_eq!(
            sample.gap,
            Some(Gap {
                missing: 5,
                left_out: 2
            })
        );
    }

    #[test]
    fn the_other_shards_deals_are_no_gap() {
        // Shard 2/3 of 1..30: deals 2, 5, 8, ...; the merged run's undecided deals come from every shard.
        let undecided = set(&[1, 2, 4, 6, 8, 9, 11, 14, 17, 20, 22]);
        let sample = fair_sample(&undecided, &set(&[2, 8, 11, 14]));
        assert_eq!(sample.deals, vec![2, 8, 11, 14]);
        assert_eq!(sample.gap, None);
        // Deal 11 of that shard left out is a gap; deals 4 and 6 of the others are not.
        let sample = fair_sample(&undecided, &set(&[2, 8, 14, 17]));
        assert_eq!(sample.deals, vec![2, 8]);
        assert_eq!(
            sample.gap,
            Some(Gap {
                missing: 11,
                left_out: 2
            })
        );
    }

    #[test]
    fn deals_the_run_decides_are_not_in_the_sample_and_no_gap() {
        // Deal 5 was decided by a later run at a higher limit; deal 40 is not in the run at all.
        let undecided = set(&[2, 3, 8]);
        let sample = fair_sample(&undecided, &set(&[2, 3, 5, 8, 40]));
        assert_eq!(sample.deals, vec![2, 3, 8]);
        assert_eq!(sample.gap, None);
    }

    #[test]
    fn one_deal_or_none_is_its_own_sample() {
        let undecided = set(&[4, 7]);
        assert_eq!(fair_sample(&undecided, &set(&[7])).deals, vec![7]);
        assert_eq!(fair_sample(&undecided, &set(&[])).deals, Vec::<u64>::new());
    }
}
