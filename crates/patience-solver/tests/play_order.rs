//! The order-of-play rule (`patience_solver::play_order`) against the no-pruning oracle: every position the rule
//! calls lost, met along random walks through the reduced packs of every built-in game, must be lost by an
//! exhaustive search; and the rule must call enough of them lost, in each game it applies to, for that to mean
//! something.

mod common;

use patience_core::Position;
use patience_solver::play_order::PlayOrder;

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
