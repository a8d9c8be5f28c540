//! The dead-end rule (`patience_solver::dead_end`) against the no-pruning oracle: every position the rule calls
//! lost, met along random walks through the reduced packs of every built-in game, must be lost by an exhaustive
//! search; and the rule must call enough of them lost for that to mean something. The rule is checked as stated,
//! with no count skipped: it calls lost every position the search's rule does, and more, which the search takes
//! as proved too. Walks of every length from 400
//! deals of each game: with 40 deals and every other length, a reserve pile taken to give at least its top card
//! went unnoticed; with these it is caught on Chameleon and Gate.

mod common;

use patience_core::Position;
use patience_solver::dead_end::DeadEnds;

use common::{confirm_walks, reduced, REDUCED};

#[test]
fn every_position_the_rule_calls_lost_is_lost() {
    let mut called_lost = 0;
    let mut failures = Vec::new();
    for &(id, _) in REDUCED {
        let rules = reduced(id);
        for deal in 1..=400 {
            let start = Position::deal(&rules, deal).expect("a deal");
            let Some(dead_ends) = DeadEnds::for_root(&rules, &start).map(DeadEnds::stated) else {
                continue;
            };
            called_lost += confirm_walks(
                (&rules, id, deal, &start),
                2..=40,
                deal * 100,
                |position| dead_ends.lost(&rules, position),
                &mut failures,
            );
        }
    }
    println!("{called_lost} positions called lost");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        called_lost >= 50,
        "the rule called only {called_lost} positions lost, too few to test it"
    );
}

/// The fourth condition, the stock's draws, calls lost positions the first three do not, and each of them, like
/// every position the rule calls lost, is lost by the exhaustive search.
#[test]
fn the_stocks_draws_call_more_positions_lost() {
    // A cell: the walks' judge is a shared closure.
    let only_by_draws = std::cell::Cell::new(0u32);
    let mut failures = Vec::new();
    for id in ["chameleon", "four-seasons", "gate", "simplicity"] {
        let rules = reduced(id);
        for deal in 1..=400 {
            let start = Position::deal(&rules, deal).expect("a deal");
            let (Some(dead_ends), Some(without)) = (
                DeadEnds::for_root(&rules, &start),
                DeadEnds::for_root(&rules, &start).map(DeadEnds::without_the_stocks_draws),
            ) else {
                continue;
            };
            confirm_walks(
                (&rules, id, deal, &start),
                2..=40,
                deal * 100,
                |position| {
                    let lost = dead_ends.lost(&rules, position);
                    let by_draws = lost && !without.lost(&rules, position);
                    only_by_draws.set(only_by_draws.get() + u32::from(by_draws));
                    lost
                },
                &mut failures,
            );
        }
    }
    let only_by_draws = only_by_draws.get();
    println!("{only_by_draws} positions called lost by the stock's draws alone");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        only_by_draws >= 20,
        "the stock's draws called only {only_by_draws} positions lost that the other conditions did not"
    );
}
