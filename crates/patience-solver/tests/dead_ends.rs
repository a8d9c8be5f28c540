//! The dead-end rule (`patience_solver::dead_end`) against the no-pruning oracle: every position the rule calls
//! lost, met along random walks through the reduced packs of every built-in game, must be lost by an exhaustive
//! search; and the rule must call enough of them lost for that to mean something. Walks of every length from 400
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
            let Some(dead_ends) = DeadEnds::for_root(&rules, &start) else {
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
