//! A position whose next move is a choice (Selective Canfield's base card): each choice starts a game of its own,
//! and they are searched side by side, in rounds.
//!
//! One search from the position goes into the first choice and must prove it lost before it looks at the next,
//! though another may be won at once: of Selective Canfield's deals 1..200, 26 were undecided at 0.5 s a deal that
//! way, deal 57 among them, whose second choice is won in a millisecond while its first is still undecided after
//! 5 s. Here each round searches every choice still open afresh, with a share of the limits that doubles from
//! round to round, so a choice won or lost quickly is decided within a few rounds whatever comes before it, and a
//! choice that takes long is searched at most about twice as long in all as it would have been alone.
//!
//! The verdict is a win as soon as one choice is won (its line, after the choice), a loss when every choice is
//! lost, and otherwise unknown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use patience_core::{Move, Position, RuleSet};

use crate::analysis::choices;
use crate::search::{Limit, Limits, Report, Verdict};

/// The first round's share of time for each choice.
const FIRST_TIME: Duration = Duration::from_millis(10);

/// The first round's share of nodes for each choice, where the search has no time limit.
const FIRST_NODES: u64 = 50_000;

/// Decides `position`, whose next move is a choice, by deciding its choices in rounds with `solve`.
pub(crate) fn solve_each(
    rules: &RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    solve: impl Fn(&Position, &Limits) -> Report,
) -> Report {
    let start = Instant::now();
    let open: Vec<(Move, Position)> = choices(rules, position)
        .into_iter()
        .map(|choice| (choice.mv, choice.position))
        .collect();
    let mut spent = Report {
        verdict: Verdict::Lost,
        nodes: 0,
        stored: 0,
        elapsed: Duration::ZERO,
        table_bytes: 0,
    };
    let verdict = in_rounds(open, limits, cancel, start, solve, &mut spent);
    Report {
        verdict,
        elapsed: start.elapsed(),
        ..spent
    }
}

/// The verdict on the `open` choices, searched in rounds from `start`, what each search used added to `spent`.
fn in_rounds(
    mut open: Vec<(Move, Position)>,
    limits: &Limits,
    cancel: &AtomicBool,
    start: Instant,
    solve: impl Fn(&Position, &Limits) -> Report,
    spent: &mut Report,
) -> Verdict {
    // A choice that fills the memory limit would fill it again with more time: it stays unknown.
    let mut out_of_memory = false;
    let mut round = 0u32;
    while !open.is_empty() {
        let mut still_open = Vec::new();
        for (mv, child) in open {
            let share = match share(limits, spent.nodes, start, round, cancel) {
                Ok(share) => share,
                Err(limit) => return Verdict::Unknown(limit),
            };
            let report = solve(&child, &share);
            spent.nodes += report.nodes;
            spent.stored += report.stored;
            spent.table_bytes = spent.table_bytes.max(report.table_bytes);
            match report.verdict {
                Verdict::Won(line) => return Verdict::Won([mv].into_iter().chain(line).collect()),
                Verdict::Lost => {}
                Verdict::Unknown(Limit::Memory) => out_of_memory = true,
                Verdict::Unknown(Limit::Cancelled) => return Verdict::Unknown(Limit::Cancelled),
                Verdict::Unknown(Limit::Time | Limit::Nodes) => still_open.push((mv, child)),
            }
        }
        open = still_open;
        round += 1;
    }
    if out_of_memory {
        Verdict::Unknown(Limit::Memory)
    } else {
        Verdict::Lost
    }
}

/// The limits of one choice's search in round `round` (from 0), the searches before it having spent `nodes` and
/// the time since `start`, or the limit that is spent. Without a time limit the share is counted in nodes.
fn share(
    limits: &Limits,
    nodes: u64,
    start: Instant,
    round: u32,
    cancel: &AtomicBool,
) -> Result<Limits, Limit> {
    let time_left = limits.time.map(|t| t.saturating_sub(start.elapsed()));
    let nodes_left = limits.nodes.map(|n| n.saturating_sub(nodes));
    if cancel.load(Ordering::Relaxed) {
        return Err(Limit::Cancelled);
    }
    if time_left.is_some_and(|t| t.is_zero()) {
        return Err(Limit::Time);
    }
    if nodes_left == Some(0) {
        return Err(Limit::Nodes);
    }
    let doubling = 1u32 << round.min(24);
    let time = time_left.map(|left| left.min(FIRST_TIME.saturating_mul(doubling)));
    let nodes = if time.is_some() {
        nodes_left
    } else {
        let share = FIRST_NODES.saturating_mul(u64::from(doubling));
        Some(nodes_left.map_or(share, |left| left.min(share)))
    };
    Ok(Limits {
        time,
        nodes,
        memory_bytes: limits.memory_bytes,
    })
}

#[cfg(test)]
mod tests {
    use patience_core::{builtin, Pile};

    use crate::search::{solve, Limits, Verdict};

    use super::*;

    /// Selective Canfield deal 57: its second choice is won in some 20,000 nodes, its first is undecided after
    /// millions. Searched one choice after the other, a million nodes would go to the first.
    #[test]
    fn a_choice_won_quickly_is_found_behind_one_that_is_not() {
        let rules = builtin::rules("selective-canfield").expect("a built-in game");
        let deal = Position::deal(&rules, 57).expect("a deal");
        let limits = Limits {
            nodes: Some(1_000_000),
            ..Limits::default()
        };
        let report = solve(&rules, &deal, &limits);
        let Verdict::Won(line) = report.verdict else {
            panic!(
                "deal 57 not won within a million nodes: {:?}",
                report.verdict
            );
        };
        assert!(matches!(line[0].from, Pile::Choice(_)));
        let mut position = deal;
        for mv in line {
            position.play(&rules, mv).expect("a legal move");
        }
        assert!(position.is_won());
        // The first choice alone, with all those nodes, stays undecided: the test means something.
        let mut first = deal;
        first.apply(&rules, deal.legal_moves(&rules)[0]);
        assert!(matches!(
            solve(&rules, &first, &limits).verdict,
            Verdict::Unknown(Limit::Nodes)
        ));
    }

    #[test]
    fn the_shares_double_from_round_to_round_within_the_limits() {
        let cancel = AtomicBool::new(false);
        let start = Instant::now();
        let by_nodes = Limits {
            nodes: Some(120_000),
            ..Limits::default()
        };
        assert_eq!(
            share(&by_nodes, 0, start, 0, &cancel).unwrap().nodes,
            Some(FIRST_NODES)
        );
        assert_eq!(
            share(&by_nodes, 0, start, 1, &cancel).unwrap().nodes,
            Some(2 * FIRST_NODES)
        );
        assert_eq!(
            share(&by_nodes, 100_000, start, 1, &cancel).unwrap().nodes,
            Some(20_000)
        );
        assert_eq!(
            share(&by_nodes, 120_000, start, 1, &cancel),
            Err(Limit::Nodes)
        );
        let by_time = Limits {
            time: Some(Duration::from_secs(3600)),
            ..Limits::default()
        };
        assert_eq!(
            share(&by_time, 0, start, 2, &cancel).unwrap().time,
            Some(4 * FIRST_TIME)
        );
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(share(&by_time, 0, start, 0, &cancel), Err(Limit::Cancelled));
    }
}
