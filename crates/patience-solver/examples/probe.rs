//! Solves one deal and prints the report: `probe GAME DEAL SECONDS [MIB]`.
use std::time::Duration;

use patience_core::{builtin, Position};
use patience_solver::{solve, Limits, Verdict};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = builtin::rules(&args[0]).expect("game");
    let deal: u64 = args[1].parse().expect("deal");
    let seconds: f64 = args[2].parse().expect("seconds");
    let position = Position::deal(&rules, deal).expect("deal");
    let report = solve(
        &rules,
        &position,
        &Limits {
            time: Some(Duration::from_secs_f64(seconds)),
            memory_bytes: args
                .get(3)
                .map_or(1 << 30, |m| m.parse::<usize>().expect("MiB") << 20),
            ..Limits::default()
        },
    );
    let verdict = match &report.verdict {
        Verdict::Won(l) => {
            let mut p = position;
            for mv in l {
                p.play(&rules, *mv).expect("a legal move");
            }
            assert!(p.is_won());
            format!("won in {} (replayed)", l.len())
        }
        v => format!("{v:?}"),
    };
    println!(
        "{verdict} nodes {} stored {} {:.3}s {:.0} nodes/s table {} MiB",
        report.nodes,
        report.stored,
        report.elapsed.as_secs_f64(),
        report.nodes as f64 / report.elapsed.as_secs_f64(),
        report.table_bytes >> 20
    );
}
