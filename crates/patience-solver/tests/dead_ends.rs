//! The dead-end rule (`patience_solver::dead_end`) against the no-pruning oracle: every position the rule calls
//! lost, met along random walks through the reduced packs of every built-in game, must be lost by an exhaustive
//! search; and the rule must call enough of them lost for that to mean something. The rule is checked as stated,
//! with no count skipped: it calls lost every position the search's rule does, and more, which the search takes
//! as proved too. Walks of every length from 400
//! deals of each game: with 40 deals and every other length, a reserve pile taken to give at least its top card
//! went unnoticed; with these it is caught on Chameleon and Gate.

mod common;

use patience_core::{builtin, Position};
use patience_solver::dead_end::DeadEnds;

use common::{confirm_walks, reduced, REDUCED};

#[test]
fn every_position_the_rule_calls_lost_is_lost() {
    let ids: Vec<&str> = REDUCED.iter().map(|&(id, _)| id).collect();
    let (called_lost, _) = walk_the_rule(&ids, DeadEnds::stated, None);
    println!("{called_lost} positions called lost");
    assert!(
        called_lost >= 50,
        "the rule called only {called_lost} positions lost, too few to test it"
    );
}

/// The fourth condition, the stock's draws, calls lost positions the first three do not, and each of them, like
/// every position the rule calls lost, is lost by the exhaustive search.
#[test]
fn the_stocks_draws_call_more_positions_lost() {
    let (_, only_by_draws) = walk_the_rule(
        &["chameleon", "four-seasons", "gate", "simplicity"],
        |rule| rule,
        Some(DeadEnds::without_the_stocks_draws),
    );
    println!("{only_by_draws} positions called lost by the stock's draws alone");
    assert!(
        only_by_draws >= 20,
        "the stock's draws called only {only_by_draws} positions lost that the other conditions did not"
    );
}

/// The runs' bottom cards held to the piles' and the reserve's, where only the reserve fills spaces while it has
/// cards, call lost positions the rule without them does not, and each of them is lost by the exhaustive search.
#[test]
fn the_fixed_bottoms_call_more_positions_lost() {
    let (_, only_by_bottoms) = walk_the_rule(
        &["chameleon", "gate"],
        |rule| rule,
        Some(DeadEnds::without_fixed_bottoms),
    );
    println!("{only_by_bottoms} positions called lost by the fixed bottoms alone");
    assert!(
        only_by_bottoms >= 20,
        "the fixed bottoms called only {only_by_bottoms} positions lost that the rule without them did not"
    );
}

/// The card that leaves the waste as a waste card first shows, taken to top a pile (it holds no card then), calls
/// lost positions the rule without it does not, and each of them is lost by the exhaustive search.
#[test]
fn the_top_card_calls_more_positions_lost() {
    let (_, only_by_top) = walk_the_rule(
        &["chameleon", "four-seasons", "gate", "simplicity"],
        |rule| rule,
        Some(DeadEnds::without_the_top_card),
    );
    println!("{only_by_top} positions called lost by the top card alone");
    assert!(
        only_by_top >= 20,
        "the top card called only {only_by_top} positions lost that the rule without it did not"
    );
}

/// How many positions, along random walks through the reduced packs of the games `ids`, the `rule` calls lost,
/// and how many of them the rule `without` one of its parts does not; it fails if the exhaustive search finds one
/// the `rule` calls lost to be won.
fn walk_the_rule(
    ids: &[&str],
    rule: fn(DeadEnds) -> DeadEnds,
    without: Option<fn(DeadEnds) -> DeadEnds>,
) -> (usize, u32) {
    // A cell: the walks' judge is a shared closure.
    let only_by_it = std::cell::Cell::new(0u32);
    let mut called_lost = 0;
    let mut failures = Vec::new();
    for &id in ids {
        let rules = reduced(id);
        for deal in 1..=400 {
            let start = Position::deal(&rules, deal).expect("a deal");
            let Some(dead_ends) = DeadEnds::for_root(&rules, &start).map(rule) else {
                continue;
            };
            let without = without.and_then(|part| DeadEnds::for_root(&rules, &start).map(part));
            called_lost += confirm_walks(
                (&rules, id, deal, &start),
                2..=40,
                deal * 100,
                |position| {
                    let lost = dead_ends.lost(&rules, position);
                    let by_it = lost && without.as_ref().is_some_and(|w| !w.lost(&rules, position));
                    only_by_it.set(only_by_it.get() + u32::from(by_it));
                    lost
                },
                &mut failures,
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (called_lost, only_by_it.get())
}

/// What the rule keeps from one position to the next (the layers' verdicts, and the waste's bottom cards found
/// open) gives every position the verdict the rule works out afresh: along random walks through the games whose
/// waste becomes a stack, a rule that judged the positions before on the walk finds what a new rule finds. It
/// fails when the stock or the foundations are left out of the key of what is kept of the waste's bottom cards.
#[test]
fn what_the_rule_keeps_gives_the_verdicts_it_works_out() {
    let mut called_lost = 0;
    let mut failures = Vec::new();
    for id in [
        "chameleon",
        "four-seasons",
        "gate",
        "simplicity",
        "storehouse",
    ] {
        let rules = builtin::rules(id).expect("a built-in game");
        for deal in 1..=40 {
            let start = Position::deal(&rules, deal).expect("a deal");
            for part in [|rule| rule, DeadEnds::stated] {
                let Some(kept) = DeadEnds::for_root(&rules, &start).map(part) else {
                    continue;
                };
                for moves in 1..=80 {
                    let position = common::random_walk(&rules, &start, moves, deal);
                    let afresh = DeadEnds::for_root(&rules, &start).map(part);
                    let lost = afresh.is_some_and(|rule| rule.lost(&rules, &position));
                    called_lost += usize::from(lost);
                    if kept.lost(&rules, &position) != lost {
                        failures.push(format!(
                            "{id} deal {deal}, {moves} random moves in: lost {lost} afresh, not with what the rule kept"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    println!("{called_lost} positions called lost");
    assert!(
        called_lost >= 1000,
        "the rule called only {called_lost} positions lost, too few to test it"
    );
}
