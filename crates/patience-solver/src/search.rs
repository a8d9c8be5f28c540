//! Depth-first search over positions, with a transposition table and the pruning proved for the rule set.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use patience_core::{Move, Pile, Position, RuleSet};

use crate::beam::{
    alone_before_the_full_search_from, share_before_the_full_search, Beam, BEAM_MEMORY_SHARE,
    BEAM_SHARE_AFTER_RELAXED_PASSES, BEAM_SHARE_AFTER_RELAXED_WIN, BEAM_SHARE_BESIDE_FULL_SEARCH,
};
use crate::dead_end::{DeadEnd, DeadEnds};
use crate::endgame::Endgame;
use crate::key::{Cut, KeyShape};
use crate::layouts::Layouts;
use crate::lost::{LostStates, Marking, SMALLEST_KEPT};
use crate::passes::{PassEnd, PassKind, PassReport};
use crate::play_order::{ByBase, Finding};
use crate::progress::Progress;
use crate::prune::{tried_before, Pruning};
use crate::relax::{tableau_moves_undo, NextCard, Relaxation};
use crate::table::{cuts_met, least_waste_met, MetCuts, Searched, NOT_MET};

/// Bounds on one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time, if bounded.
    pub time: Option<Duration>,
    /// The most bytes the transposition table may take.
    pub memory_bytes: usize,
    /// The most positions to expand, if bounded.
    pub nodes: Option<u64>,
}

impl Default for Limits {
    /// No time or node limit; a table of at most 1 GiB.
    fn default() -> Limits {
        Limits {
            time: None,
            memory_bytes: 1 << 30,
            nodes: None,
        }
    }
}

/// The limit that stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// The time limit.
    Time,
    /// The memory limit of the transposition table.
    Memory,
    /// The node limit.
    Nodes,
    /// The caller cancelled the search.
    Cancelled,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Winnable: this line of moves wins from the position.
    Won(Vec<Move>),
    /// Proved unwinnable: no line wins.
    Lost,
    /// Not decided: a limit was reached first.
    Unknown(Limit),
}

/// A verdict and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// What the search found.
    pub verdict: Verdict,
    /// Moves tried (positions generated).
    pub nodes: u64,
    /// Positions stored in the transposition table.
    pub stored: usize,
    /// Wall-clock time taken.
    pub elapsed: Duration,
    /// Bytes the transposition table took at its largest.
    pub table_bytes: usize,
    /// What each pass of the search did, in the order they first ran.
    pub passes: Vec<PassReport>,
}

/// Decides whether `position` can be won under `rules`, within `limits`.
pub fn solve(rules: &RuleSet, position: &Position, limits: &Limits) -> Report {
    solve_with_cancel(rules, position, limits, &AtomicBool::new(false))
}

/// Decides as [`solve`] does, but with no pruning at all: exact positions as keys, every legal move searched.
/// Slow; it is the oracle that tests check the pruned search against on small packs.
pub fn solve_unpruned(rules: &RuleSet, position: &Position, limits: &Limits) -> Report {
    let unwatched = Progress::default();
    run(
        rules,
        position,
        limits,
        &AtomicBool::new(false),
        &unwatched,
        false,
        None,
    )
}

/// As [`solve`], stopping with [`Limit::Cancelled`] soon after `cancel` becomes true.
pub fn solve_with_cancel(
    rules: &RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Report {
    solve_watched(rules, position, limits, cancel, &Progress::default())
}

/// As [`solve_with_cancel`], noting in `progress` how far the search has gone as it goes, for another thread to
/// show.
pub fn solve_watched(
    rules: &RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &Progress,
) -> Report {
    let search = |position: &Position, limits: &Limits| {
        run(rules, position, limits, cancel, progress, true, None)
    };
    let mut report = if position.choice_pending() {
        crate::rounds::solve_each(rules, position, limits, cancel, progress, search)
    } else if limits.time.is_none() && limits.nodes.is_none() {
        // The passes share the limits: with none, the search goes in rounds of growing node limits.
        let carried = RefCell::new(Carried::default());
        crate::rounds::solve_unbounded(position, limits, cancel, progress, |position, limits| {
            run(
                rules,
                position,
                limits,
                cancel,
                progress,
                true,
                Some(&mut carried.borrow_mut()),
            )
        })
    } else {
        search(position, limits)
    };
    if let Verdict::Won(line) = &mut report.verdict {
        *line = crate::shorten::shorten(rules, position, line);
    }
    report
}

/// What one round of a search with no limit (see `crate::rounds`) hands on to the next: each round goes on from
/// where the last one's relaxed passes and beams stopped, rather than from nothing.
#[derive(Default)]
struct Carried<'a> {
    /// The states the relaxed passes proved lost: each relaxed pass skips those of its game and marks into them.
    proved: Vec<LostStates>,
    /// The beams, where they stand.
    beam: Option<Beam<'a>>,
}

/// Searches `position` within `limits`, with every pass where `prune` says, else with no pruning at all. In a
/// round of a search with no limit (`carried`), the search goes on from the rounds before, and where none of the
/// passes before the full search was cut off by its share of the round's nodes, more nodes would only give them
/// the same work again: the full search then has no node limit, and the beams go on beside it.
fn run<'a>(
    rules: &'a RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &Progress,
    prune: bool,
    mut carried: Option<&mut Carried<'a>>,
) -> Report {
    let start = Instant::now();
    let mut reports = Vec::new();
    let mut lost: Vec<LostStates> = Vec::new();
    let (shape, pruning) = if prune {
        (KeyShape::new(rules), Pruning::for_rules(rules))
    } else {
        (KeyShape::exact(), Pruning::none())
    };
    let mut before = Spent::default();
    // The beams look for wins beside the passes (see `crate::beam`), in a share of the memory of their own.
    let beam_bytes = if prune {
        limits.memory_bytes / BEAM_MEMORY_SHARE
    } else {
        0
    };
    // Where only whole piles move, so that the order-of-play rule (see `crate::play_order`) holds every card over
    // the one under it, no relaxed pass: a relaxed game raises cards from under others, so it digs through the
    // piles that rule proves lost, and it proves late what the full search with the rule proves at once (Canfield
    // deal 27, lost: 30.8 s with the relaxed passes, 0.000 s without; deals 1..100 at 60 s took 3.2 s a deal with
    // them, 1.4 s without). Where cards move alone or in runs the rule holds far fewer, and the relaxed passes
    // still pay: without them Chameleon deals 1, 2 and 23 stay undecided at 60 s (won in 20 s and 0.9 s, lost in
    // 5.7 s with them).
    let laxer = Relaxation::for_root(rules, position)
        .filter(|_| prune && !pruning.play_order.is_some_and(|rule| rule.whole_piles()));
    let placing = laxer.map(|relaxation| relaxation.with_next(NextCard::PlacedWhenNext));
    let laxer = laxer.map(|relaxation| as_searched(rules, position, relaxation));
    // A beam keys positions by the second relaxed game's states where that game is searched: where cards of a
    // class abound, positions that differ only in which of them lies where fill a beam otherwise (Four Seasons
    // deals 1..200 at 0.5 s a deal: 174 won this way, 153 keyed by positions; Chameleon, Gate and Solo Canfield
    // the same either way).
    let beam_shape = placing.map_or(shape, |relaxation| KeyShape::relaxed(rules, relaxation));
    let mut beam = carried
        .as_mut()
        .and_then(|carried| carried.beam.take())
        .or_else(|| prune.then(|| Beam::new(rules, position, beam_shape, pruning, beam_bytes)));
    let mut proved = carried
        .as_mut()
        .map_or_else(Vec::new, |carried| std::mem::take(&mut carried.proved));
    // Whether a pass before the full search was stopped by its share of the nodes, not done.
    let mut cut_short = false;
    // Whether the laxer relaxed game was won (see `BEAM_SHARE_AFTER_RELAXED_WIN`).
    let mut laxer_won = false;
    let limits = &Limits {
        memory_bytes: limits.memory_bytes - beam_bytes,
        ..*limits
    };
    if let Some(beam) = &mut beam {
        beam.share = share_before_the_full_search(rules);
        beam.alone_from = alone_before_the_full_search_from(rules);
        // The relaxed passes first: measured the other way round, deals 1..200 of any-run Canfield at 6 s a deal
        // gave 133 won, 58 lost, 9 unknown and 0.369 s a deal, against 133, 62, 5 and 0.279 s. The laxer relaxed
        // game comes first, since it proves its losses sooner; the other gets the deals it wins.
        let relaxed = laxer.into_iter().chain(placing).map(Pass::Relaxed);
        // A streamlined pass over the second relaxed game's states first, then one over positions: skipping a
        // position whose state was searched makes the first incomplete, but far smaller where cards of a class
        // abound (Four Seasons deals 8 and 10, won by the second pass in 50 s, are won by the first in 3 s and
        // 0.15 s), and the second finds the wins that need a card where the first put another of its class (Gate
        // deal 20, won by the second in 0.12 s, undecided by the first after 2.5 s).
        let streamlined_by_state =
            placing.map(|relaxation| Pass::Streamlined(KeyShape::relaxed(rules, relaxation)));
        // Where the relaxed passes ran, a short full search after them, before the streamlined passes: those make
        // every move to the foundations at once, and the first of them takes the cards of a class as one, so
        // both miss the wins that need a card kept in the tableau, or a given card of its class, which the full
        // search finds at once (Chameleon deal 22, won in 29,000 nodes of the full search after the streamlined
        // passes had spent 113 million without a win).
        let full_first = placing.map(|_| Pass::Full);
        // Seven eighths for the laxer relaxed pass where it proves the losses (see `LAXER_SHARE`).
        let laxer_share = if tableau_moves_undo(rules) {
            HALF
        } else {
            LAXER_SHARE
        };
        let passes = relaxed
            .chain(full_first)
            .chain(streamlined_by_state)
            .chain([Pass::Streamlined(shape)]);
        for pass in passes {
            let kind = match pass {
                Pass::Relaxed(relaxation) if Some(relaxation) == laxer => {
                    PassKind::LaxerRelaxedGame
                }
                Pass::Relaxed(_) => PassKind::PlacingRelaxedGame,
                Pass::Full => PassKind::ShortFullSearch,
                Pass::Streamlined(key_shape) if key_shape == shape => {
                    PassKind::StreamlinedOverPositions
                }
                Pass::Streamlined(_) => PassKind::StreamlinedOverStates,
            };
            let (share, most_nodes) = match kind {
                PassKind::ShortFullSearch => (FULL_FIRST_SHARE, Some(FULL_FIRST_NODES)),
                PassKind::LaxerRelaxedGame => (laxer_share, None),
                _ => (HALF, None),
            };
            let mut pass_limits = early_pass_limits(limits, before.nodes, start, share, most_nodes);
            let marks = matches!(pass, Pass::Relaxed(_));
            // The states an earlier search's pass of this game proved lost, if any, this pass goes on from.
            let proved_before = match pass {
                Pass::Relaxed(relaxation) => {
                    let states = KeyShape::relaxed(rules, relaxation).of_positions();
                    proved
                        .iter()
                        .position(|lost| lost.shape == states)
                        .map(|at| proved.swap_remove(at))
                }
                _ => None,
            };
            pass_limits.memory_bytes = memory_left(limits, lost.iter().chain(proved.iter()), marks);
            let (mut search, proves_losses) = match pass {
                Pass::Full => (
                    full_search(rules, shape, pruning, &pass_limits, before.nodes),
                    true,
                ),
                Pass::Streamlined(key_shape) => (
                    Search::new(
                        rules,
                        key_shape.with_cuts_apart(),
                        pruning.streamlined(),
                        &pass_limits,
                        before.nodes,
                    ),
                    false,
                ),
                Pass::Relaxed(relaxation) => (
                    Search::of_relaxed_game(
                        rules,
                        position,
                        relaxation,
                        pruning,
                        &pass_limits,
                        before.nodes,
                    ),
                    true,
                ),
            };
            search.skip_lost(std::mem::take(&mut lost));
            if marks {
                let states = proved_before.unwrap_or_else(|| {
                    LostStates::new(
                        search.shape.of_positions(),
                        limits.memory_bytes / LOST_SHARE,
                    )
                });
                search.mark_lost(Marking::new(
                    states,
                    limits.memory_bytes / OPEN_SHARE,
                    SMALLEST_KEPT,
                ));
            }
            // Once relaxed passes have run and proved nothing, the deal is likelier won, and the passes left
            // before the full search only look for wins, as the beams do: the beams take every node after such a
            // pass's first check (see `BEAM_SHARE_AFTER_RELAXED_PASSES`). Deals
            // 1..200 at 0.5 s a deal: Four Seasons 185 won against 175 with the beams' one node in eight, Solo
            // Canfield 142 against 139, Chameleon as before (21 won, 57 lost); any-run Canfield deals 1..200 at
            // 6 s a deal as before (134, 63, 3, 0.22 s a deal). Where no relaxed pass runs, the beams keep their
            // share: equal there, they cost the whole-pile Canfields' lost deals the time of their streamlined
            // pass again, which such a deal runs out early, and Canfield left 26 deals undecided instead of 21,
            // Foster's 27 instead of 23.
            if !proves_losses && laxer.is_some() {
                beam.share = BEAM_SHARE_AFTER_RELAXED_PASSES;
            }
            let beam_before = beam.nodes();
            let outcome = search.run(position, &pass_limits, cancel, progress, start, Some(beam));
            reports.push(PassReport::one_run(
                kind,
                search.spent().nodes - before.nodes,
                beam.nodes() - beam_before,
                outcome.pass_end(proves_losses),
            ));
            cut_short |= matches!(outcome, Outcome::Verdict(Verdict::Unknown(Limit::Nodes)));
            laxer_won |=
                matches!(outcome, Outcome::RelaxedWin) && kind == PassKind::LaxerRelaxedGame;
            before = before.then(search.spent());
            if let Some(verdict) = outcome.ends_the_search(proves_losses) {
                return before.with(beam).report(verdict, start, reports);
            }
            lost = search.into_lost();
            // Each pass's table is dropped here, before the next one's is made.
        }
    }
    let last_round = carried.is_some() && !cut_short;
    let limits = &Limits {
        nodes: limits.nodes.filter(|_| !last_round),
        ..*limits
    };
    let full_limits = Limits {
        memory_bytes: memory_left(limits, lost.iter(), false),
        ..*limits
    };
    let mut search = full_search(rules, shape, pruning, &full_limits, before.nodes);
    search.skip_lost(lost);
    // The full search's time goes to proofs of loss, which the beams cannot shorten: they had their share beside
    // the passes before it. One node in nine for them beside it cost Canfield deals 101 and 43 a quarter more time
    // (10.9 s and 4.8 s against 8.0 s and 3.8 s), and even one in 33 cost deals 399 and 812, lost, 6 to 15 %. With
    // no limit, the full search may run for minutes, and the beams go on beside it, one node in 33. Where the
    // laxer relaxed game was won, the deal is likelier won, and they take half the nodes until they are done. They
    // never take every node here, however many were made (see `beam::BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO`).
    let beside = last_round || laxer_won;
    if let Some(beam) = beam.as_mut().filter(|_| beside) {
        beam.alone_from = u64::MAX;
        beam.share = if laxer_won {
            BEAM_SHARE_AFTER_RELAXED_WIN
        } else {
            BEAM_SHARE_BESIDE_FULL_SEARCH
        };
    }
    let beam_before = beam.as_ref().map_or(0, Beam::nodes);
    let outcome = search.run(
        position,
        limits,
        cancel,
        progress,
        start,
        beam.as_mut().filter(|_| beside),
    );
    reports.push(PassReport::one_run(
        PassKind::FullSearch,
        search.spent().nodes - before.nodes,
        beam.as_ref().map_or(0, Beam::nodes) - beam_before,
        outcome.pass_end(true),
    ));
    let mut verdict = match outcome {
        Outcome::Verdict(verdict) => verdict,
        Outcome::RelaxedWin => unreachable!("the full search plays no relaxed move"),
    };
    let mut spent = before.then(search.spent());
    proved = search.into_lost();
    if let Some(beam) = &mut beam {
        if verdict == Verdict::Unknown(Limit::Memory) {
            // The full search's table is full, but the beams' memory is their own: they go on alone.
            let before = beam.nodes();
            let ended = match beams_alone(beam, limits, cancel, progress, start, spent.nodes) {
                Ok(line) => {
                    verdict = Verdict::Won(line);
                    PassEnd::Won
                }
                Err(ended) => ended,
            };
            let nodes = beam.nodes() - before;
            spent.nodes += nodes;
            reports.push(PassReport::one_run(
                PassKind::BeamsAlone,
                nodes,
                nodes,
                ended,
            ));
        }
        spent = spent.with(beam);
    }
    if let Some(carried) = carried {
        *carried = Carried { proved, beam };
    }
    spent.report(verdict, start, reports)
}

