//! The order-of-play rule (`patience_solver::play_order`) against the no-pruning oracle: every position the rule
//! calls lost, met along random walks through the reduced packs of every built-in game, must be lost by an
//! exhaustive search; and the rule must call enough of them lost, in each game it applies to, for that to mean
//! something. The same for the positions it calls lost only by following which cards of the stock may come to the
//! top of the waste. Whole-pile Canfield keeps the rule where its first positions find nothing lost.

mod common;

use patience_core::rules::Redeals;
use patience_core::{builtin, Position, RuleSet};
use patience_solver::play_order::PlayOrder;
use patience_solver::{solve, Limits, Verdict};

use common::{confirm_walks, reduced, REDUCED};

#[test]
fn every_position_the_rule_calls_lost_is_lost() {
    confirm_on_reduced_packs(
        |_, _| true,
        (150, (4..=80).step_by(4), 0),
        |rule, rules, position| rule.lost(rules, position),
        15,
    );
}

/// The positions the rule calls lost only because it follows the stock (with every card of the stock and the
/// waste free to go, it would not), along more and denser walks than above, since they are fewer: each must be
/// lost by the exhaustive search. Without the cards a card leaving the waste uncovers, or with a reserve card
/// that went up never taken into a space first, some are not.
#[test]
fn every_position_lost_by_following_the_stock_is_lost() {
    confirm_on_reduced_packs(
        |_, rule| rule.follows_the_stock(),
        (300, (2..=60).step_by(2), 7),
        lost_only_by_following_the_stock,
        50,
    );
}

/// The same where a draw turns one card and the deal has no redeal: the rule follows the stock only where no
/// redeal is left, the waste then a pile that gives its cards from the top, as the reserve's do. Without the
/// cards a card leaving the waste uncovers, some are not lost.
#[test]
fn every_position_lost_by_following_the_stocks_last_pass_is_lost() {
    confirm_on_reduced_packs(
        |rules, rule| {
            rules.stock.redeals == Redeals::Limited(0)
                && rule.follows_the_last_pass()
                && !rule.follows_the_stock()
        },
        (300, (2..=60).step_by(2), 7),
        lost_only_by_following_the_stock,
        50,
    );
}

/// The same with a draw of three where redeals run out: the reduced Canfields given one redeal, where the rule
/// follows the stock's last pass without the draws of a later pass, at the positions with no redeal left.
#[test]
fn every_position_lost_in_the_last_pass_of_a_draw_of_three_is_lost() {
    let games = ["canfield", "canfield-any-run"].map(|id| {
        let mut rules = reduced(id);
        rules.stock.redeals = Redeals::Limited(1);
        (id, rules)
    });
    confirm_on_games(
        (&games, games.len()),
        |_, rule| rule.follows_the_stock() && rule.follows_the_last_pass(),
        (300, (2..=60).step_by(2), 11),
        |rule, rules, position| {
            position.redeals_left() == Some(0)
                && lost_only_by_following_the_stock(rule, rules, position)
        },
        50,
    );
}

/// Whether the rule calls `position` lost only because it follows the stock: with every card of the stock and
/// the waste free to go, it would not.
fn lost_only_by_following_the_stock(
    rule: &PlayOrder,
    rules: &RuleSet,
    position: &Position,
) -> bool {
    rule.lost(rules, position) && !rule.cut_free().lost(rules, position)
}

/// [`confirm_on_games`] on the reduced games, four of them at least.
fn confirm_on_reduced_packs(
    applies: impl Fn(&RuleSet, &PlayOrder) -> bool,
    walks: (u64, impl Iterator<Item = usize> + Clone, u64),
    lost: impl Fn(&PlayOrder, &RuleSet, &Position) -> bool,
    least: usize,
) {
    let games: Vec<_> = REDUCED.iter().map(|&(id, _)| (id, reduced(id))).collect();
    confirm_on_games((&games, 4), applies, walks, lost, least);
}

/// Checks every position that `lost` calls lost, along walks from deals `1..=deals` of the `games` whose rule
/// `applies` to (the walks of each deal seeded from `seed`), against the exhaustive search; and that each game
/// has at least `least` of them, and that there are `least_games` such games at least.
fn confirm_on_games(
    (games, least_games): (&[(&str, RuleSet)], usize),
    applies: impl Fn(&RuleSet, &PlayOrder) -> bool,
    (deals, walks, seed): (u64, impl Iterator<Item = usize> + Clone, u64),
    lost: impl Fn(&PlayOrder, &RuleSet, &Position) -> bool,
    least: usize,
) {
    let mut failures = Vec::new();
    let mut tally = Vec::new();
    for (id, rules) in games {
        let Some(rule) = PlayOrder::for_rules(rules).filter(|rule| applies(rules, rule)) else {
            continue;
        };
        let mut called_lost = 0;
        for deal in 1..=deals {
            let start = Position::deal(rules, deal).expect("a deal");
            called_lost += confirm_walks(
                (rules, id, deal, &start),
                walks.clone(),
                deal * 1000 + seed,
                |position| lost(&rule, rules, position),
                &mut failures,
            );
        }
        tally.push((id, called_lost));
    }
    println!("positions called lost: {tally:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        tally.len() >= least_games,
        "too few games the rule applies to: {tally:?}"
    );
    for (id, called_lost) in tally {
        assert!(
            called_lost >= least,
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
