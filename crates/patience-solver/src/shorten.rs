//! Winning lines made shorter before they are given out.
//!
//! A depth-first search gives the line it happened to go down, with the detours it took on the way: a run moved
//! onto one pile and back, cards shuffled between piles that a single move would have put in place (Chameleon
//! deal 28's line had 314 moves, cards moved onto a pile and straight back among them). Every position the line
//! goes through is known, so the line is walked from its start, and from each position it takes the legal move
//! that leads furthest along the line, skipping every position in between; where none skips any, the line's own
//! move. The result is a line of legal moves from the same start to the same won position, never longer.

use std::collections::HashMap;

use patience_core::{Move, Position, RuleSet};

/// `line`, a line of legal moves from `start`, with its detours cut: each position's move is the legal one that
/// reaches the latest position of the line.
pub(crate) fn shorten(rules: &RuleSet, start: &Position, line: &[Move]) -> Vec<Move> {
    let mut positions = Vec::with_capacity(line.len() + 1);
    positions.push(*start);
    let mut position = *start;
    for &mv in line {
        position.apply(rules, mv);
        positions.push(position);
    }
    // The last index at which each position comes: a line may go through a position twice.
    let latest: HashMap<Position, usize> = positions
        .iter()
        .enumerate()
        .map(|(i, position)| (*position, i))
        .collect();
    let mut shorter = Vec::with_capacity(line.len());
    let mut moves = Vec::new();
    let mut at = latest[start];
    while at < line.len() {
        let mut best = (at + 1, line[at]);
        positions[at].legal_moves_into(rules, &mut moves);
        for &mv in &moves {
            let mut child = positions[at];
            child.apply(rules, mv);
            if let Some(&to) = latest.get(&child) {
                if to > best.0 {
                    best = (to, mv);
                }
            }
        }
        shorter.push(best.1);
        at = best.0;
    }
    shorter
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, Limits, Verdict};
    use patience_core::builtin;
    use std::time::Duration;

    /// A move from `position` and one back to it, if there are such.
    fn detour(rules: &RuleSet, position: &Position) -> Option<[Move; 2]> {
        position.legal_moves(rules).into_iter().find_map(|out| {
            let mut away = *position;
            away.apply(rules, out);
            away.legal_moves(rules).into_iter().find_map(|back| {
                let mut again = away;
                again.apply(rules, back);
                (again == *position).then_some([out, back])
            })
        })
    }

    #[test]
    fn detours_are_cut_and_the_line_still_wins() {
        let rules = builtin::rules("florentine").unwrap();
        let limits = Limits {
            time: Some(Duration::from_secs(5)),
            ..Limits::default()
        };
        let mut detours = 0;
        for deal in 1..=10 {
            let start = Position::deal(&rules, deal).unwrap();
            let Verdict::Won(line) = solve(&rules, &start, &limits).verdict else {
                continue;
            };
            // The solver's line is short already; a detour into it at every position that has one.
            let mut long = Vec::new();
            let mut position = start;
            for &mv in &line {
                if let Some(pair) = detour(&rules, &position) {
                    long.extend(pair);
                    detours += 1;
                }
                long.push(mv);
                position.apply(&rules, mv);
            }
            let shorter = shorten(&rules, &start, &long);
            assert!(
                shorter.len() <= line.len(),
                "deal {deal}: {} moves, the solver's line {}",
                shorter.len(),
                line.len()
            );
            let mut replay = start;
            for &mv in &shorter {
                replay.play(&rules, mv).unwrap();
            }
            assert!(replay.is_won(), "deal {deal}");
        }
        assert!(detours > 100, "only {detours} detours put in");
    }
}