/// The full search over positions, `nodes` spent before it.
fn full_search<'a>(
    rules: &'a RuleSet,
    shape: KeyShape,
    pruning: Pruning,
    limits: &Limits,
    nodes: u64,
) -> Search<'a> {
    // One-way moves tried before are left out in the relaxed passes only: in the full search of whole-pile Canfield
    // the steps left out, mostly children the table held, cost less than the looking (deals 1..1000 at 60 s: 10 %
    // fewer nodes, 0.471 s a deal against 0.447 s), where any-run Canfield's relaxed pass took 0.126 s a deal
    // against 0.130 s.
    Search::new(
        rules,
        shape.with_cuts_apart(),
        Pruning {
            one_way_tried: false,
            ..pruning
        },
        limits,
        nodes,
    )
}

/// Runs the beams with nothing beside them, `nodes` spent already, until one wins (its line), no wider beam fits
/// in their memory ([`PassEnd::Exhausted`]), or a limit is reached ([`PassEnd::Stopped`]).
fn beams_alone(
    beam: &mut Beam,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &Progress,
    start: Instant,
    nodes: u64,
) -> Result<Vec<Move>, PassEnd> {
    let first = beam.nodes();
    while !beam.done() {
        let spent = nodes + beam.nodes() - first;
        progress.note(spent, 0, 0);
        if let Some(limit) = limit_reached(limits, cancel, start)
            .or_else(|| limits.nodes.filter(|&n| spent >= n).map(|_| Limit::Nodes))
        {
            return Err(PassEnd::Stopped(limit));
        }
        if let Some(line) = beam.advance(CHECK_EVERY) {
            return Ok(line);
        }
    }
    Err(PassEnd::Exhausted)
}

/// A pass before the full search.
enum Pass {
    /// Every move to the foundations made at once (see [`Pruning::streamlined`]), positions taken as the same when
    /// they have the same key of this shape: wins come fast where there are any.
    Streamlined(KeyShape),
    /// A relaxed game (see [`crate::relax`]): losses come fast where it proves them, and so do the wins whose line
    /// has none of its own moves.
    Relaxed(Relaxation),
    /// The full search, given a small share (see [`FULL_FIRST_SHARE`]): its wins are real, and its losses too.
    Full,
}

/// How one pass of the search ended.
#[derive(Debug)]
enum Outcome {
    /// A verdict on the real game: a line that wins, a proof that none does, or a limit.
    Verdict(Verdict),
    /// The relaxed game (see [`crate::relax`]) is won, by a line with a relaxed move in it: nothing follows for
    /// the real game.
    RelaxedWin,
}

impl Outcome {
    /// How the pass that came to this outcome ended, where it proves losses (`proves_losses`) or not.
    fn pass_end(&self, proves_losses: bool) -> PassEnd {
        match self {
            Outcome::RelaxedWin => PassEnd::RelaxedWin,
            Outcome::Verdict(Verdict::Won(_)) => PassEnd::Won,
            Outcome::Verdict(Verdict::Lost) if proves_losses => PassEnd::Lost,
            Outcome::Verdict(Verdict::Lost) => PassEnd::Exhausted,
            Outcome::Verdict(Verdict::Unknown(limit)) => PassEnd::Stopped(*limit),
        }
    }

    /// The verdict of the whole search if this pass decides it: a win, cancellation, and, from a pass that proves
    /// losses (`proves_losses`), a loss.
    fn ends_the_search(self, proves_losses: bool) -> Option<Verdict> {
        match self {
            Outcome::Verdict(verdict @ (Verdict::Won(_) | Verdict::Unknown(Limit::Cancelled))) => {
                Some(verdict)
            }
            Outcome::Verdict(Verdict::Lost) if proves_losses => Some(Verdict::Lost),
            _ => None,
        }
    }
}

/// What one pass of the search used.
#[derive(Debug, Default, Clone, Copy)]
struct Spent {
    nodes: u64,
    stored: usize,
    table_bytes: usize,
}

impl Spent {
    /// What this pass and a later one used together: the later pass's nodes count on from this one's.
    fn then(self, later: Spent) -> Spent {
        Spent {
            nodes: later.nodes,
            stored: self.stored + later.stored,
            table_bytes: self.table_bytes.max(later.table_bytes),
        }
    }

    /// What the passes and the beams beside them used together: the beams' nodes are counted in the passes'
    /// already, and their memory is their own.
    fn with(self, beam: &Beam) -> Spent {
        Spent {
            table_bytes: self.table_bytes + beam.peak_bytes(),
            ..self
        }
    }

    fn report(self, verdict: Verdict, start: Instant, passes: Vec<PassReport>) -> Report {
        Report {
            verdict,
            nodes: self.nodes,
            stored: self.stored,
            elapsed: start.elapsed(),
            table_bytes: self.table_bytes,
            passes,
        }
    }
}

/// The share of the limits a pass before the full search gets, the passes before it having spent `nodes` and
/// the time since `start`: `share` of what is left (half, for most passes), and never more than `most_nodes` more
/// nodes. A search with no time or node limit goes in rounds of node limits (see `crate::rounds`), so that there
/// is always a limit to share. A pass that decides nothing often ends well before its share, handing the rest on.
fn early_pass_limits(
    limits: &Limits,
    nodes: u64,
    start: Instant,
    share: Share,
    most_nodes: Option<u64>,
) -> Limits {
    let spent = start.elapsed();
    let share_of_nodes = limits
        .nodes
        .map(|n| nodes + share.of_nodes(n.saturating_sub(nodes)));
    let cap = most_nodes.map(|most| nodes + most);
    Limits {
        time: limits
            .time
            .map(|t| spent + share.of_time(t.saturating_sub(spent))),
        memory_bytes: limits.memory_bytes,
        nodes: match (share_of_nodes, cap) {
            (Some(share), Some(cap)) => Some(share.min(cap)),
            (share, cap) => share.or(cap),
        },
    }
}

/// A share of what a search has left: `parts` in `whole`.
#[derive(Debug, Clone, Copy)]
struct Share {
    parts: u32,
    whole: u32,
}

impl Share {
    /// This share of `nodes`, rounded down.
    fn of_nodes(self, nodes: u64) -> u64 {
        (u128::from(nodes) * u128::from(self.parts) / u128::from(self.whole)) as u64
    }

    /// This share of `time`, divided first so that no time limit, however long, overflows.
    fn of_time(self, time: Duration) -> Duration {
        time / self.whole * self.parts
    }
}

/// What most passes before the full search get: half of what is left.
const HALF: Share = Share { parts: 1, whole: 2 };

/// What the laxer relaxed pass gets, where the tableau's moves cannot all be undone (see [`tableau_moves_undo`]):
/// seven eighths of the limits. There the relaxed passes prove the losses, and the deals they leave undecided
/// are the laxer game's long proofs, which the passes after it do not decide either: of Chameleon deals 1..200 at
/// 60 s a deal, 10 were undecided with half, the laxer pass cut off at 30 s; with three quarters (session 47),
/// deals 19, 56 and 75 are lost (in 35, 28 and 38 s) and deal 122 won (in 45 s), and the deals won in 24 to 52 s
/// search the same nodes. Seven eighths decided none of the six left then; since the laxer game lays its tableau
/// out afresh (session 51), the deals it leaves are fewer and nearer: deal 33's laxer pass proves it lost in 44
/// to 47 s, and deal 322's laxer game is won late, the deal then in 45 s (session 53), both undecided with three
/// quarters, and no deal of 1..400 decided with three quarters is undecided with seven eighths. More gains little:
/// with 31 32nds, Chameleon deals 1..1000 at 500,000 nodes gave nine losses more and four wins fewer, wins the
/// passes after a cut-off laxer pass had found in the last eighth (session 61). Where the tableau's moves undo,
/// the relaxed games are seldom lost, and the passes after them find the wins.
const LAXER_SHARE: Share = Share { parts: 7, whole: 8 };

/// The table of a pass gets what the memory limit leaves after the states earlier passes proved lost, and, in a
/// pass that marks lost states, after what marking may take.
fn memory_left<'a>(
    limits: &Limits,
    lost: impl Iterator<Item = &'a LostStates>,
    marks: bool,
) -> usize {
    let kept: usize = lost.map(|states| states.table.bytes()).sum();
    let marking = if marks {
        limits.memory_bytes / LOST_SHARE + limits.memory_bytes / OPEN_SHARE
    } else {
        0
    };
    limits.memory_bytes.saturating_sub(kept + marking)
}

/// The states a relaxed pass proves lost may take this share of the memory limit: 1 in 4.
const LOST_SHARE: usize = 4;

/// The states a relaxed pass holds open while it marks lost states may take this share of the memory limit.
const OPEN_SHARE: usize = 8;

/// The laxer relaxed pass's endgame searched on numbers (see [`crate::endgame`]) may take this share of its memory:
/// Chameleon deal 19's pass kept 10.4 million states lost there, and 13.4 million positions in its own table.
const ENDGAME_SHARE: usize = 4;

/// The short full search after the relaxed passes gets one in 32 of what is left, where the other passes before
/// the full search get half or more, and at most [`FULL_FIRST_NODES`].
const FULL_FIRST_SHARE: Share = Share {
    parts: 1,
    whole: 32,
};

/// The most nodes the short full search after the relaxed passes gets: the wins it was measured to find took
/// 29,000 to 470,000 (Chameleon deals 22 and 1), and under a time limit of 60 s a 32nd of what is left is some
/// 7 million nodes, which a deal it does not win pays for (Four Seasons deal 8: 1.6 s against 0.27 s).
const FULL_FIRST_NODES: u64 = 1_000_000;

/// How many steps of a position are made and looked up together (see [`Search::look_ahead`]).
const LOOK_AHEAD: usize = 4;

/// The positions the order-of-play rule is worked out at before a search that finds none of them lost drops it.
const PLAY_ORDER_TRIAL: u32 = 65_536;

/// How often, in nodes, the limits are looked at.
const CHECK_EVERY: u64 = 4096;

struct Search<'a> {
    rules: &'a RuleSet,
    shape: KeyShape,
    pruning: Pruning,
    dead_ends: Option<DeadEnds>,
    /// The relaxed game searched instead of the real one, if any: its own moves are made too.
    relaxation: Option<Relaxation>,
    /// Where the laxer relaxed game is searched, its endgame searched on numbers (see [`crate::endgame`]).
    endgame: Option<RefCell<Endgame>>,
    /// Where the relaxed game lays the tableau out afresh, its layouts (see [`crate::layouts`]).
    layouts: Option<Layouts>,
    table: Searched,
    nodes: u64,
    /// Where the states this search proves lost go, if it keeps them (see [`crate::lost`]).
    marking: Option<Marking>,
    /// States earlier passes proved lost: a position in one is not searched.
    known_lost: Vec<LostStates>,
    /// Positions the order-of-play rule worked out, none of them lost; `u32::MAX` once one was.
    play_order_tried: Cell<u32>,
    /// The order-of-play rule's tables.
    play_order_tables: ByBase,
    /// In a relaxed game, the cards of each card's class, for the order-of-play rule's facts by class.
    class_mates: Option<[u64; 64]>,
}

/// One level of the depth-first search: a position, the steps to its children in the order they are tried, the
/// keys of those looked up so far, and the step that led to it from the level below.
struct Frame {
    position: Position,
    /// The position's key and cut.
    key: u128,
    cut: Cut,
    steps: Vec<Step>,
    next: usize,
    via: Option<Step>,
    /// The positions the steps start from: `position` first, then the stock turned to each card the steps play
    /// from the waste, kept so that a step need not turn the stock again.
    turned: Vec<Position>,
    /// The key of each step's child made so far, and where its stock is cut if the key leaves that out, or `None`
    /// where the table covered it already.
    keys: Vec<Option<(u128, Cut)>>,
    /// The position's number in the order the search entered positions, and the least number it reaches by the
    /// steps searched so far among the positions whose component is open (see [`crate::lost`]): both 0 when the
    /// search marks no lost states.
    number: u64,
    low: u64,
    /// The most times a step may turn the stock and not lead to a position the dead-end rule as stated proves
    /// lost (see [`crate::dead_end`], "Deeper in the stock"): one less than the least of a step that puts its
    /// card on the tableau at a position the rule buries, from here or from a position below whose move left the
    /// stock and the waste as they were. The steps that turn it more are left out. `u16::MAX` where none is
    /// known.
    buried_beyond: u16,
    /// What the rules found open at the position, worked out or known from its parent's.
    open: OpenByRules,
}

/// The rules that prove positions lost without a search that found a position open (worked out, or known from its
/// parent's). A run moved between two tableau piles that leaves a card under it keeps the dead-end rule's layer
/// (the tableau holds the same cards on the same bottom cards, and the stock, the waste, the reserve and the
/// foundations are as they were), and, where no card is held, the order-of-play rule's verdict (see
/// `PlayOrder::finds_alike_after`): so the child such a move leads to is open wherever its parent was.
#[derive(Debug, Clone, Copy, Default)]
struct OpenByRules {
    dead_ends: bool,
    play_order: bool,
}

