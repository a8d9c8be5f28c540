//! The order-of-play rule (`patience_solver::play_order`) against the no-pruning oracle: every position the rule
//! calls lost, met along random walks through the reduced packs of every built-in game, must be lost by an
//! exhaustive search; and the rule must call enough of them lost, in each game it applies to, for that to mean
//! something. Whole-pile Canfield keeps the rule where its first positions find nothing lost.

mod common;

use patience_core::{builtin, Position};
use patience_solver::play_order::PlayOrder;
use patience_solver::{solve, Limits, Verdict};

use common::{confirm_walks, reduced, REDUCED};

#[test]
fn every_position_the_rule_calls_lost_is_lost() {
    let mut failures = Vec::new();
    let mut tally = Vec::new();
    for &(id, _) in REDUCED {
        let rules = reduced(id);
        let Some(rule) = PlayOrder::for_rules(&rules) else {
            continue;
        };
        let mut called_lost = 0;
        for deal in 1..=150 {
            let start = Position::deal(&rules, deal).expect("a deal");
            called_lost += confirm_walks(
                (&rules, id, deal, &start),
                (4..=80).step_by(4),
                deal * 1000,
                |position| rule.lost(&rules, position),
                &mut failures,
            );
        }
        tally.push((id, called_lost));
    }
    println!("positions called lost: {tally:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (id, called_lost) in tally {
        assert!(
            called_lost >= 15,
            "{id}: the rule called only {called_lost} positions lost, too few to test it"
        );
    }
}

/// Where only whole piles move, the search stands on the rule, and keeps it however long its first positions find
/// nothing lost: none of the first 65,536 positions of this deal's search that it works out is lost, and dropped
/// after them (as it is where cards move alone or in runs) it left the deal undecided after 202 million nodes.
#[test]
fn whole_pile_canfield_keeps_the_rule_when_its_first_positions_are_not_lost() {
    let rules = builtin::rules("canfield").expect("a built-in game");
    let deal = Position::deal(&rules, 26).expect("a deal");
    let limits = Limits {
        nodes: Some(3_000_000),
        ..Limits::default()
    };
    let report = solve(&rules, &deal, &limits);
    assert_eq!(
        report.verdict,
        Verdict::Lost,
        "after {} nodes",
        report.nodes
    );
}
