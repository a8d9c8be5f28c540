//! `Position::is_stuck`: stuck when no sequence of moves can change anything but the order of the stock and the
//! waste; cycling an unlimited stock is not progress, and a won position is not stuck.

mod common;

use std::sync::Arc;

use common::layout;
use patience_core::{Game, Pile};

/// Canfield from the ace with eight cards left: TH and TD, the cards the foundations need, lie under QD in
/// the reserve; nothing else builds anywhere.
fn canfield_endgame(stock: &str, waste: &str) -> common::Layout {
    layout("canfield")
        .base("A")
        .foundations(["KC", "KS", "9H", "9D"])
        .reserve(&["TH TD QD"])
        .tableau(&["KH", "JH", "KD", "JD"])
        .stock(stock)
        .waste(waste)
        .exact()
}

#[test]
fn cycling_an_unlimited_stock_is_stuck_and_the_test_ends() {
    let (rules, p) = canfield_endgame("", "QH").both();
    assert_eq!(p.redeals_left(), None);
    let moves = common::moves(&rules, &p);
    assert_eq!(moves, ["redeal"]);
    assert!(p.is_stuck(&rules));
    let (rules, p) = canfield_endgame("QH", "").both();
    assert!(p.is_stuck(&rules));
}

#[test]
fn a_card_the_draw_will_uncover_is_not_stuck() {
    // The reserve holds only TD QD: TH waits in the stock and a draw shows it.
    let (rules, p) = layout("canfield")
        .base("A")
        .foundations(["KC", "KS", "9H", "9D"])
        .reserve(&["TD QD"])
        .tableau(&["KH", "JH", "KD", "JD"])
        .stock("TH")
        .waste("QH")
        .exact()
        .both();
    assert_eq!(common::moves(&rules, &p), ["draw"]);
    assert!(!p.is_stuck(&rules));
}

#[test]
fn a_card_that_three_card_draws_never_show_is_stuck() {
    // Draw 3 turns TH first and QH onto it, every time round.
    let (rules, p) = layout("canfield")
        .base("A")
        .foundations(["KC", "KS", "9H", "9D"])
        .reserve(&["TD QD"])
        .tableau(&["KH", "JH", "KD", "JD"])
        .stock("QH TH")
        .exact()
        .both();
    assert!(p.is_stuck(&rules));
    // Drawing one at a time (Rainbow) shows TH.
    let (rules, p) = layout("rainbow")
        .base("A")
        .foundations(["KC", "KS", "9H", "9D"])
        .reserve(&["TD QD"])
        .tableau(&["KH", "JH", "KD", "JD"])
        .stock("QH TH")
        .exact()
        .both();
    assert!(!p.is_stuck(&rules));
}

/// Four Seasons from the ace, the fives up: every six lies in the waste under JS, the tableau's tops (K J 9 7
/// K) build on nothing.
fn four_seasons_blocked(id: &str, redeals: u8, in_stock: bool) -> common::Layout {
    let lay = layout(id)
        .base("A")
        .foundations(["5C", "5S", "5H", "5D"])
        .tableau(&["KC", "JC", "9C", "7C", "KS"])
        .redeals(Some(redeals));
    if in_stock {
        lay.stock("JS")
    } else {
        lay.waste("JS").rest_to_waste()
    }
}

#[test]
fn nothing_to_draw_and_no_redeal_is_stuck() {
    let (rules, p) = four_seasons_blocked("four-seasons", 0, false).both();
    assert!(p.legal_moves(&rules).is_empty());
    assert!(p.is_stuck(&rules));
    // Florentine's redeal brings the sixes round again.
    let (rules, p) = four_seasons_blocked("florentine", 1, false).both();
    assert_eq!(common::moves(&rules, &p), ["redeal"]);
    assert!(!p.is_stuck(&rules));
    // So does a stock still to draw.
    let (rules, p) = four_seasons_blocked("four-seasons", 0, true).both();
    assert_eq!(p.len(Pile::Stock), 32 - 5);
    assert!(!p.is_stuck(&rules));
}

#[test]
fn any_move_but_the_stock_is_not_stuck() {
    let (rules, p) = layout("canfield")
        .base("5")
        .foundations(["5C", "", "", ""])
        .reserve(&["9H 6C"])
        .tableau(&["8S 7H", "9D", "7D 6S", "AH"])
        .waste("KC")
        .both();
    assert!(!p.is_stuck(&rules));
    // The choice of Selective Canfield is a move.
    let rules = common::rules("selective-canfield");
    let p = patience_core::Position::deal(&rules, 1).expect("deal");
    assert!(!p.is_stuck(&rules));
}

#[test]
fn a_won_position_is_not_stuck() {
    for id in ["canfield", "four-seasons", "gate", "storehouse"] {
        let base = if id == "storehouse" { "2" } else { "A" };
        let tops = if id == "storehouse" {
            ["AC", "AS", "AH", "AD"]
        } else {
            ["KC", "KS", "KH", "KD"]
        };
        let (rules, p) = layout(id).base(base).foundations(tops).exact().both();
        assert!(p.is_won(), "{id}");
        assert!(p.legal_moves(&rules).is_empty(), "{id}");
        assert!(!p.is_stuck(&rules), "{id}");
        let game = Game::from_position(Arc::new(rules), p);
        assert!(game.is_won() && !game.is_stuck());
    }
}

#[test]
fn a_game_reports_stuck_as_its_position_does() {
    let (rules, p) = canfield_endgame("", "QH").both();
    let game = Game::from_position(Arc::new(rules), p);
    assert!(game.is_stuck());
    assert!(!game.is_won());
}