/// Why the search stops while it enters a position.
enum Stop {
    /// This step from the position is a win.
    Won(Step),
    /// A limit was reached.
    Limit(Limit),
}

/// One edge of the search: turn the stock `draws` times (draws and redeals), then make `mv`. Without stock
/// macro-moves `draws` is always 0 and `mv` may itself be a draw or a redeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Step {
    pub(crate) draws: u16,
    /// Which of its frame's `turned` positions the step starts from, the stock already turned, or, for a relaxed
    /// move, two cards changed places.
    pub(crate) turned: u16,
    pub(crate) mv: Move,
    /// Whether the step is a move of the relaxed game only (see [`crate::relax`]).
    pub(crate) relaxed: bool,
}

impl Step {
    /// A step that makes `mv` from the position as it is, the stock not turned.
    pub(crate) fn now(mv: Move) -> Step {
        Step {
            draws: 0,
            turned: 0,
            mv,
            relaxed: false,
        }
    }
}

impl<'a> Search<'a> {
    /// A search whose table may take `limits`' memory, having spent `nodes` in an earlier pass (so that a node
    /// limit bounds both passes together).
    fn new(
        rules: &'a RuleSet,
        shape: KeyShape,
        pruning: Pruning,
        limits: &Limits,
        nodes: u64,
    ) -> Search<'a> {
        Search {
            rules,
            shape,
            pruning,
            dead_ends: None,
            relaxation: None,
            endgame: None,
            layouts: None,
            table: Searched::new(limits.memory_bytes, shape.cuts_apart()),
            nodes,
            marking: None,
            known_lost: Vec::new(),
            play_order_tried: Cell::new(0),
            play_order_tables: ByBase::default(),
            class_mates: None,
        }
    }

    /// Makes the search keep the states it proves lost, as it goes.
    fn mark_lost(&mut self, marking: Marking) {
        debug_assert_eq!(*marking.shape(), self.shape.of_positions());
        self.marking = Some(marking);
    }

    /// Makes the search skip the positions whose state one of `lost` holds.
    fn skip_lost(&mut self, lost: Vec<LostStates>) {
        let shape = self.shape;
        self.known_lost = lost
            .into_iter()
            .map(|states| states.for_a_new_search(&shape))
            .collect();
    }

    /// The states earlier passes proved lost, and those this search proved.
    fn into_lost(self) -> Vec<LostStates> {
        let mut lost = self.known_lost;
        lost.extend(self.marking.map(Marking::into_lost));
        lost
    }

    /// Whether an earlier pass, or an earlier search of the game this pass marks, proved `position` lost, its key
    /// and cut in this search being `key` and `cut`.
    fn known_lost(&mut self, position: &Position, key: u128, cut: Cut) -> bool {
        let marked_before = self.marking.as_ref().is_some_and(Marking::consulted);
        if self.known_lost.is_empty() && !marked_before {
            return false;
        }
        let key = self.shape.position_key(key, cut);
        self.known_lost
            .iter_mut()
            .any(|lost| lost.holds(position, key))
            || self
                .marking
                .as_mut()
                .is_some_and(|marking| marking.holds(position, key))
    }

    /// Numbers a position the search enters, of this key and cut, for the marking of lost states, which marks
    /// positions.
    fn enter(&mut self, frame: &mut Frame, key: u128, cut: Cut, met: MetCuts) {
        (frame.key, frame.cut) = (key, cut);
        let position = self.shape.position_key(key, cut);
        let Some(marking) = self.marking.as_mut() else {
            (frame.number, frame.low) = (0, 0);
            return;
        };
        frame.number = marking.enter(position);
        frame.low = frame.number;
        // The stock plays left out (see `stock_plays`) were made from the positions of this state met before,
        // which stand for them here: the position reaches those of its remainder by draws. Joining the component
        // of one it does not reach, at another remainder, only closes that component later, lost as before.
        for cut in cuts_met(met) {
            if let Some(number) = marking.reached(self.shape.position_key(key, cut)) {
                frame.low = frame.low.min(number);
            }
        }
    }

    /// Notes a step to a position the table covers, of this key and cut: if the component of the position met
    /// that covers it is open, the frame reaches it. A covered position is lost if the one covering it is, so the
    /// step counts as a step to that one.
    fn reached(&self, frame_low: &mut u64, key: u128, cut: Cut) {
        let Some(marking) = &self.marking else {
            return;
        };
        if let Some(number) = self
            .table
            .covering(key, cut)
            .and_then(|met| marking.reached(self.shape.position_key(key, met)))
        {
            *frame_low = (*frame_low).min(number);
        }
    }

    /// A search of the relaxed game (see [`crate::relax`]): its states keyed by class, its own moves made too,
    /// `pruning` with safe moves only where they are proved for it (see [`Search::order_steps`]), and the order of
    /// play with its facts by class (see [`crate::play_order`]), since a relaxed game raises a card from the top
    /// of any pile a card of its class tops. Those facts find positions lost only where a class holds two cards at
    /// most (alternate colours): in any-run Canfield they took deal 101's proof from 8.9 s to 1.6 s and deal 848's
    /// from 40.3 s to 25.3 s, though 812's from 9.1 s to 10.8 s; where a class holds four cards (building
    /// regardless of suit) they found none lost in Chameleon deals 12 and 13, and the checks before the rule is
    /// dropped (see [`Search::play_order_lost`]) cost Chameleon 6 of its 59 losses at 0.5 s a deal.
    /// Where the game has an endgame to search on numbers (see [`crate::endgame`]; not where every move between
    /// tableau piles can be undone, whose relaxed games seldom have a loss to prove), that search gets
    /// [`ENDGAME_SHARE`] of the memory.
    fn of_relaxed_game(
        rules: &'a RuleSet,
        root: &Position,
        relaxation: Relaxation,
        pruning: Pruning,
        limits: &Limits,
        nodes: u64,
    ) -> Search<'a> {
        let class_mates = relaxation.class_mates(rules.pack.ranks);
        let pairs = classes_of_two_at_most(&class_mates);
        let endgame_bytes = limits.memory_bytes / ENDGAME_SHARE;
        let endgame = (!tableau_moves_undo(rules))
            .then(|| Endgame::for_root(rules, root, relaxation, endgame_bytes))
            .flatten();
        let limits = &Limits {
            memory_bytes: limits.memory_bytes - if endgame.is_some() { endgame_bytes } else { 0 },
            ..*limits
        };
        Search {
            relaxation: Some(relaxation),
            endgame: endgame.map(RefCell::new),
            layouts: relaxation
                .lays_out_afresh()
                .then(|| Layouts::for_root(rules, root, &relaxation))
                .flatten(),
            class_mates: Some(class_mates),
            ..Search::new(
                rules,
                KeyShape::relaxed(rules, relaxation).with_cuts_apart(),
                Pruning {
                    play_order: pruning.play_order.filter(|_| pairs),
                    ..pruning
                },
                limits,
                nodes,
            )
        }
    }

    /// Counts the children the endgame's searches keyed since this was last called as the search's nodes, and
    /// gives how many.
    fn count_endgame_nodes(&mut self) -> u64 {
        let nodes = self
            .endgame
            .as_ref()
            .map_or(0, |endgame| endgame.borrow_mut().take_nodes());
        self.nodes += nodes;
        nodes
    }

    /// What the search used; its table's bytes count those of the sets of lost states it holds.
    fn spent(&self) -> Spent {
        let lost = self
            .known_lost
            .iter()
            .chain(self.marking.as_ref().map(Marking::lost));
        Spent {
            nodes: self.nodes,
            stored: self.table.len(),
            table_bytes: self.table.bytes()
                + lost.map(|states| states.table.bytes()).sum::<usize>()
                + self.endgame.as_ref().map_or(0, |e| e.borrow().bytes()),
        }
    }

    /// Searches from `root`, handing `beam`, if any, its share of the nodes as it goes, and noting in `progress`
    /// how far it has gone.
    fn run(
        &mut self,
        root: &Position,
        limits: &Limits,
        cancel: &AtomicBool,
        progress: &Progress,
        start: Instant,
        mut beam: Option<&mut Beam>,
    ) -> Outcome {
        if root.is_won() {
            return Outcome::Verdict(Verdict::Won(Vec::new()));
        }
        if let Some(limit) = limit_reached(limits, cancel, start) {
            return Outcome::Verdict(Verdict::Unknown(limit));
        }
        if self.pruning.dead_ends {
            self.dead_ends = DeadEnds::for_root(self.rules, root).map(|rule| {
                if self.layouts.is_some() {
                    rule.kept_whatever_the_trial()
                } else {
                    rule
                }
            });
        }
        let root_key = self.shape.key(root);
        if self.table.visit(root_key, self.shape.cut(root)).is_err() {
            return Outcome::Verdict(Verdict::Unknown(Limit::Memory));
        }
        // Frames above `depth` keep their step lists' allocations for reuse.
        let mut frames: Vec<Frame> = Vec::new();
        let mut depth = 0;
        let mut next_check = self.nodes + CHECK_EVERY;
        // The endgame's nodes since the last check (see `crate::endgame`): the beams get their share of those too,
        // or they fall behind where the endgame does much of the work. Chameleon deal 133, won, with 512 MiB: 4.4 s
        // without the endgame; with it, 17 s with the beams' share of the search's own nodes alone, 3.2 s with
        // their share of the endgame's too.
        let mut endgame_nodes = 0;
        if self.order_steps(&mut frames, depth, *root, None, NOT_MET) {
            // Lost whatever its cut (see `lost_by_rules`): no position of the state is searched again.
            self.table.cover_every_cut(root_key);
        }
        endgame_nodes += self.count_endgame_nodes();
        self.enter(&mut frames[0], root_key, self.shape.cut(root), NOT_MET);
        loop {
            if self.nodes >= next_check {
                next_check = self.nodes + CHECK_EVERY;
                let endgame_nodes = std::mem::take(&mut endgame_nodes);
                if let Some(beam) = beam.as_deref_mut() {
                    let before = beam.nodes();
                    let won =
                        beam.advance(beam.nodes_beside(CHECK_EVERY + endgame_nodes, self.nodes));
                    self.nodes += beam.nodes() - before;
                    if let Some(line) = won {
                        return Outcome::Verdict(Verdict::Won(line));
                    }
                }
                progress.note(self.nodes, self.table.len(), self.table.bytes());
                if let Some(limit) = limit_reached(limits, cancel, start) {
                    return Outcome::Verdict(Verdict::Unknown(limit));
                }
            }
            let (below, from_here) = frames.split_at_mut(depth);
            let frame = &mut from_here[0];
            if frame.next == frame.steps.len() {
                if depth == 0 {
                    return Outcome::Verdict(Verdict::Lost);
                }
                if let Some(marking) = &mut self.marking {
                    if frame.low == frame.number {
                        marking.settle(frame.number);
                    } else if let Some(parent) = below.last_mut() {
                        parent.low = parent.low.min(frame.low);
                    }
                }
                depth -= 1;
                continue;
            }
            if frame.next == frame.keys.len() {
                if let Err(stop) = self.look_ahead(frame, below.last(), limits) {
                    return self.stopped(&frames, depth, stop);
                }
            }
            let (step, key) = (frame.steps[frame.next], frame.keys[frame.next]);
            frame.next += 1;
            let Some((key, cut)) = key else {
                continue;
            };
            // The child is claimed only now: claimed when its parent was entered, a position reached again deeper
            // in an earlier sibling's search would wait for the parent, and the search would find its wins later
            // (Florentine deal 130: won in 167,000 nodes this way, undecided after 100 million the other).
            let met = match self.table.visit(key, cut) {
                Ok(Some(met)) => met,
                Ok(None) => {
                    self.reached(&mut frame.low, key, cut);
                    continue;
                }
                Err(_) => return Outcome::Verdict(Verdict::Unknown(Limit::Memory)),
            };
            let mut child = frame.turned[step.turned as usize];
            child.apply(self.rules, step.mv);
            if self.known_lost(&child, key, cut) {
                continue;
            }
            depth += 1;
            if self.order_steps(&mut frames, depth, child, Some(step), met) {
                // Lost whatever its cut (see `lost_by_rules`): no position of the state is searched again.
                self.table.cover_every_cut(key);
            }
            endgame_nodes += self.count_endgame_nodes();
            self.enter(&mut frames[depth], key, cut, met);
        }
    }

    /// Whether the order-of-play rule (see [`crate::play_order`]) proves `position` lost. A search whose first
    /// [`PLAY_ORDER_TRIAL`] positions worked out are none of them lost drops the rule: where the tableau fills its
    /// spaces it seldom finds anything, and Four Seasons deal 8 worked it out at 985,000 positions, none lost, for
    /// 2.56 s against 2.24 s without it. Chameleon deal 1, whose win needs the rule, is won with the same nodes
    /// (53 positions lost among 199,000 worked out, against 283,000 without the trial), and deal 19 searches 10 %
    /// more nodes a second, its searches finding none lost. Where only whole piles move, the rule is kept
    /// whatever its first positions give, since the search there stands on it (the relaxed passes are left out
    /// for it, see [`run`]): Canfield deal 26, none of whose first 65,536 positions worked out is lost, ran out of
    /// 512 MiB after 202 million nodes with the trial, and is lost in 1.4 million nodes without it.
    fn play_order_lost(&self, position: &Position) -> Finding {
        let Some(rule) = self.pruning.play_order else {
            return Finding::Open;
        };
        let tried = if rule.whole_piles() {
            u32::MAX
        } else {
            self.play_order_tried.get()
        };
        if tried == PLAY_ORDER_TRIAL {
            return Finding::Open;
        }
        let finding = rule.judge(
            self.rules,
            position,
            self.class_mates.as_ref(),
            &self.play_order_tables,
        );
        if tried != u32::MAX {
            self.play_order_tried.set(if finding == Finding::Open {
                tried + 1
            } else {
                u32::MAX
            });
        }
        finding
    }

    /// Counts a position the order-of-play rule is known to find open, without working it out, as one it found
    /// open, so that its trial ends where it would have.
    fn play_order_found_open(&self) {
        let tried = self.play_order_tried.get();
        if tried < PLAY_ORDER_TRIAL {
            self.play_order_tried.set(tried + 1);
        }
    }

    /// The outcome of a search stopped while entering the position at `depth`.
    fn stopped(&self, frames: &[Frame], depth: usize, stop: Stop) -> Outcome {
        match stop {
            Stop::Won(last) => {
                let mut path = frames[1..=depth].iter().filter_map(|frame| frame.via);
                if last.relaxed || path.any(|step| step.relaxed) {
                    Outcome::RelaxedWin
                } else {
                    Outcome::Verdict(Verdict::Won(self.line(frames, depth, last)))
                }
            }
            Stop::Limit(limit) => Outcome::Verdict(Verdict::Unknown(limit)),
        }
    }

    /// The moves from the root to the position at `depth`, then those of `last` from it.
    fn line(&self, frames: &[Frame], depth: usize, last: Step) -> Vec<Move> {
        let mut line = Vec::new();
        for level in 1..=depth {
            if let Some(via) = frames[level].via {
                let mut position = frames[level - 1].position;
                take(self.rules, &mut position, via, |mv| line.push(mv));
            }
        }
        let mut position = frames[depth].position;
        take(self.rules, &mut position, last, |mv| line.push(mv));
        line
    }

    /// Makes the children of the frame's next [`LOOK_AHEAD`] steps and keys them, leaving out the key of any the
    /// table holds already. Their table slots are all fetched before any is looked at, so that their cache misses
    /// overlap: the table is most of the search's memory traffic. A few at a time, not all, because a position may
    /// have dozens of steps (Simplicity's stock), and a win found early makes the rest needless.
    /// A child that is the frame's parent (a move undone) is left out unkeyed: the parent is in the table, as
    /// every position on the search's path is, and the most common child found there (13 % of the children of
    /// any-run Canfield deal 7, 23 % of Four Seasons deal 5's), so a comparison saves its key and lookup.
    /// Stops at a child that is won, or at the node limit.
    fn look_ahead(
        &mut self,
        frame: &mut Frame,
        parent: Option<&Frame>,
        limits: &Limits,
    ) -> Result<(), Stop> {
        let from = frame.keys.len();
        let to = (from + LOOK_AHEAD).min(frame.steps.len());
        for &step in &frame.steps[from..to] {
            if limits.nodes.is_some_and(|n| self.nodes >= n) {
                return Err(Stop::Limit(Limit::Nodes));
            }
            self.nodes += 1;
            let moved_run = (step.draws == 0 && !step.relaxed)
                .then(|| {
                    self.shape
                        .key_after_run_moved(&frame.position, frame.key, step.mv)
                })
                .flatten();
            // `None` for a move undone, which leads back to the position below, on the search's path.
            let child = match moved_run {
                // The stock and the waste stay as they were, and with them the cut.
                Some(key) => {
                    let back =
                        parent.is_some_and(|parent| (parent.key, parent.cut) == (key, frame.cut));
                    (!back).then_some((key, frame.cut))
                }
                None => {
                    let mut child = frame.turned[step.turned as usize];
                    child.apply(self.rules, step.mv);
                    if child.is_won() {
                        return Err(Stop::Won(step));
                    }
                    let back = parent.is_some_and(|parent| parent.position == child);
                    (!back).then(|| (self.shape.key(&child), self.shape.cut(&child)))
                }
            };
            let Some((key, cut)) = child else {
                frame.low = frame
                    .low
                    .min(parent.map_or(frame.low, |parent| parent.number));
                frame.keys.push(None);
                continue;
            };
            self.table.prefetch(key);
            frame.keys.push(Some((key, cut)));
        }
        for i in from..frame.keys.len() {
            if let Some((key, cut)) = frame.keys[i].filter(|&(k, cut)| self.table.covers(k, cut)) {
                self.reached(&mut frame.low, key, cut);
                frame.keys[i] = None;
            }
        }
        Ok(())
    }

    /// Whether the rules that prove positions lost without a search, the dead ends' and the order of play's,
    /// prove `position` lost, reached by `via`, at every cut or at its own. Where the stock cycles, which is where
    /// a search keeps states (see [`KeyShape::with_cuts_apart`]), the dead-end rule works out only its third
    /// condition, which takes the stock and the waste as one set of cards: a state it finds lost is lost at every
    /// cut. The order of play follows which cards of the stock may come to the top of the waste, which depends on
    /// the cut (see [`crate::play_order`]): a position it finds lost there is lost at every cut where it is lost
    /// with every card of the stock and the waste free, which does not look at the cut; else at its own, and at
    /// the cuts its draws reach. A state that it finds open at one cut it may find lost at another, which the
    /// search then searches without the rules: leaving a rule out only searches more. Where neither proves it
    /// lost, which of them found it open: `as_parent`, what is known open from its parent's, is taken as found
    /// (Chameleon deal 161's full search judged most of its positions so).
    fn lost_by_rules(
        &self,
        position: &Position,
        via: Option<Step>,
        as_parent: OpenByRules,
    ) -> Result<OpenByRules, Finding> {
        if let Some(rule) = &self.dead_ends {
            if as_parent.dead_ends {
                rule.count_a_layer_met_again(self.rules, position);
            } else if rule.lost(self.rules, position) {
                return Err(Finding::LostAtEveryCut);
            }
        }
        if self.endgame.as_ref().is_some_and(|endgame| {
            endgame
                .borrow_mut()
                .lost(self.rules, self.dead_ends.as_ref(), position, self.nodes)
        }) {
            return Err(Finding::LostAtItsCut);
        }
        let open = |play_order| OpenByRules {
            dead_ends: true,
            play_order,
        };
        if as_parent.play_order {
            self.play_order_found_open();
            return Ok(open(true));
        }
        // Leaving the rule out at a position only searches more. It is worked out at the root and where a move put
        // a card on a tableau pile: a move that only sends a card up, or turns the stock, holds no card over
        // another, so it seldom makes lost a position whose parent was not (Canfield deal 290: 13 % of the time
        // went to the held cards alone when every position was worked out). Where the rule counts spaces, a card
        // sent up may be the last that could take a reserve card, which then needs a space: there it is worked
        // out at every position (Canfield deal 399, lost: 11.1 million nodes and 7.0 s against 17.5 million and
        // 8.7 s), but in the game itself only: in the relaxed passes of any-run Canfield deals 7, 101 and 812 it
        // gave the same nodes, or 0.6 % fewer, and took 4 to 60 % longer.
        let counted = self.relaxation.is_none()
            && self
                .pruning
                .play_order
                .is_some_and(|rule| rule.counts_spaces());
        let worked_out = counted || via.is_none_or(|step| matches!(step.mv.to, Pile::Tableau(_)));
        if !worked_out {
            return Ok(open(false));
        }
        match self.play_order_lost(position) {
            Finding::Open => Ok(open(true)),
            lost => Err(lost),
        }
    }

    /// A move to the foundations safe to make at once from `position`, in the game this search plays: of `from`'s
    /// top card, or of any pile's where `from` is `None`.
    fn safe_move(&self, position: &Position, from: Option<Pile>) -> Option<Move> {
        // The placing relaxed game makes none (see `crate::relax`).
        if self
            .relaxation
            .is_some_and(|relaxation| relaxation.next() != NextCard::AnyOfItsClass)
        {
            return None;
        }
        // In the laxer relaxed game, of cards whose class holds no other card off the foundations (see
        // `crate::relax`): deals 7, 101 and 18 of any-run Canfield are proved lost in 21, 25 and 14 % fewer nodes.
        let alone = |card| {
            self.relaxation
                .is_none_or(|relaxation| relaxation.alone_in_class(position, card))
        };
        match from {
            Some(from) => self
                .pruning
                .safe_move_from(self.rules, position, from, &alone),
            None => self
                .pruning
                .safe_move_of_cards_alone(self.rules, position, alone),
        }
    }

    /// Puts `position`, its state met before at the cuts `met`, at `depth` with all its steps, in the order they
    /// are searched: none where the rules prove it lost (worked out only where its state is met first, see
    /// [`Search::lost_by_rules`]), and then `true` where they prove it lost at every cut; a safe move alone if
    /// there is one; otherwise moves to the foundations and steps that turn the stock least first, and a relaxed
    /// game's own moves last, but no step that turns the stock so far that the dead-end rule proves it lost.
    fn order_steps(
        &self,
        frames: &mut Vec<Frame>,
        depth: usize,
        position: Position,
        via: Option<Step>,
        met: MetCuts,
    ) -> bool {
        if frames.len() == depth {
            frames.push(Frame {
                position,
                key: 0,
                cut: None,
                steps: Vec::new(),
                next: 0,
                via,
                turned: Vec::new(),
                keys: Vec::new(),
                number: 0,
                low: 0,
                buried_beyond: u16::MAX,
                open: OpenByRules::default(),
            });
        }
        let tried = match (via, depth.checked_sub(1)) {
            (Some(via), Some(below)) if self.pruning.one_way_tried && !via.relaxed => {
                OneWayTried::before(&frames[below], &position)
            }
            _ => OneWayTried::default(),
        };
        // A move that leaves the stock and the waste as they were keeps the parent's deeper draws buried.
        let buried_beyond = match (via, depth.checked_sub(1)) {
            (Some(step), Some(below)) if step.draws == 0 && keeps_stock_and_waste(step.mv) => {
                frames[below].buried_beyond
            }
            _ => u16::MAX,
        };
        // A run moved between piles from a position the rules found open leaves it open (see `OpenByRules`).
        let as_parent = match (via, depth.checked_sub(1)) {
            (Some(step), Some(below)) if step.draws == 0 && step.turned == 0 && !step.relaxed => {
                let parent = &frames[below];
                let within = moves_within_the_layouts(&parent.position, step.mv);
                OpenByRules {
                    dead_ends: within && parent.open.dead_ends,
                    play_order: within
                        && parent.open.play_order
                        && self.pruning.play_order.is_some_and(|rule| {
                            rule.finds_alike_after(
                                &parent.position,
                                step.mv,
                                &self.play_order_tables,
                            )
                        }),
                }
            }
            _ => OpenByRules::default(),
        };
        let frame = &mut frames[depth];
        frame.position = position;
        frame.open = OpenByRules::default();
        frame.next = 0;
        frame.via = via;
        frame.steps.clear();
        frame.keys.clear();
        frame.turned.clear();
        frame.turned.push(position);
        frame.buried_beyond = buried_beyond;
        // The rules are worked out where a state is met first (see `lost_by_rules`): a state they prove lost at
        // every cut covers every cut since; one lost at this cut alone, or not lost, is searched at the other cuts
        // it is met at, without them.
        if met == NOT_MET {
            match self.lost_by_rules(&position, via, as_parent) {
                Ok(open) => frame.open = open,
                Err(Finding::LostAtEveryCut) => return true,
                Err(_) => return false,
            }
        }
        if let Some(mv) = self.safe_move(&position, None) {
            // A safe move tried before leads to a lost position, and so does this one, which then has no step.
            if !tried.holds(Step::now(mv)) {
                frame.steps.push(Step::now(mv));
            }
            return false;
        }
        let steps = &mut frame.steps;
        let macros = self.pruning.stock_macros && !position.choice_pending();
        // A streamlined search makes a move to the foundations alone, from the waste too, so that what it searched
        // from a position met before depends on its cut: it searches the stock plays of each position it enters.
        let met = if self.pruning.every_foundation_move_first {
            NOT_MET
        } else {
            met
        };
        legal_steps(self.rules, position, macros, met, steps, &mut frame.turned);
        match self.relaxation {
            Some(relaxation) if relaxation.next() == NextCard::AnyOfItsClass => {
                raises_from_class(&relaxation, &position, steps, &mut frame.turned);
            }
            Some(relaxation) => {
                for i in 0..steps.len() {
                    let step = steps[i];
                    let from = frame.turned[step.turned as usize];
                    relaxation.places_of_next(self.rules, &from, step.mv, |changed| {
                        steps.push(Step {
                            turned: frame.turned.len() as u16,
                            relaxed: true,
                            ..step
                        });
                        frame.turned.push(changed);
                    });
                }
            }
            None => {}
        }
        if let Some(layouts) = &self.layouts {
            // A run moved between piles that leaves no space leads to a layout of the same state; the steps that
            // leave a space, or send up a card, of the other layouts lead where this one's may not (see
            // `crate::layouts`).
            let turned = &frame.turned;
            steps.retain(|step| !moves_within_the_layouts(&turned[step.turned as usize], step.mv));
            let wanted = layouts.wanted(&position);
            if !wanted.is_empty() {
                let mut others = Vec::new();
                layouts.others(&position, wanted, &mut others);
                for other in others {
                    let from = frame.turned.len() as u16;
                    frame.turned.push(other);
                    for t in 0..other.tableau_piles() as u8 {
                        let pile = Pile::Tableau(t);
                        other.for_each_legal_move_from(self.rules, pile, |mv| {
                            let leaves_space = other.len(pile) == usize::from(mv.count);
                            let kept = match mv.to {
                                Pile::Foundation(_) => true,
                                Pile::Tableau(_) => leaves_space && other.len(mv.to) > 0,
                                _ => false,
                            };
                            if kept {
                                steps.push(Step {
                                    draws: 0,
                                    turned: from,
                                    mv,
                                    relaxed: true,
                                });
                            }
                        });
                    }
                    if let Some(relaxation) = &self.relaxation {
                        raises_from_class(relaxation, &other, steps, &mut frame.turned);
                    }
                }
            }
        }
        // A card the stock turns up that may go to its foundation at once covers every step that turns the stock
        // further, and every other step from where it stands (see `crate::prune`, "A safe card in the stock").
        // Where no waste card can be safe (a draw of three, cards that come back), the steps need no look.
        let safe_turn = if self.pruning.waste_may_be_safe() {
            first_safe_turn(steps, &frame.turned, |turned| {
                self.safe_move(turned, Some(Pile::Waste))
            })
        } else {
            None
        };
        if let Some(safe) = safe_turn {
            steps.retain(|step| step.draws < safe.draws || *step == safe);
        }
        // Only now: a relaxed step made beside a one-way move tried before (a card placed as it comes next) need not
        // lead where one from the parent did.
        if tried.len > 0 {
            steps.retain(|&step| !tried.holds(step));
        }
        // The streamliner leaves a pending choice open: each choice is a different game.
        if self.pruning.every_foundation_move_first && !position.choice_pending() {
            let now = |step: &&Step| step.draws == 0 && matches!(step.mv.to, Pile::Foundation(_));
            if let Some(&first) = steps.iter().find(now) {
                steps.clear();
                steps.push(first);
                return false;
            }
        }
        // With unlimited redeals no card is lost by turning past it, so foundation moves lead wherever the
        // stock stands; otherwise the nearest stock cards lead.
        let cycling = position.redeals_left().is_none();
        steps.sort_by_key(|step| {
            // A relaxed game's own moves come last, so that its wins are real ones where it can find them: deals
            // 1..100 of Chameleon at 2 s a deal gave 6 won, 29 lost, 65 unknown this way, and 4, 29, 67 with them
            // among the moves to the foundations.
            let rank = match (step.mv.from, step.mv.to) {
                _ if step.relaxed => 3,
                (_, Pile::Foundation(_)) => 0,
                (Pile::Stock, _) | (_, Pile::Stock) => 2,
                _ => 1,
            };
            if cycling {
                (rank, step.draws)
            } else {
                (step.draws, rank)
            }
        });
        // Where a step that turns the stock `j` times and puts its card on the tableau leads to a position the
        // dead-end rule buries, every step that turns it `j` times or more leads to a lost one (see
        // `crate::dead_end`, "Deeper in the stock"). Such steps are worked out the least `j` first, up to the first
        // the rule buries: they are the steps the search would enter first, so their verdicts are still in the
        // rule's cache when it does. The rule buries only where no redeal is left, which a stock that cycles
        // never comes to: there the steps are not worked out (Canfield deal 290 took 3 % longer when they were).
        let redeals_run_out = position.redeals_left().is_some();
        if let Some(rule) = self.dead_ends.as_ref().filter(|_| redeals_run_out) {
            let turned = &frame.turned;
            let buried = steps
                .iter()
                .filter(|step| {
                    step.draws > 0
                        && step.draws <= frame.buried_beyond
                        && matches!(step.mv.to, Pile::Tableau(_))
                })
                .find(|step| {
                    let mut child = turned[step.turned as usize];
                    child.apply(self.rules, step.mv);
                    rule.judge(self.rules, &child) == DeadEnd::Buried
                });
            if let Some(step) = buried {
                frame.buried_beyond = step.draws - 1;
            }
            let beyond = frame.buried_beyond;
            steps.retain(|step| step.draws <= beyond);
        }
        false
    }
}

