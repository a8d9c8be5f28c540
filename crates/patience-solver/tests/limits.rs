//! The limits stop a search with the verdict that names them, and the transposition table keeps to its budget.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use patience_core::{builtin, Position, RuleSet};
use patience_solver::{solve, solve_unpruned, solve_with_cancel, Limit, Limits, Verdict};

/// A full deal that takes far more than a few thousand positions to decide (still undecided after millions).
fn hard() -> (RuleSet, Position) {
    let rules = builtin::rules("four-seasons").expect("built-in Four Seasons");
    let position = Position::deal(&rules, 1).expect("deal 1");
    (rules, position)
}

#[test]
fn a_node_limit_stops_the_search() {
    let (rules, position) = hard();
    let limits = Limits {
        nodes: Some(10_000),
        ..Limits::default()
    };
    let report = solve(&rules, &position, &limits);
    assert_eq!(report.verdict, Verdict::Unknown(Limit::Nodes));
    assert!(report.nodes >= 10_000, "{} nodes", report.nodes);
}

#[test]
fn a_node_limit_is_never_exceeded() {
    let (rules, position) = hard();
    let limits = Limits {
        nodes: Some(10),
        ..Limits::default()
    };
    let report = solve(&rules, &position, &limits);
    assert_eq!(report.verdict, Verdict::Unknown(Limit::Nodes));
    assert!(
        report.nodes <= 10,
        "{} nodes for a limit of 10",
        report.nodes
    );
}

#[test]
fn a_time_limit_stops_the_search() {
    let (rules, position) = hard();
    let limits = Limits {
        time: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let report = solve(&rules, &position, &limits);
    assert_eq!(report.verdict, Verdict::Unknown(Limit::Time));
    assert!(report.elapsed >= Duration::from_millis(50));
    // It stops soon after the limit (generously: debug builds on a shared machine).
    assert!(
        report.elapsed < Duration::from_secs(5),
        "{:?}",
        report.elapsed
    );
}

#[test]
fn a_time_limit_of_zero_stops_at_once() {
    let (rules, position) = hard();
    let limits = Limits {
        time: Some(Duration::ZERO),
        ..Limits::default()
    };
    assert_eq!(
        solve(&rules, &position, &limits).verdict,
        Verdict::Unknown(Limit::Time)
    );
}

#[test]
fn a_tiny_memory_budget_stops_the_search() {
    let (rules, position) = hard();
    for budget in [2 << 10, 4 << 10, 8 << 10] {
        let limits = Limits {
            memory_bytes: budget,
            ..Limits::default()
        };
        for report in [
            solve(&rules, &position, &limits),
            solve_unpruned(&rules, &position, &limits),
        ] {
            assert_eq!(report.verdict, Verdict::Unknown(Limit::Memory), "{budget}");
            assert!(
                report.table_bytes <= budget,
                "{} table bytes for a budget of {budget}",
                report.table_bytes
            );
            // A stored key takes at least its 8-byte fingerprint, in each of the passes' tables (each freed
            // before the next is made; `stored` counts them all): two relaxed passes, two streamlined passes and
            // the full search.
            assert!(
                report.stored * 8 <= 5 * budget,
                "{} keys stored",
                report.stored
            );
            assert!(report.stored > 0);
        }
    }
}

#[test]
fn the_table_keeps_to_its_budget_whatever_the_verdict() {
    // Budgets from a few KiB to a few MiB, on deals that are decided and deals that are not.
    let rules = builtin::rules("canfield").expect("built-in Canfield");
    for budget in [1 << 10, 3 << 10, 100_000, 1 << 20, 3 << 20] {
        for deal in 1..=3 {
            let position = Position::deal(&rules, deal).expect("deal numbers start at 1");
            let limits = Limits {
                memory_bytes: budget,
                nodes: Some(200_000),
                time: None,
            };
            let report = solve(&rules, &position, &limits);
            assert!(
                report.table_bytes <= budget,
                "deal {deal}: {} table bytes for a budget of {budget} ({:?})",
                report.table_bytes,
                report.verdict
            );
            // As above: the positions stored are summed over the five passes' tables.
            assert!(report.stored * 8 <= 5 * budget);
        }
    }
}

#[test]
fn the_table_keeps_to_a_budget_smaller_than_its_smallest_size() {
    let (rules, position) = hard();
    let limits = Limits {
        memory_bytes: 64,
        ..Limits::default()
    };
    let report = solve(&rules, &position, &limits);
    assert_eq!(report.verdict, Verdict::Unknown(Limit::Memory));
    assert!(
        report.table_bytes <= 64,
        "{} table bytes",
        report.table_bytes
    );
}

#[test]
fn a_search_cancelled_before_it_starts_says_so() {
    let (rules, position) = hard();
    let cancel = AtomicBool::new(true);
    let report = solve_with_cancel(&rules, &position, &Limits::default(), &cancel);
    assert_eq!(report.verdict, Verdict::Unknown(Limit::Cancelled));
}

#[test]
fn a_search_cancelled_from_another_thread_stops() {
    let (rules, position) = hard();
    let cancel = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        let search =
            scope.spawn(|| solve_with_cancel(&rules, &position, &Limits::default(), &cancel));
        std::thread::sleep(Duration::from_millis(50));
        cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        search.join().expect("the search thread")
    });
    assert_eq!(report.verdict, Verdict::Unknown(Limit::Cancelled));
}

#[test]
fn limits_that_are_not_reached_change_nothing() {
    // A deal decided well within a node limit gets the same verdict, the same line, with a time and a memory limit
    // that are not reached beside it.
    let rules = builtin::rules("florentine").expect("built-in Florentine");
    let position = Position::deal(&rules, 1).expect("deal 1");
    let by_nodes = Limits {
        nodes: Some(5_000_000),
        ..Limits::default()
    };
    let bounded = solve(&rules, &position, &by_nodes);
    assert!(matches!(bounded.verdict, Verdict::Won(_)));
    let also_by_time = solve(
        &rules,
        &position,
        &Limits {
            time: Some(Duration::from_secs(600)),
            memory_bytes: 256 << 20,
            ..by_nodes
        },
    );
    assert_eq!(also_by_time.verdict, bounded.verdict);
    // With no limit the search goes in rounds of node limits, and wins by a line of its own.
    let Verdict::Won(line) = solve(&rules, &position, &Limits::default()).verdict else {
        panic!("deal 1 not won with no limit");
    };
    let mut replay = position;
    for mv in line {
        replay.play(&rules, mv).expect("a legal move");
    }
    assert!(replay.is_won());
}
