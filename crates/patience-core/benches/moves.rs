//! Moves per second for generate + apply + undo on random play, per game.
//!
//! A random walk through many deals: at each position every legal move is generated, applied and undone (each
//! counts as one move), then one is played at random. Only the play is timed, not the dealing: a deal's shuffle
//! costs as much as a few hundred moves, and random play in some games sticks after a few moves. Each game is
//! measured five times and the median printed, because the machines are shared and noisy.
//! `cargo bench -p patience-core --bench moves [-- GAME...]`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use patience_core::{builtin, Move, Position, RuleSet};

/// Moves to measure in one run of one game, unless `PATIENCE_BENCH_MOVES` says otherwise (a small number lets
/// `valgrind --tool=callgrind` count instructions, which a shared machine's noise does not change).
const MOVES_PER_RUN: u64 = 2_000_000;
/// Runs per game; the median is reported.
const RUNS: usize = 5;
/// Steps of random play in one deal before the next deal.
const STEPS_PER_DEAL: usize = 200;

fn main() {
    // `cargo bench -p patience-core --bench moves -- canfield gate` measures only those games.
    let moves_per_run = std::env::var("PATIENCE_BENCH_MOVES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(MOVES_PER_RUN);
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    println!("{:<26} {:>14} {:>14}", "game", "moves/s", "ns/move");
    for rules in builtin::games().iter().chain(builtin::extras()) {
        if !wanted.is_empty() && !wanted.contains(&rules.id) {
            continue;
        }
        let mut rates: Vec<f64> = (0..RUNS)
            .map(|run| measure(rules, run as u64, moves_per_run))
            .collect();
        rates.sort_by(f64::total_cmp);
        let median = rates[RUNS / 2];
        println!("{:<26} {:>14.0} {:>14.1}", rules.id, median, 1e9 / median);
    }
}

/// One run: moves per second.
fn measure(rules: &RuleSet, seed: u64, moves_per_run: u64) -> f64 {
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut moves: Vec<Move> = Vec::with_capacity(64);
    let mut counted = 0u64;
    let mut deal = 1 + seed * 100_000;
    let mut playing = Duration::ZERO;
    while counted < moves_per_run {
        let Ok(mut position) = Position::deal(rules, deal) else {
            break;
        };
        deal += 1;
        let start = Instant::now();
        for _ in 0..STEPS_PER_DEAL {
            position.legal_moves_into(rules, &mut moves);
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let undo = position.apply(rules, mv);
                black_box(&position);
                position.undo(undo);
            }
            counted += moves.len() as u64;
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let pick = moves[(rng % moves.len() as u64) as usize];
            position.apply(rules, pick);
        }
        playing += start.elapsed();
    }
    counted as f64 / playing.as_secs_f64()
}