/// The one-way moves that a position need not try, having been tried from its parent before the step that led to
/// it (see [`crate::prune::tried_before`]): their draws and moves.
#[derive(Default)]
struct OneWayTried {
    steps: [(u16, Option<Move>); MOST_TRIED],
    len: usize,
}

/// The most one-way moves kept as tried.
const MOST_TRIED: usize = 8;

impl OneWayTried {
    /// Those of the steps that `parent` tried before its last that `child`, the position that last step led to,
    /// need not try.
    fn before(parent: &Frame, child: &Position) -> OneWayTried {
        let mut tried = OneWayTried::default();
        // A step that took a card from the stock or the waste left no move from the waste as it was: the steps
        // that play from the stock, most of a position's, need no look then.
        let stock_kept = child.len(Pile::Stock) == parent.position.len(Pile::Stock)
            && child.len(Pile::Waste) == parent.position.len(Pile::Waste);
        for step in &parent.steps[..parent.next.saturating_sub(1)] {
            if tried.len < MOST_TRIED
                && !step.relaxed
                && (stock_kept || step.mv.from != Pile::Waste)
                && tried_before(&parent.position, step.draws, step.mv, child)
            {
                tried.steps[tried.len] = (step.draws, Some(step.mv));
                tried.len += 1;
            }
        }
        tried
    }

