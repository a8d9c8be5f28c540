//! A position that parses but could not happen is refused with a message that says what is wrong, never played on.

use patience_core::json::PositionJson;
use patience_core::{builtin, Card, Position, RuleSet};

fn rules(id: &str) -> RuleSet {
    builtin::rules(id).expect("a built-in game")
}

/// Deal 1 of the game as JSON, changed by `edit`, then read back: the error's text.
fn refused(id: &str, edit: impl FnOnce(&mut PositionJson)) -> String {
    let rules = rules(id);
    let mut json = Position::deal(&rules, 1).expect("deal").to_json(&rules);
    edit(&mut json);
    match Position::from_json(&rules, &json) {
        Ok(_) => panic!("{id}: an impossible position was read"),
        Err(e) => e.to_string(),
    }
}

fn card(name: &str) -> Card {
    name.parse().expect("a card")
}

#[test]
fn a_53rd_card_is_a_duplicate() {
    let e = refused("canfield", |j| j.waste.push(card("AS")));
    assert!(e.contains("AS appears twice"), "{e}");
}

#[test]
fn a_missing_card_is_named() {
    let e = refused("canfield", |j| {
        j.stock.pop();
    });
    assert!(e.contains("51 cards") && e.contains("missing: "), "{e}");
}

#[test]
fn a_foundation_out_of_order() {
    // Canfield deal 1: base J, JD on its foundation; put QD under... replace JD by QD.
    let e = refused("canfield", |j| {
        let qd = card("QD");
        for pile in j.tableau.iter_mut().chain(j.reserve.iter_mut()) {
            pile.retain(|&c| c != qd);
        }
        j.stock.retain(|&c| c != qd);
        j.waste.retain(|&c| c != qd);
        j.stock.push(card("JD"));
        j.foundations[3] = vec![qd];
    });
    assert!(e.contains("out of order"), "{e}");
}

#[test]
fn a_tableau_pile_that_breaks_the_building_rule() {
    // Canfield: KS then 2S on one pile is no run.
    let e = refused("canfield", |j| {
        let moved = j.tableau[1].pop().expect("a card");
        j.tableau[0].push(moved);
    });
    assert!(e.contains("not a run"), "{e}");
}

#[test]
fn too_many_redeals_and_a_wrong_base() {
    let e = refused("florentine", |j| j.redeals_left = Some(2));
    assert!(e.contains("redeals_left"), "{e}");
    let e = refused("canfield", |j| j.redeals_left = Some(1));
    assert!(e.contains("null"), "{e}");
    let e = refused("storehouse", |j| {
        j.base_rank = patience_core::Rank::parse("3")
    });
    assert!(e.contains("base_rank"), "{e}");
}

#[test]
fn negative_redeals_and_bad_cards_do_not_parse() {
    let rules = rules("florentine");
    let json = Position::deal(&rules, 1).expect("deal").to_json(&rules);
    let text = serde_json::to_string(&json).expect("JSON");
    let negative = text.replace("\"redeals_left\":1", "\"redeals_left\":-1");
    assert_ne!(negative, text);
    assert!(PositionJson::parse(&negative).is_err());
    let bad_card = text.replacen("\"7C\"", "\"1C\"", 1);
    let e = PositionJson::parse(&bad_card).expect_err("1C is no card");
    assert!(e.to_string().contains("1C"), "{e}");
}

#[test]
fn wrong_pile_counts_and_a_capacity_overflow() {
    let e = refused("canfield", |j| j.tableau.push(Vec::new()));
    assert!(e.contains("`tableau` has 5 piles"), "{e}");
    let e = refused("florentine", |j| {
        let extra = j.stock.pop().expect("a card");
        // The centre (pile 2) holds one card at most, whatever the cards.
        j.tableau[2].push(extra);
    });
    assert!(e.contains("may hold 1") || e.contains("not a run"), "{e}");
}
