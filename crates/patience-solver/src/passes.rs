//! What each pass of a search did: where its nodes went and how each pass ended, so that a verdict (an
//! `unknown` above all) can be read: which relaxed game was won, which pass a limit stopped.
//!
//! The passes are those of `docs/solver.md`, "Six passes": each is reported once, what it did in every round of a
//! search with no limit, and for every choice of a deal whose next move is one, added up.

use serde::Serialize;

use crate::search::Limit;

/// A pass of the search, or the beams alone once the full search's table is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PassKind {
    /// The relaxed game in which a card next on its foundation is any card of its class.
    LaxerRelaxedGame,
    /// The relaxed game in which a card next on its foundation is placed as it comes next.
    PlacingRelaxedGame,
    /// The short full search after the relaxed passes.
    ShortFullSearch,
    /// The streamlined pass keyed by the placing relaxed game's states.
    StreamlinedOverStates,
    /// The streamlined pass over positions.
    StreamlinedOverPositions,
    /// The full search, which proves what it finds.
    FullSearch,
    /// The beams, alone once the full search's table is full.
    BeamsAlone,
}

impl PassKind {
    /// The pass's name in words.
    pub fn name(self) -> &'static str {
        match self {
            PassKind::LaxerRelaxedGame => "laxer relaxed game",
            PassKind::PlacingRelaxedGame => "placing relaxed game",
            PassKind::ShortFullSearch => "short full search",
            PassKind::StreamlinedOverStates => "streamlined pass over states",
            PassKind::StreamlinedOverPositions => "streamlined pass over positions",
            PassKind::FullSearch => "full search",
            PassKind::BeamsAlone => "beams alone",
        }
    }
}

/// How a pass ended; in JSON, `"ended"`, with `"limit"` beside it where a limit stopped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "ended", content = "limit", rename_all = "kebab-case")]
pub enum PassEnd {
    /// It found a line of real moves that wins.
    Won,
    /// It proved the position lost.
    Lost,
    /// Its relaxed game is won by a line with a move of the relaxed game's own: that proves nothing.
    RelaxedWin,
    /// It went through all it searches without a win, which proves nothing (a streamlined pass, the beams).
    Exhausted,
    /// A limit stopped it: its share of the search's time or nodes, the memory, or the caller.
    Stopped(Limit),
}

impl PassEnd {
    /// How the pass ended, in words.
    pub fn words(self) -> &'static str {
        match self {
            PassEnd::Won => "won",
            PassEnd::Lost => "lost, proved",
            PassEnd::RelaxedWin => "its relaxed game won, which proves nothing",
            PassEnd::Exhausted => "searched through, no win",
            PassEnd::Stopped(Limit::Time) => "stopped: out of the time it was given",
            PassEnd::Stopped(Limit::Nodes) => "stopped: out of the nodes it was given",
            PassEnd::Stopped(Limit::Memory) => "stopped: its table was full",
            PassEnd::Stopped(Limit::Cancelled) => "stopped by the caller",
        }
    }
}

/// What one pass did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PassReport {
    /// Which pass.
    pub pass: PassKind,
    /// How many times it ran: once a round of a search with no limit, once a choice of a deal whose next move is
    /// one.
    pub runs: u32,
    /// Nodes it made, the beams' beside it among them.
    pub nodes: u64,
    /// Of those, the beams'.
    pub beam_nodes: u64,
    /// How its last run ended.
    #[serde(flatten)]
    pub ended: PassEnd,
}

impl PassReport {
    /// What a pass did in one run: `nodes` made, `beam_nodes` of them the beams', and how it `ended`.
    pub(crate) fn one_run(
        pass: PassKind,
        nodes: u64,
        beam_nodes: u64,
        ended: PassEnd,
    ) -> PassReport {
        PassReport {
            pass,
            runs: 1,
            nodes,
            beam_nodes,
            ended,
        }
    }
}

/// Adds `later`, what passes did in a later run (a round, a choice), to `passes`: each pass's runs and nodes are
/// added up, and its end is the later one's.
pub(crate) fn add_up(passes: &mut Vec<PassReport>, later: &[PassReport]) {
    for report in later {
        match passes.iter_mut().find(|p| p.pass == report.pass) {
            Some(pass) => {
                pass.runs += report.runs;
                pass.nodes += report.nodes;
                pass.beam_nodes += report.beam_nodes;
                pass.ended = report.ended;
            }
            None => passes.push(*report),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(pass: PassKind, nodes: u64, ended: PassEnd) -> PassReport {
        PassReport::one_run(pass, nodes, nodes / 8, ended)
    }

    #[test]
    fn the_passes_of_two_runs_add_up_pass_by_pass() {
        let mut passes = vec![
            report(
                PassKind::LaxerRelaxedGame,
                800,
                PassEnd::Stopped(Limit::Nodes),
            ),
            report(PassKind::FullSearch, 160, PassEnd::Stopped(Limit::Nodes)),
        ];
        add_up(
            &mut passes,
            &[
                report(PassKind::LaxerRelaxedGame, 3_200, PassEnd::RelaxedWin),
                report(PassKind::PlacingRelaxedGame, 40, PassEnd::RelaxedWin),
                report(PassKind::FullSearch, 640, PassEnd::Lost),
            ],
        );
        let laxer = PassReport {
            runs: 2,
            beam_nodes: 100 + 400,
            ..report(PassKind::LaxerRelaxedGame, 4_000, PassEnd::RelaxedWin)
        };
        let full = PassReport {
            runs: 2,
            beam_nodes: 20 + 80,
            ..report(PassKind::FullSearch, 800, PassEnd::Lost)
        };
        let placing = report(PassKind::PlacingRelaxedGame, 40, PassEnd::RelaxedWin);
        assert_eq!(passes, [laxer, full, placing]);
    }
}