    /// Whether `step` is one of them.
    fn holds(&self, step: Step) -> bool {
        !step.relaxed && self.steps[..self.len].contains(&(step.draws, Some(step.mv)))
    }
}

/// The limit a search started at `start` has reached, of cancellation and time: nodes are counted where they are made.
fn limit_reached(limits: &Limits, cancel: &AtomicBool, start: Instant) -> Option<Limit> {
    if cancel.load(Ordering::Relaxed) {
        return Some(Limit::Cancelled);
    }
    if limits.time.is_some_and(|t| start.elapsed() >= t) {
        return Some(Limit::Time);
    }
    None
}

/// Whether `mv` moves a card from the tableau or a reserve pile to the tableau or a foundation, leaving the stock
/// and the waste as they were.
fn keeps_stock_and_waste(mv: Move) -> bool {
    matches!(mv.from, Pile::Tableau(_) | Pile::Reserve(_))
        && matches!(mv.to, Pile::Tableau(_) | Pile::Foundation(_))
}

/// Every legal move from `position` as a step; with `macros`, the stock is not turned a draw at a time but to each
/// of its cards that has a play (see [`stock_plays`]).
pub(crate) fn legal_steps(
    rules: &RuleSet,
    position: Position,
    macros: bool,
    met: MetCuts,
    steps: &mut Vec<Step>,
    turned_to: &mut Vec<Position>,
) {
    position.for_each_legal_move(rules, |mv| {
        if !(macros && mv.is_stock_move()) {
            steps.push(Step::now(mv));
        }
    });
    if macros {
        stock_plays(rules, position, met, steps, turned_to);
    }
}

/// Of `steps` from one position, each starting from its position in `turned`, the one that turns the stock least
/// and then sends the waste's top card up by the move `safe` finds safe to make at once there, if any: it covers
/// every step that turns the stock further, and every other step from where it stands (see `crate::prune`, "A
/// safe card in the stock").
pub(crate) fn first_safe_turn(
    steps: &[Step],
    turned: &[Position],
    safe: impl Fn(&Position) -> Option<Move>,
) -> Option<Step> {
    steps
        .iter()
        .filter(|step| {
            step.draws > 0
                && !step.relaxed
                && step.mv.from == Pile::Waste
                && matches!(step.mv.to, Pile::Foundation(_))
        })
        .filter(|step| safe(&turned[usize::from(step.turned)]) == Some(step.mv))
        .min_by_key(|step| step.draws)
        .copied()
}

/// Pushes the laxer relaxed game's own moves from `position` (see [`Relaxation::raised_from_class`]) as relaxed
/// steps, each from the position with its two cards changed places, pushed onto `turned`.
fn raises_from_class(
    relaxation: &Relaxation,
    position: &Position,
    steps: &mut Vec<Step>,
    turned: &mut Vec<Position>,
) {
    relaxation.raised_from_class(position, |changed, mv| {
        steps.push(Step {
            draws: 0,
            turned: turned.len() as u16,
            mv,
            relaxed: true,
        });
        turned.push(changed);
    });
}

/// Whether every class holds two cards at most, `class_mates` giving each card's class.
fn classes_of_two_at_most(class_mates: &[u64; 64]) -> bool {
    class_mates.iter().all(|mates| mates.count_ones() <= 2)
}

/// The relaxed game the passes search for `relaxation`: the laxer one with its tableau laid out afresh at will
/// where the rules give layouts (see [`crate::layouts`]) and its classes hold more than two cards, so that the
/// order-of-play rule, whose facts by class are proved for the laxer game as it is, is not used in it (see
/// [`Search::of_relaxed_game`]).
fn as_searched(rules: &RuleSet, position: &Position, relaxation: Relaxation) -> Relaxation {
    let lays_out = relaxation.next() == NextCard::AnyOfItsClass
        && !classes_of_two_at_most(&relaxation.class_mates(rules.pack.ranks))
        && Layouts::for_root(rules, position, &relaxation).is_some();
    if lays_out {
        relaxation.laid_out_afresh()
    } else {
        relaxation
    }
}

/// Whether `mv` from `position` moves a run between tableau piles and leaves no space: where the tableau is laid
/// out afresh, it leads to a layout of the same state (see [`crate::layouts`]).
fn moves_within_the_layouts(position: &Position, mv: Move) -> bool {
    matches!((mv.from, mv.to), (Pile::Tableau(_), Pile::Tableau(_)))
        && position.len(mv.from) > usize::from(mv.count)
        && position.len(mv.to) > 0
}

/// The plays of the waste's top card at every state the stock can be turned to from `position`: to the end
/// of the stock and through every redeal allowed; with unlimited redeals, through one whole pass after the
/// first redeal, after which the passes repeat.
///
/// But those that positions of its state met before made (`met`, where a search keeps states, see
/// [`KeyShape::with_cuts_apart`]): a position met at a cut of this one's remainder further on made the plays from
/// there to the end of the stock, and any position met made those of the pass after the redeal, each of them
/// turned to the same card and leading to the same position as from here. Each of those positions was searched
/// to the end before this one was met: a step that moves the cut takes a card from the stock or the waste for
/// good, so no position of the state lies below another in a search. Positions that a rule proved lost, or that
/// an earlier pass did, made no plays; the plays they would have made lead to lost positions.
fn stock_plays(
    rules: &RuleSet,
    position: Position,
    met: MetCuts,
    steps: &mut Vec<Step>,
    turned_to: &mut Vec<Position>,
) {
    let targets = position.targets(rules);
    let mut turns = position.stock_turns(rules);
    let mut draws = 0u16;
    let mut unlimited_redeals = 0;
    let mut waste = position.len(Pile::Waste);
    // A position of this state was met only where the stock cycles and the draw is of 2 to MOST_DRAW cards.
    let met_before = met != NOT_MET;
    let met_further_on = if met_before {
        least_waste_met(met, waste % usize::from(rules.stock.draw))
    } else {
        0
    };
    while let Some(stock) = turns.turn() {
        if stock.is_redeal() && position.redeals_left().is_none() {
            unlimited_redeals += 1;
            if unlimited_redeals == 2 || met_before {
                break;
            }
        }
        waste = if stock.is_redeal() {
            0
        } else {
            waste + usize::from(stock.count)
        };
        if unlimited_redeals == 0 && met_further_on != 0 && waste >= met_further_on {
            break;
        }
        draws += 1;
        let Some(card) = turns.waste_top() else {
            continue;
        };
        // The position is made only for a turn whose card has a play: most have none.
        let turned = turned_to.len() as u16;
        let before = steps.len();
        position.for_each_move_of_top_card(rules, Pile::Waste, card, &targets, |mv| {
            steps.push(Step {
                draws,
                turned,
                mv,
                relaxed: false,
            });
        });
        if steps.len() > before {
            let mut at_turn = position;
            at_turn.turn_to(&turns);
            turned_to.push(at_turn);
        }
    }
}

