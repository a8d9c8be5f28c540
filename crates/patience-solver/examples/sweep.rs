//! Solves a range of deals of each game and prints won / lost / unknown and time per deal.
//! `cargo run --release -p patience-solver --example sweep -- [DEALS] [SECONDS] [GAME...]`

use std::time::Duration;

use patience_core::{builtin, Position};
use patience_solver::{solve, Limits, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let deals: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(50);
    let seconds: f64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let wanted: Vec<&String> = args.iter().skip(2).collect();
    let limits = Limits {
        time: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    };
    for rules in builtin::games().iter().chain(builtin::extras()) {
        if !wanted.is_empty() && !wanted.iter().any(|w| **w == rules.id) {
            continue;
        }
        let (mut won, mut lost, mut unknown) = (0, 0, 0);
        let mut times = Vec::new();
        for deal in 1..=deals {
            let Ok(position) = Position::deal(rules, deal) else {
                continue;
            };
            let report = solve(rules, &position, &limits);
            times.push(report.elapsed.as_secs_f64());
            match report.verdict {
                Verdict::Won(line) => {
                    let mut replay = position;
                    for mv in line {
                        if replay.play(rules, mv).is_err() {
                            println!("{} deal {deal}: line does not replay", rules.id);
                            break;
                        }
                    }
                    assert!(replay.is_won(), "{} deal {deal}", rules.id);
                    won += 1;
                }
                Verdict::Lost => lost += 1,
                Verdict::Unknown(_) => unknown += 1,
            }
        }
        times.sort_by(f64::total_cmp);
        let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
        println!(
            "{:<26} won {won:>5} lost {lost:>5} unknown {unknown:>4}  mean {mean:.4}s median {:.4}s max {:.3}s",
            rules.id,
            times[times.len() / 2],
            times.last().copied().unwrap_or(0.0)
        );
    }
}
