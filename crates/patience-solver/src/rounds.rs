//! Searches in rounds, each with a larger share of the limits than the last: the choices of a position whose next
//! move is a choice, side by side, and a position searched with no time or node limit.
//!
//! **Choices** (Selective Canfield's base card): each choice starts a game of its own. One search from the
//! position goes into the first choice and must prove it lost before it looks at the next, though another may be
//! won at once: of Selective Canfield's deals 1..200, 26 were undecided at 0.5 s a deal that way, deal 57 among
//! them, whose second choice is won in a millisecond while its first is still undecided after 5 s. Here each round
//! searches every choice still open afresh, with a share of the limits four times the last round's, so a choice
//! won or lost quickly is decided within a few rounds whatever comes before it, and a choice that takes long is
//! searched about four thirds as long in all as it would have been alone (at most seven thirds). The verdict is a
//! win as soon as one choice is won (its line, after the choice), a loss when every choice is lost, and otherwise
//! unknown. Until session 42 the share doubled from round to round, which cost a choice that takes long two to
//! three times its own time: Selective Canfield deal 3271, whose hard choice takes some 30 s alone, was undecided
//! at 60 s, and is lost in 43 s with the shares growing fourfold. A choice won quickly waits longer behind the
//! others (up to about five times its own time, each, against four), but those are the deals decided at once
//! either way: deals 1..1000 at 500,000 nodes a deal gave 972 won, 17 lost, 11 unknown, against 970, 15 and 15,
//! every deal decided before still decided, the wins in 18.8 million nodes against 19.1 million.
//!
//! **No limit.** A search is made of passes that share its limits (see `crate::search`): the relaxed passes,
//! which prove most losses where cards of a rank are alike, get half of them and a quarter. With no time or node
//! limit there is nothing to share, so the position is searched in rounds of node limits, each four times the
//! last, until a round decides it or fills the memory limit (a round may also lift its own limit, see
//! `crate::search`). Each round goes on from what the rounds before proved lost, and from where their beams
//! stood.
//! Until session 39 the passes before the full search got a few million nodes between them and the full search
//! the rest: Chameleon deal 23, lost in 4.4 s within a time limit of 60 s (its first relaxed pass proves it in 12
//! million nodes), ran out of the default 1 GiB after 104 s and 518 million nodes with no limit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use patience_core::{Move, Position, RuleSet};

use crate::analysis::choices;
use crate::passes::add_up;
use crate::progress::Progress;
use crate::search::{Limit, Limits, Report, Verdict};

/// The first round's share of time for each search.
const FIRST_TIME: Duration = Duration::from_millis(10);

/// The first round's share of nodes for each search, where there is no time limit.
const FIRST_NODES: u64 = 50_000;

/// Decides `position`, whose next move is a choice, by deciding its choices in rounds with `solve`, each round's
/// share four times the last one's.
pub(crate) fn solve_each(
    rules: &RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &Progress,
    solve: impl Fn(&Position, &Limits) -> Report,
) -> Report {
    let open = choices(rules, position)
        .into_iter()
        .map(|choice| (Some(choice.mv), choice.position))
        .collect();
    in_rounds(open, limits, cancel, progress, solve)
}

/// Decides `position`, which has no time or node limit to share between the passes of its search, by searching
/// it with `solve` in rounds of node limits, each four times the last one's: the rounds before the last then cost
/// a third of it, not as much again. On 16 deals of five games (any-run and whole-pile Canfield, Solo Canfield,
/// Chameleon, Four Seasons) that took a million nodes or more, it took 462 million nodes in all, against 501
/// million with each round twice the last.
pub(crate) fn solve_unbounded(
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &Progress,
    solve: impl Fn(&Position, &Limits) -> Report,
) -> Report {
    in_rounds(vec![(None, *position)], limits, cancel, progress, solve)
}

/// Decides the `open` searches (a choice's move before each, if any) in rounds, each round's share four times the
/// last one's.
fn in_rounds(
    mut open: Vec<(Option<Move>, Position)>,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &Progress,
    solve: impl Fn(&Position, &Limits) -> Report,
) -> Report {
    let start = Instant::now();
    let mut spent = Report {
        verdict: Verdict::Lost,
        nodes: 0,
        stored: 0,
        elapsed: Duration::ZERO,
        table_bytes: 0,
        passes: Vec::new(),
    };
    // A search that fills the memory limit would fill it again with more time: it stays unknown.
    let mut out_of_memory = false;
    let mut round = 0u32;
    while !open.is_empty() {
        let mut still_open = Vec::new();
        for (mv, child) in open {
            let share = match share(limits, spent.nodes, start, round, cancel) {
                Ok(share) => share,
                Err(limit) => return spent.ended(Verdict::Unknown(limit), start),
            };
            progress.count_from(spent.nodes);
            let report = solve(&child, &share);
            spent.nodes += report.nodes;
            spent.stored += report.stored;
            spent.table_bytes = spent.table_bytes.max(report.table_bytes);
            add_up(&mut spent.passes, &report.passes);
            match report.verdict {
                Verdict::Won(line) => {
                    return spent.ended(Verdict::Won(mv.into_iter().chain(line).collect()), start)
                }
                Verdict::Lost => {}
                Verdict::Unknown(Limit::Memory) => out_of_memory = true,
                Verdict::Unknown(Limit::Cancelled) => {
                    return spent.ended(Verdict::Unknown(Limit::Cancelled), start)
                }
                Verdict::Unknown(Limit::Time | Limit::Nodes) => still_open.push((mv, child)),
            }
        }
        open = still_open;
        round += 1;
    }
    let verdict = if out_of_memory {
        Verdict::Unknown(Limit::Memory)
    } else {
        Verdict::Lost
    };
    spent.ended(verdict, start)
}

