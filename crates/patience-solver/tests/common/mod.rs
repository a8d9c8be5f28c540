//! Helpers the solver's integration tests share: reduced-pack rule files, and replaying a line of moves through
//! the rules engine's checked `play`.
#![allow(dead_code)]

use patience_core::{Move, Position, RuleSet};
use patience_solver::{solve_unpruned, Limits, Report, Verdict};

/// A reduced-pack rule file (5 to 8 ranks, 20 to 32 cards) for each built-in game and variant, by the built-in id.
/// Each keeps its game's rules and shrinks only the pack and the layout: see the comment at the top of each file.
pub const REDUCED: &[(&str, &str)] = &[
    (
        "four-seasons",
        include_str!("../fixtures/reduced/four-seasons.toml"),
    ),
    (
        "florentine",
        include_str!("../fixtures/reduced/florentine.toml"),
    ),
    (
        "simplicity",
        include_str!("../fixtures/reduced/simplicity.toml"),
    ),
    (
        "fortunes-favor",
        include_str!("../fixtures/reduced/fortunes-favor.toml"),
    ),
    (
        "canfield",
        include_str!("../fixtures/reduced/canfield.toml"),
    ),
    (
        "canfield-foster",
        include_str!("../fixtures/reduced/canfield-foster.toml"),
    ),
    (
        "canfield-solo",
        include_str!("../fixtures/reduced/canfield-solo.toml"),
    ),
    (
        "selective-canfield",
        include_str!("../fixtures/reduced/selective-canfield.toml"),
    ),
    (
        "chameleon",
        include_str!("../fixtures/reduced/chameleon.toml"),
    ),
    (
        "storehouse",
        include_str!("../fixtures/reduced/storehouse.toml"),
    ),
    ("gate", include_str!("../fixtures/reduced/gate.toml")),
    (
        "canfield-pysol",
        include_str!("../fixtures/reduced/canfield-pysol.toml"),
    ),
    (
        "canfield-any-run",
        include_str!("../fixtures/reduced/canfield-any-run.toml"),
    ),
    (
        "chameleon-pysol",
        include_str!("../fixtures/reduced/chameleon-pysol.toml"),
    ),
    (
        "fortunes-favor-no-redeal",
        include_str!("../fixtures/reduced/fortunes-favor-no-redeal.toml"),
    ),
    (
        "florentine-pysol",
        include_str!("../fixtures/reduced/florentine-pysol.toml"),
    ),
    (
        "gate-pysol",
        include_str!("../fixtures/reduced/gate-pysol.toml"),
    ),
    (
        "storehouse-pysol",
        include_str!("../fixtures/reduced/storehouse-pysol.toml"),
    ),
    ("rainbow", include_str!("../fixtures/reduced/rainbow.toml")),
    (
        "superior-canfield",
        include_str!("../fixtures/reduced/superior-canfield.toml"),
    ),
];

/// The reduced-pack rule set made from the built-in game `id`.
pub fn reduced(id: &str) -> RuleSet {
    let (_, text) = REDUCED
        .iter()
        .find(|(name, _)| *name == id)
        .unwrap_or_else(|| panic!("no reduced rule file for {id}"));
    RuleSet::from_toml(&format!("fixtures/reduced/{id}.toml"), text)
        .unwrap_or_else(|e| panic!("reduced rule file for {id}: {e}"))
}

/// Plays `line` from `start` with the checked [`Position::play`]; the position reached, or which move was refused
/// and why.
pub fn replay(rules: &RuleSet, start: &Position, line: &[Move]) -> Result<Position, String> {
    let mut position = *start;
    for (i, &mv) in line.iter().enumerate() {
        position
            .play(rules, mv)
            .map_err(|e| format!("move {} of {} ({mv}) is refused: {e}", i + 1, line.len()))?;
    }
    Ok(position)
}

/// Checks that a won verdict's line replays to a won position; `Ok` for any other verdict.
pub fn check_line(rules: &RuleSet, start: &Position, report: &Report) -> Result<(), String> {
    let Verdict::Won(line) = &report.verdict else {
        return Ok(());
    };
    let end = replay(rules, start, line)?;
    if end.is_won() {
        Ok(())
    } else {
        Err(format!(
            "the line of {} moves ends with {} cards on the foundations, not won",
            line.len(),
            end.foundation_cards()
        ))
    }
}

/// A short name for a verdict, for messages and tallies.
pub fn kind(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Won(_) => "won",
        Verdict::Lost => "lost",
        Verdict::Unknown(_) => "unknown",
    }
}

/// The position after `moves` legal moves chosen at random (by a fixed generator seeded with `seed`) from
/// `start`; fewer if a position has no legal move. Draws are chosen less often than other moves, so that the game
/// gets on.
pub fn random_walk(rules: &RuleSet, start: &Position, moves: usize, seed: u64) -> Position {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut position = *start;
    for _ in 0..moves {
        let legal = position.legal_moves(rules);
        let others: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !m.is_stock_move())
            .collect();
        let pool = if others.is_empty() || next() % 4 == 0 {
            &legal
        } else {
            &others
        };
        if pool.is_empty() {
            break;
        }
        let mv = pool[(next() % pool.len() as u64) as usize];
        position.apply(rules, mv);
    }
    position
}

/// Walks at random from deal `deal` of the reduced game `id` (`start`), `walks` moves at a time (the walk of
/// `n` moves seeded `seed + n`), and checks every position that `lost` calls lost against the exhaustive search
/// with no pruning, noting those it does not find lost among `failures`. Returns how many were called lost.
pub fn confirm_walks(
    (rules, id, deal, start): (&RuleSet, &str, u64, &Position),
    walks: impl Iterator<Item = usize>,
    seed: u64,
    lost: impl Fn(&Position) -> bool,
    failures: &mut Vec<String>,
) -> usize {
    let mut called_lost = 0;
    for walk in walks {
        let position = random_walk(rules, start, walk, seed + walk as u64);
        if !lost(&position) {
            continue;
        }
        called_lost += 1;
        let verdict = solve_unpruned(rules, &position, &Limits::default()).verdict;
        if verdict != Verdict::Lost {
            failures.push(format!(
                "{id} deal {deal}, {walk} random moves in: called lost, but the oracle says {verdict:?}"
            ));
        }
    }
    called_lost
}