/// Makes a step on `position`, handing each move it makes, draws included, to `record`.
pub(crate) fn take(
    rules: &RuleSet,
    position: &mut Position,
    step: Step,
    mut record: impl FnMut(Move),
) {
    for _ in 0..step.draws {
        if let Some(stock) = position.stock_move(rules) {
            position.apply(rules, stock);
            record(stock);
        }
    }
    position.apply(rules, step.mv);
    record(step.mv);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play_order::PlayOrder;
    use crate::table::{Slot, StateSlot};
    use crate::test_random::Lcg;
    use std::collections::HashSet;

    /// A pass's share is of what the passes before it left, in nodes and in time, and a node limit as large as
    /// the type holds does not overflow it.
    #[test]
    fn a_pass_gets_its_share_of_what_is_left() {
        let start = Instant::now();
        let limits = |nodes| Limits {
            time: Some(Duration::from_secs(3600)),
            nodes: Some(nodes),
            memory_bytes: 1 << 20,
        };
        let laxer = early_pass_limits(&limits(1_000_000), 200_000, start, LAXER_SHARE, None);
        assert_eq!(laxer.nodes, Some(900_000));
        let time = laxer.time.expect("a time limit");
        assert!(time > Duration::from_secs(3149) && time <= Duration::from_secs(3151));
        let most = early_pass_limits(&limits(u64::MAX), 0, start, HALF, None);
        assert_eq!(most.nodes, Some(u64::MAX / 2));
        let forever = Limits {
            time: Some(Duration::MAX),
            ..limits(u64::MAX)
        };
        let laxer = early_pass_limits(&forever, 0, start, LAXER_SHARE, None);
        assert!(laxer.time.expect("a time limit") > Duration::MAX / 2);
        let capped = early_pass_limits(&limits(u64::MAX), 7, start, FULL_FIRST_SHARE, Some(10));
        assert_eq!(capped.nodes, Some(17));
    }

    /// Once the full search's table is full the beams go on alone: they stop at a node limit, and given no limit
    /// they win Four Seasons deal 13 (undecided after 60 s of the depth-first passes) by a line that replays.
    #[test]
    fn the_beams_go_on_alone_until_they_win_or_a_limit_is_reached() {
        let rules = patience_core::builtin::rules("four-seasons").expect("a built-in game");
        let deal = Position::deal(&rules, 13).expect("a deal");
        let pruning = Pruning::for_rules(&rules);
        let mut beam = Beam::new(&rules, &deal, KeyShape::new(&rules), pruning, 16 << 20);
        let cancel = AtomicBool::new(false);
        let progress = Progress::default();
        let cut = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        assert_eq!(
            beams_alone(&mut beam, &cut, &cancel, &progress, Instant::now(), 0),
            Err(PassEnd::Stopped(Limit::Nodes))
        );
        let line = beams_alone(
            &mut beam,
            &Limits::default(),
            &cancel,
            &progress,
            Instant::now(),
            0,
        )
        .expect("a win");
        let mut position = deal;
        for &mv in &line {
            position.play(&rules, mv).expect("a legal move");
        }
        assert!(position.is_won());
    }

    /// Runs `search` from `position` alone: no beam beside it, nothing cancelled.
    fn run_alone(search: &mut Search, position: &Position, limits: &Limits) -> Outcome {
        search.run(
            position,
            limits,
            &AtomicBool::new(false),
            &Progress::default(),
            Instant::now(),
            None,
        )
    }

    /// The reduced packs' rule files the tests here use, by name.
    const REDUCED: [(&str, &str); 14] = [
        (
            "chameleon",
            include_str!("../tests/fixtures/reduced/chameleon.toml"),
        ),
        (
            "chameleon-pysol",
            include_str!("../tests/fixtures/reduced/chameleon-pysol.toml"),
        ),
        (
            "four-seasons",
            include_str!("../tests/fixtures/reduced/four-seasons.toml"),
        ),
        (
            "canfield-any-run",
            include_str!("../tests/fixtures/reduced/canfield-any-run.toml"),
        ),
        (
            "canfield",
            include_str!("../tests/fixtures/reduced/canfield.toml"),
        ),
        (
            "canfield-solo",
            include_str!("../tests/fixtures/reduced/canfield-solo.toml"),
        ),
        (
            "canfield-foster",
            include_str!("../tests/fixtures/reduced/canfield-foster.toml"),
        ),
        (
            "selective-canfield",
            include_str!("../tests/fixtures/reduced/selective-canfield.toml"),
        ),
        (
            "superior-canfield",
            include_str!("../tests/fixtures/reduced/superior-canfield.toml"),
        ),
        ("gate", include_str!("../tests/fixtures/reduced/gate.toml")),
        (
            "storehouse",
            include_str!("../tests/fixtures/reduced/storehouse.toml"),
        ),
        (
            "florentine",
            include_str!("../tests/fixtures/reduced/florentine.toml"),
        ),
        (
            "rainbow",
            include_str!("../tests/fixtures/reduced/rainbow.toml"),
        ),
        (
            "simplicity",
            include_str!("../tests/fixtures/reduced/simplicity.toml"),
        ),
    ];

    /// The rules of the reduced pack `name` (see [`REDUCED`]).
    fn reduced(name: &str) -> RuleSet {
        let (_, text) = REDUCED
            .iter()
            .find(|(fixture, _)| *fixture == name)
            .expect("a reduced fixture of this module");
        RuleSet::from_toml(name, text).expect("a reduced fixture")
    }

    /// The reduced games the relaxed games are checked on: building regardless of suit (Chameleon, Four Seasons),
    /// runs in alternate colours (any-run Canfield), whole piles (Canfield), and foundation cards that come back
    /// (Solo Canfield), where a class is a pair of cards and either may be the one come next, so that the relaxed
    /// games win lost deals.
    const RELAXED_FIXTURES: [&str; 5] = [
        "chameleon",
        "four-seasons",
        "canfield-any-run",
        "canfield",
        "canfield-solo",
    ];

    /// The verdict of a streamlined pass alone, positions keyed by `shape`, with no time limit.
    fn streamlined_alone(rules: &RuleSet, position: &Position, shape: KeyShape) -> Verdict {
        let limits = Limits::default();
        let mut search = Search::new(
            rules,
            shape,
            Pruning::for_rules(rules).streamlined(),
            &limits,
            0,
        );
        match run_alone(&mut search, position, &limits) {
            Outcome::Verdict(verdict) => verdict,
            Outcome::RelaxedWin => unreachable!("the streamlined pass plays no relaxed move"),
        }
    }

    /// The outcome of a relaxed pass alone, with no time limit.
    fn relaxed_alone(rules: &RuleSet, position: &Position, next: NextCard) -> Outcome {
        relaxed_alone_with(rules, position, next, Pruning::for_rules(rules))
    }

    /// The outcome of a relaxed pass alone, with no time limit, pruned by `pruning`.
    fn relaxed_alone_with(
        rules: &RuleSet,
        position: &Position,
        next: NextCard,
        pruning: Pruning,
    ) -> Outcome {
        let limits = Limits::default();
        let relaxation = Relaxation::for_root(rules, position)
            .expect("a relaxed game")
            .with_next(next);
        let relaxation = as_searched(rules, position, relaxation);
        let mut search = Search::of_relaxed_game(rules, position, relaxation, pruning, &limits, 0);
        run_alone(&mut search, position, &limits)
    }

    #[test]
    fn safe_moves_keep_the_laxer_relaxed_games_verdicts() {
        for name in RELAXED_FIXTURES.into_iter().chain(["gate"]) {
            let rules = reduced(name);
            let unsafe_pruning = Pruning {
                safe_foundation_moves: false,
                ..Pruning::for_rules(&rules)
            };
            let mut lost = 0;
            for deal in 1..=300 {
                let root = Position::deal(&rules, deal).expect("a deal");
                // From the deal and from a position some random moves into it, where more cards are up.
                let middle = random_walk(&rules, &root, 4 + (deal % 12) as usize, deal);
                for position in [root, middle] {
                    let won = |outcome: Outcome| match outcome {
                        Outcome::Verdict(Verdict::Lost) => false,
                        Outcome::Verdict(Verdict::Won(_)) | Outcome::RelaxedWin => true,
                        Outcome::Verdict(Verdict::Unknown(limit)) => {
                            panic!("{name} deal {deal}: {limit:?}")
                        }
                    };
                    let with = won(relaxed_alone(&rules, &position, NextCard::AnyOfItsClass));
                    let without = won(relaxed_alone_with(
                        &rules,
                        &position,
                        NextCard::AnyOfItsClass,
                        unsafe_pruning,
                    ));
                    assert_eq!(
                        with, without,
                        "{name} deal {deal}: won with safe moves, won without"
                    );
                    lost += u32::from(!with);
                }
            }
            assert!(lost > 0, "{name}: some position is lost");
        }
    }

    /// The order-of-play rule with its facts by class calls a position lost only where the relaxed game searched
    /// without the rule loses it too, for either relaxed game, and where the rule in the game itself calls it
    /// lost (its facts by class allow all that the facts by card allow).
    #[test]
    fn the_order_of_play_by_class_calls_lost_only_what_the_relaxed_games_lose() {
        let mut called_lost = 0;
        for name in RELAXED_FIXTURES {
            let rules = reduced(name);
            let rule = PlayOrder::for_rules(&rules).expect("the rule applies");
            let tables = ByBase::default();
            let without_rule = Pruning {
                play_order: None,
                ..Pruning::for_rules(&rules)
            };
            for deal in 1..=300 {
                let root = Position::deal(&rules, deal).expect("a deal");
                let Some(relaxation) = Relaxation::for_root(&rules, &root) else {
                    continue;
                };
                let mates = relaxation.class_mates(rules.pack.ranks);
                for moves in [0, 6, 12, 24, 40] {
                    let position = random_walk(&rules, &root, moves, deal * 100 + moves as u64);
                    if position.is_won()
                        || !rule.lost_by_class(&rules, &position, Some(&mates), &tables)
                    {
                        continue;
                    }
                    called_lost += 1;
                    assert!(
                        rule.lost(&rules, &position),
                        "{name} deal {deal}, {moves} moves"
                    );
                    for next in [NextCard::AnyOfItsClass, NextCard::PlacedWhenNext] {
                        assert!(
                            matches!(
                                relaxed_alone_with(&rules, &position, next, without_rule),
                                Outcome::Verdict(Verdict::Lost)
                            ),
                            "{name} deal {deal}, {moves} moves, {next:?}: the relaxed game is not lost"
                        );
                    }
                }
            }
        }
        assert!(
            called_lost >= 50,
            "only {called_lost} positions called lost"
        );
    }

    /// The rules that prove positions lost without a search give a state one verdict at every cut, so that a search
    /// works them out only where it meets the state first (see [`Search::lost_by_rules`]): the order of play by
    /// card and by class with every card of the stock and the waste free, along random walks through the Canfields
    /// whose stock cycles, and the dead ends through Storehouse with a stock that cycles (building in suit, the
    /// only building under which that rule works anything out where the stock cycles). Following which cards may
    /// come to the top of the waste, the order of play gives one verdict at every cut on the stock's cycle, and
    /// calls a cut off it lost only where it calls the cycle lost: the cut turns onto the cycle by draws.
    #[test]
    fn the_rules_give_a_state_one_verdict_at_every_cut() {
        let mut storehouse = patience_core::builtin::rules("storehouse").expect("a built-in game");
        storehouse.stock = patience_core::rules::Stock {
            draw: 3,
            redeals: patience_core::rules::Redeals::Unlimited,
        };
        let games = [
            "canfield",
            "canfield-foster",
            "canfield-any-run",
            "canfield-solo",
        ]
        .map(|id| patience_core::builtin::rules(id).expect("a built-in game"));
        // Positions lost by the order of play by card, by class, and by the dead ends; and those lost on the
        // stock's cycle by the order of play that follows the stock alone.
        let mut lost = [0; 3];
        let mut cycle_lost = 0;
        for rules in games.iter().chain([&storehouse]) {
            let tables = ByBase::default();
            for deal in 1..=100 {
                let root = Position::deal(rules, deal).expect("a deal");
                let mates = laxer_class_mates(rules, &root);
                let rule = PlayOrder::for_rules(rules);
                let verdicts = |position: &Position| {
                    let by_card = rule.is_some_and(|rule| {
                        rule.cut_free()
                            .lost_by_class(rules, position, None, &tables)
                    });
                    let by_class = rule.zip(mates.as_ref()).is_some_and(|(rule, mates)| {
                        rule.cut_free()
                            .lost_by_class(rules, position, Some(mates), &tables)
                    });
                    // A rule of its own for each position: it keeps its verdicts by layer.
                    let dead_end =
                        DeadEnds::for_root(rules, &root).is_some_and(|d| d.lost(rules, position));
                    [by_card, by_class, dead_end]
                };
                // Lost at the cut, by the order of play that follows the stock; it finds the position lost at
                // every cut where, and only where, the rule with the stock free finds it lost.
                let at_the_cut = |position: &Position| {
                    let Some(rule) = rule.filter(|rule| rule.follows_the_stock()) else {
                        return false;
                    };
                    let finding = rule.judge(rules, position, None, &tables);
                    if finding != Finding::Open {
                        assert_eq!(
                            finding == Finding::LostAtEveryCut,
                            rule.cut_free().lost(rules, position),
                            "{} deal {deal}: lost at every cut, or at its own alone, against the stock free",
                            rules.id
                        );
                    }
                    finding != Finding::Open
                };
                for moves in [0, 10, 25, 50, 80, 120] {
                    let position = random_walk(rules, &root, moves, deal * 1000 + moves as u64);
                    let here = verdicts(&position);
                    let cards = position.len(Pile::Stock) + position.len(Pile::Waste);
                    let on_the_cycle = at_the_cut(&cut_at(rules, &position, 0));
                    for waste in 0..=cards {
                        let cut = cut_at(rules, &position, waste);
                        let place = format!(
                            "{} deal {deal}, {moves} moves, the stock cut after {waste} cards",
                            rules.id
                        );
                        assert_eq!(verdicts(&cut), here, "{place}");
                        if waste % usize::from(rules.stock.draw) == 0 || waste == cards {
                            assert_eq!(at_the_cut(&cut), on_the_cycle, "{place}");
                        } else {
                            assert!(!at_the_cut(&cut) || on_the_cycle, "{place}");
                        }
                    }
                    for (count, lost_here) in lost.iter_mut().zip(here) {
                        *count += usize::from(lost_here);
                    }
                    cycle_lost += usize::from(on_the_cycle && !here[0]);
                }
            }
        }
        assert!(
            lost.iter().all(|&count| count >= 30) && cycle_lost >= 30,
            "too few positions lost to mean something: {lost:?}, {cycle_lost} on the cycle alone"
        );
    }

    /// Counting spaces (see [`crate::play_order`]) calls lost positions that the rule's single lasting space does
    /// not, in the game itself and in a relaxed game; `tests/play_order.rs` and the test above check that what it
    /// calls lost is lost.
    #[test]
    fn counting_spaces_calls_more_positions_lost() {
        let mut by_class = 0;
        for name in ["canfield", "selective-canfield", "canfield-any-run"] {
            let rules = reduced(name);
            let rule = PlayOrder::for_rules(&rules).expect("the rule applies");
            assert!(rule.counts_spaces(), "{name}");
            let (tables, mut by_count) = (ByBase::default(), 0);
            for deal in 1..=150 {
                let root = Position::deal(&rules, deal).expect("a deal");
                let mates = laxer_class_mates(&rules, &root);
                for moves in (2..=60).step_by(2) {
                    let position = random_walk(&rules, &root, moves, deal * 100 + moves as u64);
                    let lost = |rule: PlayOrder, mates| {
                        rule.lost_by_class(&rules, &position, mates, &tables)
                    };
                    if lost(rule, None) && !lost(rule.without_counting(), None) {
                        by_count += 1;
                    }
                    if mates.as_ref().is_some_and(|mates| {
                        lost(rule, Some(mates)) && !lost(rule.without_counting(), Some(mates))
                    }) {
                        by_class += 1;
                    }
                }
            }
            // Counted on this machine: 25 in Canfield, 89 in Selective Canfield, 52 in any-run Canfield.
            assert!(
                by_count >= 10,
                "{name}: counting added only {by_count} positions"
            );
        }
        // 20 in Canfield's relaxed game, 46 in any-run Canfield's (Selective Canfield's deals start with a choice,
        // where there is none).
        assert!(
            by_class >= 20,
            "counting by class added only {by_class} positions"
        );
    }

    #[test]
    fn leaving_out_cards_laid_on_one_they_must_go_up_after_calls_more_positions_lost() {
        for (name, least) in [
            ("canfield", 25),
            ("selective-canfield", 15),
            ("superior-canfield", 25),
            ("canfield-foster", 2),
        ] {
            let rules = reduced(name);
            let rule = PlayOrder::for_rules(&rules).expect("the rule applies");
            let mut more = 0;
            for deal in 1..=150 {
                let root = Position::deal(&rules, deal).expect("a deal");
                for moves in (2..=60).step_by(2) {
                    let position = random_walk(&rules, &root, moves, deal * 100 + moves as u64);
                    let lost = |rule: PlayOrder| rule.lost(&rules, &position);
                    if lost(rule) && !lost(rule.laying_any()) {
                        more += 1;
                    }
                }
            }
            // Counted on this machine: 57 in Canfield, 38 in Selective Canfield, 61 in Superior Canfield, and 3 in
            // Foster's, where a card laid on a pile's bottom card may move on.
            assert!(more >= least, "{name}: only {more} positions more");
        }
    }

    /// The order-of-play rule finds the position after a run moved between piles what it finds of the position
    /// before, wherever the search takes the parent's verdict (`PlayOrder::finds_alike_after` after a move within
    /// the layouts): at every such move from positions of random walks through every built-in game and the
    /// reduced packs of the relaxed games, with the facts by card and by the laxer relaxed game's classes. It
    /// fails when a run that empties its pile is let in.
    #[test]
    fn a_run_moved_between_piles_leaves_the_order_of_plays_verdict() {
        let games = patience_core::builtin::games()
            .iter()
            .cloned()
            .chain(RELAXED_FIXTURES.map(reduced));
        let (mut alike, mut lost) = (0, 0);
        for rules in games {
            let Some(rule) = PlayOrder::for_rules(&rules) else {
                continue;
            };
            for deal in 1..=30 {
                let root = Position::deal(&rules, deal).expect("a deal");
                let mates = laxer_class_mates(&rules, &root);
                for moves in (0..=120).step_by(6) {
                    let parent = random_walk(&rules, &root, moves, deal * 1000 + moves as u64);
                    for mates in [None, mates.as_ref()] {
                        let by_base = ByBase::default();
                        let found = rule.judge(&rules, &parent, mates, &by_base);
                        for mv in parent.legal_moves(&rules) {
                            if !(moves_within_the_layouts(&parent, mv)
                                && rule.finds_alike_after(&parent, mv, &by_base))
                            {
                                continue;
                            }
                            let mut child = parent;
                            child.apply(&rules, mv);
                            assert_eq!(
                                rule.judge(&rules, &child, mates, &by_base),
                                found,
                                "{} deal {deal}, {moves} random moves, then {mv}",
                                rules.id
                            );
                            alike += 1;
                            lost += usize::from(found != Finding::Open);
                        }
                    }
                }
            }
        }
        assert!(
            alike >= 5_000 && lost >= 200,
            "{alike} moves checked, {lost} of them from lost positions"
        );
    }

    /// The cards of each card's class in the laxer relaxed game of a search from `root`, where there is one.
    fn laxer_class_mates(rules: &RuleSet, root: &Position) -> Option<[u64; 64]> {
        Relaxation::for_root(rules, root).map(|relaxation| relaxation.class_mates(rules.pack.ranks))
    }

    /// The position `moves` random legal moves into a game from `position`, fewer if play sticks; `seed` picks
    /// them.
    fn random_walk(rules: &RuleSet, position: &Position, moves: usize, seed: u64) -> Position {
        let mut position = *position;
        let mut random = Lcg::new(seed);
        for _ in 0..moves {
            let legal = position.legal_moves(rules);
            if legal.is_empty() || position.is_won() {
                break;
            }
            position.apply(rules, legal[(random.next() >> 33) as usize % legal.len()]);
        }
        position
    }

    /// The endgame searched on numbers (see `crate::endgame`) finds lost exactly the positions the laxer relaxed
    /// game's search of positions proves lost, with the dead-end rule and without, on positions of its endgame a
    /// random walk reaches: its moves are that game's, made on other numbers.
    #[test]
    fn the_endgame_on_numbers_loses_what_the_laxer_relaxed_game_loses() {
        for name in [
            "chameleon",
            "chameleon-pysol",
            "gate",
            "rainbow",
            "four-seasons",
            "simplicity",
        ] {
            let rules = reduced(name);
            // Positions found lost, and not lost.
            let mut compared = [0; 2];
            for deal in 1..=100 {
                let root = Position::deal(&rules, deal).expect("a deal");
                for walk in 0..4 {
                    let position = random_walk(&rules, &root, 8 + 8 * walk, deal * 4 + walk as u64);
                    let in_endgame = position.reserve_empty() && position.redeals_left() == Some(0);
                    let Some(relaxation) = Relaxation::for_root(&rules, &position) else {
                        continue;
                    };
                    if !in_endgame || position.is_won() {
                        continue;
                    }
                    for dead_ends in [true, false] {
                        let Some(mut endgame) =
                            Endgame::for_root(&rules, &position, relaxation, 1 << 26)
                        else {
                            continue;
                        };
                        let rule = DeadEnds::for_root(&rules, &position).filter(|_| dead_ends);
                        let on_numbers = endgame.lost(&rules, rule.as_ref(), &position, u64::MAX);
                        let pruning = Pruning {
                            dead_ends,
                            ..Pruning::for_rules(&rules)
                        };
                        let limits = Limits::default();
                        let mut search = Search::of_relaxed_game(
                            &rules, &position, relaxation, pruning, &limits, 0,
                        );
                        search.endgame = None;
                        let by_positions = run_alone(&mut search, &position, &limits);
                        assert_eq!(
                            on_numbers,
                            matches!(by_positions, Outcome::Verdict(Verdict::Lost)),
                            "{name} deal {deal}, walk {walk}, dead ends {dead_ends}: {by_positions:?}"
                        );
                        compared[usize::from(on_numbers)] += 1;
                    }
                }
            }
            assert!(
                compared.iter().all(|&n| n > 0),
                "{name}: positions of the endgame not lost and lost: {compared:?}"
            );
        }
    }

    #[test]
    fn a_loss_of_the_relaxed_game_is_a_loss_and_its_wins_may_not_be() {
        let mut relaxed_wins_of_lost_deals = [0; 2];
        for name in RELAXED_FIXTURES {
            let rules = reduced(name);
            let mut relaxed_losses = [0; 2];
            for deal in 1..=300 {
                let position = Position::deal(&rules, deal).expect("a deal");
                let exact = solve_unpruned(&rules, &position, &Limits::default()).verdict;
                let mut lost_with_any_next = false;
                for (game, next) in [NextCard::AnyOfItsClass, NextCard::PlacedWhenNext]
                    .into_iter()
                    .enumerate()
                {
                    let outcome = relaxed_alone(&rules, &position, next);
                    // Every line of the game that places the next card is a line of the other game.
                    let lost = matches!(outcome, Outcome::Verdict(Verdict::Lost));
                    assert!(
                        lost || !lost_with_any_next,
                        "{name} deal {deal}: lost with any card of its class next, not with it placed"
                    );
                    match outcome {
                        Outcome::Verdict(Verdict::Lost) => {
                            assert_eq!(exact, Verdict::Lost, "{name} deal {deal}, {next:?}");
                            relaxed_losses[game] += 1;
                            lost_with_any_next = true;
                        }
                        Outcome::Verdict(Verdict::Won(line)) => {
                            let mut replay = position;
                            for mv in line {
                                replay.play(&rules, mv).expect("a real line");
                            }
                            assert!(replay.is_won(), "{name} deal {deal}, {next:?}");
                        }
                        Outcome::RelaxedWin => {
                            relaxed_wins_of_lost_deals[game] += u32::from(exact == Verdict::Lost)
                        }
                        Outcome::Verdict(Verdict::Unknown(limit)) => {
                            panic!("{name} deal {deal}, {next:?}: {limit:?}")
                        }
                    }
                }
            }
            assert!(
                relaxed_losses.iter().all(|&losses| losses > 0),
                "{name}: each relaxed game proves some deal lost: {relaxed_losses:?}"
            );
        }
        assert!(
            relaxed_wins_of_lost_deals.iter().all(|&wins| wins > 0),
            "each relaxed game wins some lost deal, by a line no real game allows: {relaxed_wins_of_lost_deals:?}"
        );
    }

    /// The states a relaxed pass cut off at `nodes` marked lost, having skipped those in `known`, and going on from
    /// those an earlier pass of the same game marked, if `before`.
    fn marked_by_a_cut_pass(
        rules: &RuleSet,
        position: &Position,
        relaxation: Relaxation,
        known: Vec<LostStates>,
        before: Option<LostStates>,
        nodes: u64,
    ) -> Vec<LostStates> {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut search = Search::of_relaxed_game(
            rules,
            position,
            relaxation,
            Pruning::for_rules(rules),
            &limits,
            0,
        );
        search.skip_lost(known);
        let states =
            before.unwrap_or_else(|| LostStates::new(search.shape.of_positions(), 1 << 20));
        // Every component kept, however small: a component marked too soon is more likely found then.
        search.mark_lost(Marking::new(states, 1 << 20, 1));
        run_alone(&mut search, position, &limits);
        search.into_lost()
    }

    #[test]
    fn the_states_a_relaxed_pass_marks_lost_are_lost_even_when_it_is_cut_off() {
        for name in RELAXED_FIXTURES {
            let rules = reduced(name);
            let mut checked = 0;
            for deal in 1..=60 {
                let root = Position::deal(&rules, deal).expect("a deal");
                let laxer = Relaxation::for_root(&rules, &root).expect("a relaxed game");
                let placing = laxer.with_next(NextCard::PlacedWhenNext);
                // Cut off early, late, and not at all; where cut off, the laxer pass twice, the second going on
                // from the states the first marked, as the next round of a search with no limit does.
                for nodes in [50, 400, u64::MAX] {
                    let mut lost =
                        marked_by_a_cut_pass(&rules, &root, laxer, Vec::new(), None, nodes);
                    if nodes != u64::MAX {
                        let first = lost.pop();
                        lost = marked_by_a_cut_pass(
                            &rules,
                            &root,
                            laxer,
                            Vec::new(),
                            first,
                            4 * nodes,
                        );
                    }
                    let lost = marked_by_a_cut_pass(&rules, &root, placing, lost, None, nodes);
                    // The positions real moves reach, breadth first: each one a set holds must be lost.
                    let mut seen = HashSet::from([root]);
                    let mut queue = std::collections::VecDeque::from([root]);
                    while let Some(position) = queue.pop_front() {
                        let games = [NextCard::AnyOfItsClass, NextCard::PlacedWhenNext];
                        for (states, next) in lost.iter().zip(games) {
                            if !states.table.contains(states.shape.key(&position)) {
                                continue;
                            }
                            checked += 1;
                            // Lost in its relaxed game, and so in the real one.
                            let relaxed = relaxed_alone(&rules, &position, next);
                            let what =
                                format!("{name} deal {deal}, {next:?}, cut at {nodes} nodes");
                            assert!(
                                matches!(relaxed, Outcome::Verdict(Verdict::Lost)),
                                "{what}: {relaxed:?}"
                            );
                            let verdict =
                                solve_unpruned(&rules, &position, &Limits::default()).verdict;
                            assert_eq!(verdict, Verdict::Lost, "{what}");
                        }
                        if seen.len() < 20_000 {
                            position.for_each_legal_move(&rules, |mv| {
                                let mut child = position;
                                child.apply(&rules, mv);
                                if seen.insert(child) {
                                    queue.push_back(child);
                                }
                            });
                        }
                    }
                }
            }
            assert!(
                checked > 0,
                "{name}: only {checked} positions found marked lost"
            );
        }
    }

    /// Rounds of growing node limits, each going on from the states the last one's relaxed passes proved lost and
    /// from where its beams stood, as a search with no limit goes (see `crate::rounds`), from rounds of 100 nodes
    /// on, so that most of these small deals take several: each verdict is the unpruned search's, and each win
    /// replays.
    #[test]
    fn rounds_that_go_on_from_the_last_give_the_unpruned_verdicts() {
        let (cancel, progress) = (AtomicBool::new(false), Progress::default());
        for name in RELAXED_FIXTURES {
            let rules = reduced(name);
            let mut went_on = 0;
            for deal in 1..=40 {
                let root = Position::deal(&rules, deal).expect("a deal");
                let mut carried = Carried::default();
                let mut nodes = 100;
                let verdict = loop {
                    let limits = Limits {
                        nodes: Some(nodes),
                        ..Limits::default()
                    };
                    let had_proved = !carried.proved.is_empty();
                    let report = run(
                        &rules,
                        &root,
                        &limits,
                        &cancel,
                        &progress,
                        true,
                        Some(&mut carried),
                    );
                    if report.verdict != Verdict::Unknown(Limit::Nodes) {
                        went_on += usize::from(had_proved);
                        break report.verdict;
                    }
                    nodes *= 4;
                };
                let exact = solve_unpruned(&rules, &root, &Limits::default()).verdict;
                let what = format!("{name} deal {deal}");
                match verdict {
                    Verdict::Won(line) => {
                        assert!(matches!(exact, Verdict::Won(_)), "{what}: {exact:?}");
                        let mut position = root;
                        for mv in line {
                            position.play(&rules, mv).expect("a legal move");
                        }
                        assert!(position.is_won(), "{what}");
                    }
                    verdict => assert_eq!(verdict, exact, "{what}"),
                }
            }
            // Some decided in a round that went on from states proved lost before, where relaxed passes run (not
            // where only whole piles move): the test means something.
            let whole_piles = Pruning::for_rules(&rules)
                .play_order
                .is_some_and(|rule| rule.whole_piles());
            assert!(
                whole_piles || went_on > 0,
                "{name}: no deal went on from an earlier round"
            );
        }
    }

    /// With no limit and little memory, the rounds end (on the memory limit where they decide nothing), and every
    /// verdict they give is the unpruned search's.
    #[test]
    fn rounds_in_little_memory_end_and_give_the_unpruned_verdicts() {
        let limits = Limits {
            memory_bytes: 128 << 10,
            ..Limits::default()
        };
        for name in RELAXED_FIXTURES {
            let rules = reduced(name);
            let mut decided = 0;
            for deal in 1..=30 {
                let root = Position::deal(&rules, deal).expect("a deal");
                let verdict = solve(&rules, &root, &limits).verdict;
                let what = format!("{name} deal {deal}");
                match verdict {
                    Verdict::Unknown(limit) => assert_eq!(limit, Limit::Memory, "{what}"),
                    Verdict::Won(line) => {
                        let mut position = root;
                        for mv in line {
                            position.play(&rules, mv).expect("a legal move");
                        }
                        assert!(position.is_won(), "{what}");
                        decided += 1;
                    }
                    Verdict::Lost => {
                        let exact = solve_unpruned(&rules, &root, &Limits::default()).verdict;
                        assert_eq!(exact, Verdict::Lost, "{what}");
                        decided += 1;
                    }
                }
            }
            assert!(decided > 0, "{name}: nothing decided in 128 KiB");
        }
    }

    #[test]
    fn a_deal_the_streamlined_pass_cannot_win_is_still_won_by_the_full_search() {
        let rules = reduced("canfield");
        let mut missed = 0;
        for deal in 1..=300 {
            let position = Position::deal(&rules, deal).expect("a deal");
            let full = solve(&rules, &position, &Limits::default()).verdict;
            let exact = solve_unpruned(&rules, &position, &Limits::default()).verdict;
            assert_eq!(
                matches!(full, Verdict::Won(_)),
                matches!(exact, Verdict::Won(_)),
                "deal {deal}"
            );
            if matches!(full, Verdict::Won(_))
                && streamlined_alone(&rules, &position, KeyShape::new(&rules)) == Verdict::Lost
            {
                missed += 1;
            }
        }
        assert!(
            missed > 0,
            "some won deal is lost to the streamliner, so its failure must prove nothing"
        );
    }

    #[test]
    fn the_streamlined_pass_over_states_wins_by_real_lines() {
        for name in ["four-seasons", "chameleon"] {
            let rules = reduced(name);
            let mut wins = 0;
            for deal in 1..=300 {
                let position = Position::deal(&rules, deal).expect("a deal");
                let relaxation = Relaxation::for_root(&rules, &position)
                    .expect("a relaxed game")
                    .with_next(NextCard::PlacedWhenNext);
                let shape = KeyShape::relaxed(&rules, relaxation);
                if let Verdict::Won(line) = streamlined_alone(&rules, &position, shape) {
                    let mut replay = position;
                    for mv in line {
                        replay.play(&rules, mv).expect("a real line");
                    }
                    assert!(replay.is_won(), "{name} deal {deal}");
                    wins += 1;
                }
            }
            assert!(wins > 0, "{name}: the pass wins some deal");
        }
    }

    /// The positions the steps from `position` lead to, its state met before at the cuts `met`.
    fn children(rules: &RuleSet, position: Position, met: MetCuts) -> HashSet<Position> {
        let (mut steps, mut turned) = (Vec::new(), vec![position]);
        legal_steps(rules, position, true, met, &mut steps, &mut turned);
        steps
            .iter()
            .map(|&step| {
                let mut child = position;
                take(rules, &mut child, step, |_| {});
                child
            })
            .collect()
    }

    /// The position with `position`'s stock and waste cut after `waste` cards of the order they come up in.
    fn cut_at(rules: &RuleSet, position: &Position, waste: usize) -> Position {
        let mut json = position.to_json(rules);
        let mut order = json.waste.clone();
        order.extend(json.stock.iter().rev());
        json.waste = order[..waste].to_vec();
        json.stock = order[waste..].iter().rev().copied().collect();
        Position::from_json(rules, &json).expect("the same cards, cut elsewhere")
    }

    #[test]
    fn a_position_of_a_state_met_before_leaves_out_only_the_stock_plays_made_there() {
        let rules = patience_core::builtin::rules("canfield-any-run").expect("a game");
        let mut left_out = 0;
        // The waste's length now, and where the state was met before: further on at the same remainder, at
        // another one, or on the stock's cycle.
        let cuts = [
            (4, 10),
            (4, 7),
            (5, 11),
            (4, 8),
            (5, 7),
            (4, 0),
            (5, 3),
            (1, 22),
        ];
        for (deal, (now, before)) in (1..=20).flat_map(|deal| cuts.map(|cuts| (deal, cuts))) {
            let root = Position::deal(&rules, deal).expect("a deal");
            let cut = (before % 3 != 0).then_some(crate::key::OffCycle {
                remainder: (before % 3) as u8,
                waste: before as u8,
            });
            let met = StateSlot::new(1, cut).met();
            let all = children(&rules, cut_at(&rules, &root, now), NOT_MET);
            let left = children(&rules, cut_at(&rules, &root, now), met);
            let made_before = children(&rules, cut_at(&rules, &root, before), NOT_MET);
            assert!(left.is_subset(&all), "deal {deal}: {now} after {before}");
            assert!(
                all.iter()
                    .all(|child| left.contains(child) || made_before.contains(child)),
                "deal {deal}: {now} after {before}: a play left out that the position met before did not make"
            );
            left_out += all.len() - left.len();
        }
        assert!(left_out > 0, "some play is left out");
    }

    /// The position `waste` cards into the waste off the stock's cycle, where the draw is of three.
    fn off(waste: u8) -> Cut {
        Some(crate::key::OffCycle {
            remainder: waste % 3,
            waste,
        })
    }

    /// A relaxed pass of reduced any-run Canfield that marks the positions it proves lost, with two positions of
    /// one state entered and still open, at these cuts, the first below the second.
    fn one_state_met_twice(rules: &RuleSet, cuts: [Cut; 2]) -> (Search<'_>, Vec<Frame>) {
        let root = Position::deal(rules, 1).expect("a deal");
        let relaxation = Relaxation::for_root(rules, &root).expect("a relaxed game");
        let mut search = Search::of_relaxed_game(
            rules,
            &root,
            relaxation,
            Pruning::for_rules(rules),
            &Limits::default(),
            0,
        );
        assert!(
            search.shape.cuts_apart(),
            "a draw of three with unlimited redeals"
        );
        let states = LostStates::new(search.shape.of_positions(), 1 << 20);
        search.mark_lost(Marking::new(states, 1 << 20, 1));
        let mut frames = Vec::new();
        for (depth, cut) in cuts.into_iter().enumerate() {
            search.order_steps(&mut frames, depth, root, None, NOT_MET);
            let met = search.table.visit(STATE, cut).ok().flatten();
            search.enter(&mut frames[depth], STATE, cut, met.expect("a new position"));
        }
        (search, frames)
    }

    /// The key of the state of [`one_state_met_twice`].
    const STATE: u128 = 0x5eed_u128 << 64 | 0x5eed;

    #[test]
    fn a_position_of_a_state_met_before_reaches_the_positions_met() {
        let rules = reduced("canfield-any-run");
        // Met 7 cards into the waste, then 4 cards in: the second position leaves out the plays the first made,
        // and reaches it.
        let (_, frames) = one_state_met_twice(&rules, [off(7), off(4)]);
        assert!(frames[0].number < frames[1].number);
        assert_eq!(frames[1].low, frames[0].number);
    }

    #[test]
    fn a_step_to_a_covered_position_reaches_the_position_met_that_covers_it() {
        let rules = reduced("canfield-any-run");
        // Met on the stock's cycle, then off it, 4 cards in the waste.
        let (search, frames) = one_state_met_twice(&rules, [None, off(4)]);
        let (on_cycle, at_4) = (frames[0].number, frames[1].number);
        assert_ne!(on_cycle, at_4);
        // A step to the state 7 cards into the waste, which 4 covers, reaches the position at 4; one on the
        // cycle reaches the position there; one at 2, or 5, which nothing met covers, reaches none.
        for (cut, reached) in [
            (off(7), Some(at_4)),
            (None, Some(on_cycle)),
            (off(2), None),
            (off(5), None),
        ] {
            let mut low = u64::MAX;
            search.reached(&mut low, STATE, cut);
            assert_eq!((low != u64::MAX).then_some(low), reached, "{cut:?}");
        }
    }

    /// Where the stock turns up a card that may safely go to its foundation (see `crate::prune`, "A safe card in
    /// the stock"), each step the search leaves out for it, one that turns the stock further or makes another move
    /// where it stands, leads to a position won only where the safe step's is: checked by exhaustive searches at
    /// positions along random walks through the reduced games that turn one card at a time. It fails when a card
    /// that may go up, but not safely, covers the steps past it.
    #[test]
    fn a_safe_card_turned_up_covers_the_steps_past_it() {
        let (mut covered, mut won) = (0, 0);
        for name in [
            "storehouse",
            "chameleon",
            "four-seasons",
            "gate",
            "rainbow",
            "simplicity",
            "florentine",
        ] {
            let rules = reduced(name);
            let pruning = Pruning::for_rules(&rules);
            let safe =
                |turned: &Position| pruning.safe_move_from(&rules, turned, Pile::Waste, &|_| true);
            let won_after = |step: Step, turned: &[Position]| {
                let child = after(&rules, step, turned);
                matches!(
                    solve_unpruned(&rules, &child, &Limits::default()).verdict,
                    Verdict::Won(_)
                )
            };
            for deal in 1..=20 {
                let root = Position::deal(&rules, deal).expect("a deal");
                for moves in [0, 4, 8, 16, 24] {
                    let position = random_walk(&rules, &root, moves, deal * 13 + moves as u64);
                    let (steps, turned) = steps_from(&rules, position);
                    let Some(first) = first_safe_turn(&steps, &turned, safe) else {
                        continue;
                    };
                    let first_won = won_after(first, &turned);
                    for &step in steps.iter().filter(|step| {
                        step.draws > first.draws || (step.draws == first.draws && **step != first)
                    }) {
                        covered += 1;
                        if won_after(step, &turned) {
                            won += 1;
                            assert!(
                                first_won,
                                "{name} deal {deal}, {moves} moves in: {step:?} wins, {first:?} does not"
                            );
                        }
                    }
                }
            }
        }
        assert!(
            covered > 500 && won > 100,
            "{covered} steps covered, {won} of them won"
        );
    }

    /// The steps from `position`, with stock macro-moves where the rules allow them, and where each starts.
    fn steps_from(rules: &RuleSet, position: Position) -> (Vec<Step>, Vec<Position>) {
        let (mut steps, mut turned) = (Vec::new(), vec![position]);
        let macros = Pruning::for_rules(rules).stock_macros;
        legal_steps(rules, position, macros, NOT_MET, &mut steps, &mut turned);
        (steps, turned)
    }

    /// The position a step leads to, of those that [`steps_from`] gives.
    fn after(rules: &RuleSet, step: Step, turned: &[Position]) -> Position {
        let mut child = turned[step.turned as usize];
        child.apply(rules, step.mv);
        child
    }

    /// Where a step that turns the stock `j` times and puts the card on the tableau leads to a position the
    /// dead-end rule buries, every step that turns the stock `j` times or more leads to a position the rule as
    /// stated proves lost, and so does every such step from a position a move among the tableau, the reserve and
    /// the foundations leads to (the search leaves those steps out, see `crate::dead_end`, "Deeper in the
    /// stock"); the search's own rule, which skips some counts, may not (Four Seasons deal 20, 30 moves in).
    /// Checked at positions along random walks through every game the rule and stock macro-moves apply to. A card
    /// played up from the waste instead proves nothing of the deeper steps (the card is then no longer one that
    /// may bridge two runs), nor does a move from the waste of the position after it, and the walks find such
    /// positions, so the test would fail if the search took those too.
    #[test]
    fn a_stock_card_put_on_the_tableau_and_buried_buries_every_deeper_draw() {
        let (mut checked, mut inherited) = (0, 0);
        let (mut after_a_play_up, mut after_a_waste_move) = (0, 0);
        for rules in patience_core::builtin::games()
            .iter()
            .chain(patience_core::builtin::extras())
        {
            if !Pruning::for_rules(rules).stock_macros {
                continue;
            }
            for deal in 1..=40 {
                let root = Position::deal(rules, deal).expect("a deal");
                for moves in [10, 20, 30, 45, 60, 80] {
                    let parent = random_walk(rules, &root, moves, deal * 11 + moves as u64);
                    // Rules of their own for each parent, so that no trial drops them: what the search finds,
                    // and what the rule as stated finds (see `DeadEnds::stated`).
                    let (Some(rule), Some(stated)) = (
                        DeadEnds::for_root(rules, &root),
                        DeadEnds::for_root(rules, &root).map(DeadEnds::stated),
                    ) else {
                        continue;
                    };
                    let (steps, turned) = steps_from(rules, parent);
                    let buried_from = |to_tableau: bool| {
                        steps
                            .iter()
                            .filter(|step| {
                                step.draws > 0
                                    && matches!(step.mv.to, Pile::Tableau(_)) == to_tableau
                                    && rule.judge(rules, &after(rules, **step, &turned))
                                        == DeadEnd::Buried
                            })
                            .map(|step| step.draws)
                            .min()
                    };
                    // The steps from `position` that turn the stock `draws` times or more and lead to a position
                    // the stated rule leaves open.
                    let open_from = |position: Position, draws: u16| {
                        let (steps, turned) = steps_from(rules, position);
                        let deeper: Vec<Step> = steps
                            .into_iter()
                            .filter(|step| step.draws >= draws)
                            .collect();
                        let open = deeper
                            .iter()
                            .filter(|&&step| !stated.lost(rules, &after(rules, step, &turned)))
                            .count();
                        (deeper.len(), open)
                    };
                    if let Some(draws) = buried_from(true) {
                        let (deeper, open) = open_from(parent, draws);
                        assert_eq!(open, 0, "{} deal {deal}, {moves} moves in", rules.id);
                        checked += deeper;
                        for &step in &steps {
                            let child = after(rules, step, &turned);
                            let (deeper, open) = open_from(child, draws);
                            if step.draws == 0 && keeps_stock_and_waste(step.mv) {
                                assert_eq!(
                                    open, 0,
                                    "{} deal {deal}, {moves} moves in, after {step:?}",
                                    rules.id
                                );
                                inherited += deeper;
                            } else if step.mv.from == Pile::Waste && step.draws == 0 {
                                after_a_waste_move += open;
                            }
                        }
                    }
                    if let Some(draws) = buried_from(false) {
                        after_a_play_up += open_from(parent, draws + 1).1;
                    }
                }
            }
        }
        println!(
            "{checked} deeper steps checked, {inherited} after a move that keeps the stock and the waste; \
             {after_a_play_up} left open after a card played up, {after_a_waste_move} after a move from the waste"
        );
        assert!(
            checked > 1000 && inherited > 1000,
            "{checked} and {inherited} steps checked"
        );
        assert!(
            after_a_play_up > 0 && after_a_waste_move > 0,
            "no deeper step left open after a card played up ({after_a_play_up}) or a move from the waste \
             ({after_a_waste_move})"
        );
    }

    /// A child's key made from its parent's where a run moves between tableau piles (see
    /// `KeyShape::key_after_run_moved`) is the key made whole, for the game and its relaxed games, in every game,
    /// with cuts kept apart or not, at positions along random walks. It fails when a space the move makes is
    /// taken to stay empty where the rules fill spaces by force (Fortune's Favor, the Canfields), and when the
    /// moved run's bottom card is not taken to start a pile that was a space (Four Seasons).
    #[test]
    fn a_key_made_from_the_parents_after_a_run_moved_is_the_key_made_whole() {
        let mut checked = 0;
        for rules in patience_core::builtin::games()
            .iter()
            .chain(patience_core::builtin::extras())
        {
            for deal in 1..=12 {
                let root = Position::deal(rules, deal).expect("a deal");
                let relaxed = Relaxation::for_root(rules, &root)
                    .into_iter()
                    .flat_map(|laxer| {
                        [NextCard::AnyOfItsClass, NextCard::PlacedWhenNext]
                            .map(|next| KeyShape::relaxed(rules, laxer.with_next(next)))
                    });
                for shapes in [KeyShape::new(rules)].into_iter().chain(relaxed) {
                    for shape in [shapes, shapes.with_cuts_apart()] {
                        for moves in [0, 10, 30, 60, 100, 150] {
                            let parent = random_walk(rules, &root, moves, deal * 11 + moves as u64);
                            let key = shape.key(&parent);
                            let (steps, turned) = steps_from(rules, parent);
                            for step in steps.iter().filter(|step| step.draws == 0) {
                                let Some(made) = shape.key_after_run_moved(&parent, key, step.mv)
                                else {
                                    continue;
                                };
                                let child = after(rules, *step, &turned);
                                assert_eq!(
                                    made,
                                    shape.key(&child),
                                    "{} deal {deal}, {moves} moves in: {}",
                                    rules.id,
                                    step.mv
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} keys checked");
    }

    /// Where a one-way move `u` tried from a position `P` is left out after another step `m` (see
    /// [`crate::prune::tried_before`]), `u` is a step from `P` after `m`, `m` one from `P` after `u`, and the two
    /// orders lead to one position, reachable from `P` after `u`. Checked at every pair of steps from positions along
    /// random walks through every game whose foundation cards never come back; it fails when a move from the waste
    /// is left out after a step that played from the stock.
    #[test]
    fn a_one_way_move_tried_before_leads_where_the_step_after_it_would() {
        let mut checked = 0;
        for rules in patience_core::builtin::games()
            .iter()
            .chain(patience_core::builtin::extras())
        {
            if !Pruning::for_rules(rules).one_way_tried {
                continue;
            }
            for deal in 1..=12 {
                let root = Position::deal(rules, deal).expect("a deal");
                for moves in [0, 10, 30, 60, 100] {
                    let parent = random_walk(rules, &root, moves, deal * 7 + moves as u64);
                    let (steps, turned) = steps_from(rules, parent);
                    for &one_way in &steps {
                        for &other in steps.iter().filter(|&&other| other != one_way) {
                            let child = after(rules, other, &turned);
                            if !tried_before(&parent, one_way.draws, one_way.mv, &child) {
                                continue;
                            }
                            let alike =
                                |step: &&Step| (step.draws, step.mv) == (one_way.draws, one_way.mv);
                            let (from_child, child_turned) = steps_from(rules, child);
                            let again = from_child.iter().find(alike).unwrap_or_else(|| {
                                panic!("{} deal {deal}: {one_way:?} after {other:?}", rules.id)
                            });
                            let both = after(rules, *again, &child_turned);
                            let first = after(rules, one_way, &turned);
                            let (from_first, first_turned) = steps_from(rules, first);
                            let then = from_first
                                .iter()
                                .find(|step| (step.draws, step.mv) == (other.draws, other.mv))
                                .unwrap_or_else(|| {
                                    panic!("{} deal {deal}: {other:?} after {one_way:?}", rules.id)
                                });
                            assert_eq!(
                                after(rules, *then, &first_turned),
                                both,
                                "{} deal {deal}: {one_way:?} and {other:?}",
                                rules.id
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked} pairs checked");
    }
}