impl Report {
    /// What the searches of the rounds used, with their `verdict`, the rounds having started at `start`.
    fn ended(self, verdict: Verdict, start: Instant) -> Report {
        Report {
            verdict,
            elapsed: start.elapsed(),
            ..self
        }
    }
}

/// The limits of one search in round `round` (from 0), whose share is the first round's times `4^round`, the searches
/// before it having spent `nodes` and the time since `start`, or the limit that is spent. Without a time limit the
/// share is counted in nodes.
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
    let growth = 1u32 << (2 * round.min(12));
    let time = time_left.map(|left| left.min(FIRST_TIME.saturating_mul(growth)));
    let nodes = if time.is_some() {
        nodes_left
    } else {
        let share = FIRST_NODES.saturating_mul(u64::from(growth));
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

    /// With no limit a position is searched in rounds of node limits, each four times the last, until one decides
    /// it, the nodes of every round counted, in the report and in the progress another thread watches; a round
    /// that fills the memory limit ends the rounds, since more nodes would fill it again.
    #[test]
    fn with_no_limit_rounds_of_growing_node_limits_go_on_until_a_verdict_or_the_memory_limit() {
        let rules = builtin::rules("canfield").expect("a built-in game");
        let deal = Position::deal(&rules, 1).expect("a deal");
        let (cancel, progress) = (AtomicBool::new(false), Progress::default());
        let rounds = |decides_at: u64, verdict: Verdict| {
            let shares = std::cell::RefCell::new(Vec::new());
            let report = solve_unbounded(
                &deal,
                &Limits::default(),
                &cancel,
                &progress,
                |position, share| {
                    assert_eq!(*position, deal);
                    assert_eq!(share.time, None);
                    let nodes = share.nodes.expect("a node limit in every round");
                    shares.borrow_mut().push(nodes);
                    progress.note(nodes / 2, 0, 0);
                    Report {
                        verdict: if nodes >= decides_at {
                            verdict.clone()
                        } else {
                            Verdict::Unknown(Limit::Nodes)
                        },
                        nodes,
                        stored: 1,
                        elapsed: Duration::ZERO,
                        table_bytes: 8,
                        passes: Vec::new(),
                    }
                },
            );
            (report, shares.into_inner())
        };
        let (report, shares) = rounds(FIRST_NODES * 16, Verdict::Lost);
        assert_eq!(shares, [1, 4, 16].map(|n| n * FIRST_NODES));
        assert_eq!(report.verdict, Verdict::Lost);
        assert_eq!(report.nodes, 21 * FIRST_NODES);
        // The last round's progress counted after the nodes of the rounds before it.
        assert_eq!(progress.nodes(), 5 * FIRST_NODES + 8 * FIRST_NODES);
        let (report, shares) = rounds(FIRST_NODES * 4, Verdict::Unknown(Limit::Memory));
        assert_eq!(shares, [1, 4].map(|n| n * FIRST_NODES));
        assert_eq!(report.verdict, Verdict::Unknown(Limit::Memory));
        // A win has no choice's move before its line.
        let line = deal.legal_moves(&rules)[..1].to_vec();
        let (report, _) = rounds(FIRST_NODES, Verdict::Won(line.clone()));
        assert_eq!(report.verdict, Verdict::Won(line));
    }

    #[test]
    fn the_shares_grow_fourfold_from_round_to_round_within_the_limits() {
        let cancel = AtomicBool::new(false);
        let start = Instant::now();
        let by_nodes = Limits {
            nodes: Some(300_000),
            ..Limits::default()
        };
        assert_eq!(
            share(&by_nodes, 0, start, 0, &cancel).unwrap().nodes,
            Some(FIRST_NODES)
        );
        assert_eq!(
            share(&by_nodes, 0, start, 1, &cancel).unwrap().nodes,
            Some(4 * FIRST_NODES)
        );
        assert_eq!(
            share(&by_nodes, 280_000, start, 1, &cancel).unwrap().nodes,
            Some(20_000)
        );
        assert_eq!(
            share(&by_nodes, 300_000, start, 1, &cancel),
            Err(Limit::Nodes)
        );
        let by_time = Limits {
            time: Some(Duration::from_secs(3600)),
            ..Limits::default()
        };
        assert_eq!(
            share(&by_time, 0, start, 2, &cancel).unwrap().time,
            Some(16 * FIRST_TIME)
        );
        cancel.store(true, Ordering::Relaxed);
        assert_eq!(share(&by_time, 0, start, 0, &cancel), Err(Limit::Cancelled));
    }
}
