//! The exact set of legal moves in hand-made positions of every built-in game, against RULES.md: what may move,
//! where, what fills a space and when, the stock, and the moves that must not be there.

mod common;

use common::{assert_moves, is_legal, layout, pile, play, refused, rules, tableau};
use patience_core::{Pile, Position};

// ---------------------------------------------------------------------------------------------------------
// Four Seasons: top card only, down regardless of suit round the corner; spaces take any available card at
// will; draw 1, no redeal.

#[test]
fn four_seasons_top_cards_build_down_any_suit_and_fill_spaces_at_will() {
    let (rules, p) = layout("four-seasons")
        .base("J")
        .foundations(["JC", "", "", ""])
        .tableau(&["9H", "8S", "", "AD", "3C 2H"])
        .waste("QC")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "w-f0",  // QC on JC
            "w-t2",  // the waste into a space
            "t1-t0", // 8S on 9H
            "t3-t4", // AD on 2H
            "t4-t2", // the top card of a pile into a space
        ],
    );
}

#[test]
fn four_seasons_builds_round_the_corner() {
    let (rules, p) = layout("four-seasons")
        .base("5")
        .foundations(["5C", "", "", ""])
        .tableau(&["AD", "7C", "8H", "TS", "2S"])
        .waste("KS")
        .both();
    // K on A (wrap) and A on 2.
    assert_moves(&rules, &p, &["draw", "w-t0", "t0-t4", "t1-t2"]);
}

#[test]
fn four_seasons_has_no_redeal() {
    let (rules, p) = layout("four-seasons")
        .base("A")
        .foundations(["KC", "KS", "KH", "5D"])
        .tableau(&["KD", "QD", "JD", "TD", "9D 8D"])
        .waste("6D 7D")
        .redeals(Some(0))
        .exact()
        .both();
    assert_moves(&rules, &p, &["w-t4", "t1-t0", "t2-t1", "t3-t2"]);
    let mut p = p;
    assert!(refused(&rules, &mut p, "redeal").contains("no redeal"));
}

// ---------------------------------------------------------------------------------------------------------
// Florentine: as Four Seasons, one redeal, the centre pile (tableau:2) holds one card at most.

#[test]
fn florentine_centre_holds_one_card() {
    let lay = |id: &str| {
        layout(id)
            .base("J")
            .tableau(&["6H", "8S", "7C", "", "4C 3H"])
            .waste("9D")
    };
    let (rules, mut p) = lay("florentine").both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "w-t3",  // the waste into a space
            "t2-t1", // the centre card moves away, onto 8S
            "t2-t3", // ... or into a space, freeing the centre
            "t4-t3",
        ],
    );
    // 6H would go on 7C anywhere but in the centre.
    let reason = refused(&rules, &mut p, "t0-t2");
    assert!(reason.contains("at most 1"), "{reason}");

    // Four Seasons plays the same layout with 6H on 7C, and a one-card pile into a space changes nothing.
    let (rules, p) = lay("four-seasons").both();
    assert_moves(&rules, &p, &["draw", "w-t3", "t0-t2", "t2-t1", "t4-t3"]);
}

#[test]
fn florentine_empty_centre_takes_any_available_card() {
    let (rules, mut p) = layout("florentine")
        .base("J")
        .tableau(&["9H", "5S", "", "KD", "4C 3H"])
        .waste("7C")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "w-t2", "t0-t2", "t1-t2", "t3-t2", // one-card piles into the centre
            "t4-t2",
        ],
    );
    play(&rules, &mut p, "w-t2");
    assert_eq!(tableau(&p), "9H | 5S | 7C | KD | 4C 3H");
    // The centre is full: nothing more goes there, not even a card that builds on 7C.
    assert!(moves_to(&rules, &p, "t2").is_empty());
}

#[test]
fn florentine_has_one_redeal() {
    let lay = layout("florentine")
        .base("A")
        .foundations(["KC", "KS", "KH", "5D"])
        .tableau(&["KD", "QD", "JD", "TD", "9D 8D"])
        .waste("6D 7D")
        .exact();
    let (rules, mut p) = lay.clone().redeals(Some(1)).both();
    // TD may not go on JD: the centre already holds a card.
    assert_moves(&rules, &p, &["redeal", "w-t4", "t1-t0", "t2-t1"]);
    play(&rules, &mut p, "redeal");
    assert_eq!(p.redeals_left(), Some(0));
    assert_eq!(pile(&p, Pile::Stock), "7D 6D");
    let (rules, p) = lay.clone().redeals(Some(0)).both();
    assert_moves(&rules, &p, &["w-t4", "t1-t0", "t2-t1"]);
}

// ---------------------------------------------------------------------------------------------------------
// Simplicity: twelve piles, down in alternate colours round the corner, top card only.

#[test]
fn simplicity_builds_in_alternate_colours_round_the_corner() {
    let (rules, p) = layout("simplicity")
        .base("5")
        .tableau(&[
            "6S", "5H", "AH", "KC", "KH", "9C", "9S", "QD", "2C", "TC", "TS 9D", "",
        ])
        .waste("8H")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "w-t5", "w-t6", "w-t11", // 8H on a black 9, or into the space
            "t1-t0", "t1-f2", // 5H on 6S, or to start the hearts
            "t3-t2", // KC on AH: round the corner; not KH on AH (same colour)
            "t7-t3", // QD on KC
            "t2-t8", // AH on 2C
            "t10-t9", "t10-t11", // 9D on TC, or into the space
        ],
    );
}

// ---------------------------------------------------------------------------------------------------------
// Fortune's Favor: down in suit, no wrap, top card only, never into a space; spaces filled at once from the
// waste, or from the stock when the waste is empty; one redeal.

#[test]
fn fortunes_favor_moves_top_cards_in_suit() {
    let (rules, p) = layout("fortunes-favor")
        .foundations(["3C", "AS", "AH", "AD"])
        .tableau(&[
            "4C", "9S", "8S", "8H", "5D", "6D", "TH", "JC", "7C", "QH", "2H", "3D",
        ])
        .waste("9D 6C")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "w-t8", "t0-f0", "t2-t1", // 8S on 9S; not 8H
            "t4-t5", "t10-f2",
        ],
    );
}

#[test]
fn fortunes_favor_fills_a_space_from_the_waste_inside_the_move() {
    let (rules, mut p) = layout("fortunes-favor")
        .foundations(["3C", "AS", "AH", "AD"])
        .tableau(&[
            "4C", "9S", "8S", "8H", "5D", "6D", "TH", "JC", "7C", "QH", "2H", "3D",
        ])
        .waste("9D 6C")
        .both();
    let before = p.len(Pile::Waste);
    play(&rules, &mut p, "t0-f0");
    assert_eq!(pile(&p, Pile::Tableau(0)), "6C");
    assert_eq!(p.len(Pile::Waste), before - 1);
    assert_eq!(p.top(Pile::Waste).map(|c| c.to_string()), Some("9D".into()));
}

#[test]
fn fortunes_favor_fills_a_space_from_the_stock_when_the_waste_is_empty() {
    let (rules, mut p) = layout("fortunes-favor")
        .foundations(["3C", "AS", "AH", "AD"])
        .tableau(&[
            "4C", "9S", "8S", "8H", "5D", "6D", "TH", "JC", "7C", "QH", "2H", "3D",
        ])
        .stock("KD QC")
        .both();
    assert_eq!(p.len(Pile::Waste), 0);
    play(&rules, &mut p, "t10-f2");
    assert_eq!(pile(&p, Pile::Tableau(10)), "QC");
    assert_eq!(p.top(Pile::Stock).map(|c| c.to_string()), Some("KD".into()));
    assert_eq!(p.len(Pile::Waste), 0);
}

#[test]
fn fortunes_favor_space_stays_empty_with_no_waste_and_no_stock() {
    let (rules, mut p) = layout("fortunes-favor")
        .foundations(["KC", "KS", "KH", "4D"])
        .tableau(&["5D", "7D 6D", "8D", "9D", "TD", "JD", "QD", "KD"])
        .redeals(Some(1))
        .exact()
        .both();
    // Never into a space, and no redeal from an empty waste.
    assert_moves(
        &rules,
        &p,
        &[
            "t0-f3", "t0-t1", "t2-t3", "t3-t4", "t4-t5", "t5-t6", "t6-t7",
        ],
    );
    let reason = refused(&rules, &mut p, "t1-t8");
    assert!(reason.contains("never filled by the player"), "{reason}");
    play(&rules, &mut p, "t0-f3");
    assert_eq!(p.len(Pile::Tableau(0)), 0);
}

#[test]
fn fortunes_favor_has_one_redeal() {
    let lay = || {
        layout("fortunes-favor")
            .foundations(["3C", "AS", "AH", "AD"])
            .tableau(&[
                "4C", "9S", "8S", "8H", "5D", "6D", "TH", "JC", "7C", "QH", "2H", "3D",
            ])
            .waste("6C")
            .rest_to_waste()
    };
    let (rules, mut p) = lay().both();
    assert_eq!(p.redeals_left(), Some(1));
    assert!(is_legal(&rules, &p, "redeal"));
    assert!(!is_legal(&rules, &p, "draw"));
    play(&rules, &mut p, "redeal");
    assert_eq!(p.redeals_left(), Some(0));
    let (rules, mut p) = lay().redeals(Some(0)).both();
    assert!(!is_legal(&rules, &p, "redeal"));
    assert!(refused(&rules, &mut p, "redeal").contains("no redeal"));
}

// ---------------------------------------------------------------------------------------------------------
// Canfield: whole piles only, down in alternate colours round the corner; tableau cards never into a space;
// spaces filled at once from the reserve, then from the waste at will; draw 3, unlimited redeals.

fn canfield_position() -> (patience_core::RuleSet, Position) {
    layout("canfield")
        .base("5")
        .foundations(["5C", "", "", ""])
        .reserve(&["9H 6C"])
        .tableau(&["8S 7H", "9D", "7D 6S", "AH"])
        .waste("KC")
        .both()
}

#[test]
fn canfield_moves_whole_piles_only() {
    let (rules, mut p) = canfield_position();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "r0-f0",   // 6C on 5C
            "r0-t0",   // 6C on 7H
            "w-t3",    // KC on AH, round the corner
            "t0-t1x2", // the whole pile 8S 7H on 9D
        ],
    );
    // 6S alone would go on 7H, but only the whole pile moves.
    let reason = refused(&rules, &mut p, "t2-t0");
    assert!(reason.contains("whole"), "{reason}");
    // Neither does the top card of a two-card pile.
    let reason = refused(&rules, &mut p, "t0-t1");
    assert!(reason.contains("whole"), "{reason}");
}

#[test]
fn canfield_refills_a_space_from_the_reserve_inside_the_move() {
    let (rules, mut p) = canfield_position();
    play(&rules, &mut p, "t0-t1x2");
    assert_eq!(tableau(&p), "6C | 9D 8S 7H | 7D 6S | AH");
    assert_eq!(pile(&p, Pile::Reserve(0)), "9H");
    // The next reserve card is the one refilled next.
    play(&rules, &mut p, "t0-f0");
    assert_eq!(tableau(&p), "9H | 9D 8S 7H | 7D 6S | AH");
    assert!(p.reserve_empty());
    // With the reserve empty the space stays empty.
    let (rules, mut p) = layout("canfield")
        .base("5")
        .reserve(&[""])
        .tableau(&["8S 7H", "9D", "7D 6S", "5H"])
        .both();
    play(&rules, &mut p, "t3-f2");
    assert_eq!(tableau(&p), "8S 7H | 9D | 7D 6S | ");
}

#[test]
fn canfield_spaces_take_the_waste_at_will_once_the_reserve_is_empty_never_the_tableau() {
    let (rules, mut p) = layout("canfield")
        .base("5")
        .reserve(&[""])
        .tableau(&["", "9D 8C", "5H", "KS"])
        .waste("QH")
        .both();
    assert_moves(&rules, &p, &["draw", "w-t0", "w-t3", "t2-f2"]);
    let reason = refused(&rules, &mut p, "t1-t0");
    assert!(reason.contains("whole"), "{reason}");
    let reason = refused(&rules, &mut p, "t2-t0");
    assert!(reason.contains("changes nothing"), "{reason}");
}

#[test]
fn canfield_draws_three_the_last_turned_on_top() {
    let (rules, mut p) = layout("canfield")
        .base("5")
        .reserve(&["9H 6C"])
        .tableau(&["8S 7H", "9D", "7D 6S", "AH"])
        .stock("QD 2C 3C 4C")
        .waste("KC")
        .rest_to_waste()
        .both();
    play(&rules, &mut p, "draw");
    assert_eq!(pile(&p, Pile::Stock), "QD");
    let waste = pile(&p, Pile::Waste);
    assert!(waste.ends_with("KC 4C 3C 2C"), "{waste}");
    // Fewer than three left: all of them.
    assert_eq!(p.stock_move(&rules).map(|m| m.count), Some(1));
    play(&rules, &mut p, "draw");
    assert!(pile(&p, Pile::Waste).ends_with("2C QD"));
    assert_eq!(p.len(Pile::Stock), 0);
    // A draw of the wrong count is refused.
    let mut q = layout("canfield")
        .base("5")
        .stock("2C 3C 4C")
        .rest_to_waste()
        .build();
    let reason = refused(&rules, &mut q, "s-wx2");
    assert!(reason.contains("turns 3"), "{reason}");
}

#[test]
fn canfield_redeals_without_limit_keeping_the_order() {
    let (rules, mut p) = layout("canfield")
        .base("5")
        .reserve(&["9H 6C"])
        .tableau(&["8S 7H", "9D", "7D 6S", "AH"])
        .rest_to_waste()
        .both();
    assert_eq!(p.redeals_left(), None);
    let waste: Vec<String> = p.cards(Pile::Waste).iter().map(|c| c.to_string()).collect();
    assert!(!is_legal(&rules, &p, "draw"));
    for _ in 0..5 {
        play(&rules, &mut p, "redeal");
        assert_eq!(p.redeals_left(), None);
        assert_eq!(p.len(Pile::Waste), 0);
        // The first card turned last time is turned first again.
        let mut stock: Vec<String> = p.cards(Pile::Stock).iter().map(|c| c.to_string()).collect();
        stock.reverse();
        assert_eq!(stock, waste);
        play(&rules, &mut p, "draw");
        assert_eq!(
            pile(&p, Pile::Waste),
            waste[..3].join(" "),
            "the first three, the third on top"
        );
        while p.len(Pile::Stock) > 0 {
            play(&rules, &mut p, "draw");
        }
        assert_eq!(pile(&p, Pile::Waste), waste.join(" "));
    }
}

#[test]
fn canfield_refuses_with_reasons() {
    let (rules, mut p) = canfield_position();
    let reason = refused(&rules, &mut p, "w-f0");
    assert!(reason.contains("takes 6C next"), "{reason}");
    let reason = refused(&rules, &mut p, "t1-t0");
    assert!(reason.contains("does not go on"), "{reason}");
    let reason = refused(&rules, &mut p, "t9-t0");
    assert!(reason.contains("no tableau:9"), "{reason}");
    let reason = refused(&rules, &mut p, "t0-r0");
    assert!(reason.contains("nothing may be played onto"), "{reason}");
    let reason = refused(&rules, &mut p, "redeal");
    assert!(reason.contains("stock is empty"), "{reason}");
    let reason = refused(&rules, &mut p, "f0-t0");
    assert!(reason.contains("never come back"), "{reason}");
    let reason = refused(&rules, &mut p, "r0-t0x2");
    assert!(reason.contains("only the top card"), "{reason}");
}

// ---------------------------------------------------------------------------------------------------------
// Foster's Canfield: whole piles, or the top card alone of a pile of exactly two; spaces filled from the
// reserve at will (never forced), then from the waste once the reserve is empty.

#[test]
fn foster_moves_the_top_card_alone_only_from_a_pile_of_two() {
    let (rules, mut p) = layout("canfield-foster")
        .base("5")
        .reserve(&["9H 3D"])
        .tableau(&["9C 8H", "", "QH JS TD 9S", "JC"])
        .waste("KC")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "r0-t1", // the reserve into the space, at will
            "t0-t2", // 8H alone from a pile of two, onto 9S
        ],
    );
    // Not TD 9S onto JC: part of a pile of four.
    let reason = refused(&rules, &mut p, "t2-t3x2");
    assert!(reason.contains("whole"), "{reason}");
    // Not the waste into the space while the reserve has cards, nor a tableau card.
    let reason = refused(&rules, &mut p, "w-t1");
    assert!(reason.contains("only from the reserve"), "{reason}");
    let reason = refused(&rules, &mut p, "t0-t1");
    assert!(reason.contains("only from the reserve"), "{reason}");
}

#[test]
fn foster_never_fills_a_space_by_force() {
    let (rules, mut p) = layout("canfield-foster")
        .base("5")
        .reserve(&["9H 3D"])
        .tableau(&["9C 8H", "TD", "QH JS", "4S"])
        .waste("KC")
        .both();
    assert_moves(&rules, &p, &["draw", "t0-t1x2", "t1-t2", "r0-t3"]);
    play(&rules, &mut p, "t0-t1x2");
    assert_eq!(tableau(&p), " | TD 9C 8H | QH JS | 4S");
    assert_eq!(pile(&p, Pile::Reserve(0)), "9H 3D");
    assert_moves(&rules, &p, &["draw", "r0-t0", "r0-t3", "t1-t2x3"]);
    // Once the reserve is empty, the waste fills a space at will.
    let (rules, p) = layout("canfield-foster")
        .base("5")
        .reserve(&[""])
        .tableau(&["9C 8H", "", "QH JS", "4S"])
        .waste("KC")
        .both();
    assert_moves(&rules, &p, &["draw", "w-t1"]);
}

// ---------------------------------------------------------------------------------------------------------
// Solo Canfield: foundations A to K, no wrap; their top cards may go back; the top card or any run moves;
// spaces filled at once from the reserve, then with any available card or run at will.

#[test]
fn solo_canfield_moves_runs_and_takes_foundation_cards_back() {
    let (rules, mut p) = layout("canfield-solo")
        .foundations(["3C", "2S", "", ""])
        .reserve(&["9H 8C"])
        .tableau(&["5D 4S 3H", "5H", "6C", "AH"])
        .waste("KS")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "f1-t0",   // 2S back from its foundation onto 3H
            "t0-t1x2", // a partial run: 4S 3H on 5H
            "t0-t2x3", // the whole pile on 6C
            "t1-t2", "t3-f2",
        ],
    );
    // No wrap: KS does not go on AH.
    let reason = refused(&rules, &mut p, "w-t3");
    assert!(reason.contains("nothing goes on AH"), "{reason}");
    // A foundation card goes back only onto a card it builds on.
    let reason = refused(&rules, &mut p, "f0-t2");
    assert!(reason.contains("does not go on"), "{reason}");
}

#[test]
fn solo_canfield_refills_from_the_reserve_then_any_card_or_run_at_will() {
    let (rules, mut p) = layout("canfield-solo")
        .foundations(["3C", "2S", "", ""])
        .reserve(&["9H 8C"])
        .tableau(&["5D 4S 3H", "5H", "6C", "AH"])
        .waste("KS")
        .both();
    play(&rules, &mut p, "t3-f2");
    assert_eq!(tableau(&p), "5D 4S 3H | 5H | 6C | 8C");
    assert_eq!(pile(&p, Pile::Reserve(0)), "9H");

    let (rules, p) = layout("canfield-solo")
        .reserve(&[""])
        .tableau(&["", "9D 8S 7H", "KC", "5S"])
        .waste("QD")
        .both();
    assert_moves(&rules, &p, &["draw", "w-t0", "w-t2", "t1-t0", "t1-t0x2"]);
}

// ---------------------------------------------------------------------------------------------------------
// Selective Canfield: the only legal first move is the choice of the base card among five.

#[test]
fn selective_canfield_allows_only_the_choice_first() {
    let rules = rules("selective-canfield");
    let mut p = Position::deal(&rules, 1).expect("deal 1");
    // The row is QC KH 3H 2S KS.
    assert_moves(&rules, &p, &["c0-f0", "c1-f2", "c2-f2", "c3-f1", "c4-f1"]);
    let reason = refused(&rules, &mut p, "draw");
    assert!(reason.contains("chosen first"), "{reason}");
    let reason = refused(&rules, &mut p, "r0-t0");
    assert!(reason.contains("chosen first"), "{reason}");
    let reason = refused(&rules, &mut p, "c1-f0");
    assert!(reason.contains("belongs on"), "{reason}");

    play(&rules, &mut p, "c1-f2");
    assert!(!p.choice_pending());
    assert_eq!(p.base_rank().map(|r| r.letter()), Some('K'));
    assert_eq!(tableau(&p), "QC | 3H | 2S | KS");
    // Then Canfield: AD from the reserve on 2S, 2S on 3H, KS to its foundation.
    assert_moves(&rules, &p, &["draw", "r0-t2", "t2-t1", "t3-f1"]);
    play(&rules, &mut p, "t3-f1");
    assert_eq!(tableau(&p), "QC | 3H | 2S | AD");
}

// ---------------------------------------------------------------------------------------------------------
// Chameleon: three piles down regardless of suit round the corner; any run moves; draw 1, no redeal.

#[test]
fn chameleon_moves_any_run_round_the_corner() {
    let (rules, p) = layout("chameleon")
        .base("9")
        .reserve(&["2C 5D"])
        .tableau(&["6H 5S 4D", "6C", "AD"])
        .waste("KH")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "r0-t1",   // 5D on 6C
            "w-t2",    // KH on AD
            "t0-t1x2", // the run 5S 4D on 6C
        ],
    );
}

#[test]
fn chameleon_has_no_redeal_and_refills_from_the_reserve() {
    let (rules, mut p) = layout("chameleon")
        .base("9")
        .foundations(["", "", "", "9D"])
        .reserve(&["2C 5D"])
        .tableau(&["6H 5S 4D", "TD", "AD"])
        .waste("KH")
        .rest_to_waste()
        .both();
    assert_eq!(p.redeals_left(), Some(0));
    assert!(!is_legal(&rules, &p, "redeal"));
    play(&rules, &mut p, "t1-f3");
    assert_eq!(tableau(&p), "6H 5S 4D | 5D | AD");
    play(&rules, &mut p, "t0-t1");
    assert_eq!(tableau(&p), "6H 5S | 5D 4D | AD");
}

// ---------------------------------------------------------------------------------------------------------
// Storehouse: foundations 2 to K then A; down in suit with the ace above the king; whole piles only; two
// redeals.

#[test]
fn storehouse_puts_a_king_on_an_ace() {
    let (rules, mut p) = layout("storehouse")
        .foundations(["4C", "2S", "2H", "2D"])
        .reserve(&["9H 5C"])
        .tableau(&["AH", "AS KS", "QS", "KH"])
        .waste("3D")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "r0-f0", "w-f3", "t2-t1", // QS on KS
            "t3-t0", // KH on AH: the ace ranks above the king
        ],
    );
    // The ace is the highest rank: it goes on nothing.
    let reason = refused(&rules, &mut p, "t0-t3");
    assert!(reason.contains("does not go on"), "{reason}");
    play(&rules, &mut p, "t3-t0");
    assert_eq!(tableau(&p), "AH KH | AS KS | QS | 5C");
}

#[test]
fn storehouse_foundations_end_with_the_ace() {
    let (rules, p) = layout("storehouse")
        .foundations(["4C", "KS", "2H", "2D"])
        .reserve(&[""])
        .tableau(&["AS"])
        .both();
    assert_moves(&rules, &p, &["draw", "t0-f1"]);
}

#[test]
fn storehouse_has_two_redeals() {
    let (rules, mut p) = layout("storehouse")
        .foundations(["4C", "2S", "2H", "2D"])
        .reserve(&["9H 5C"])
        .tableau(&["AH", "AS KS", "QS", "KH"])
        .rest_to_waste()
        .both();
    assert_eq!(p.redeals_left(), Some(2));
    for left in [1, 0] {
        play(&rules, &mut p, "redeal");
        assert_eq!(p.redeals_left(), Some(left));
        while p.len(Pile::Stock) > 0 {
            play(&rules, &mut p, "draw");
        }
    }
    assert!(!is_legal(&rules, &p, "redeal"));
    assert!(refused(&rules, &mut p, "redeal").contains("no redeal"));
}

// ---------------------------------------------------------------------------------------------------------
// Gate: aces as they come, down in alternate colours, no wrap; the top card or the whole pile; a space only
// from a post (either), at will; from the waste once both posts are empty.

fn gate_layout() -> common::Layout {
    layout("gate")
        .reserve(&["JD 9H", "2D JC 6H"])
        .tableau(&["7C", "", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
        .waste("KD")
}

#[test]
fn gate_moves_the_top_card_or_the_whole_pile_and_fills_spaces_from_either_post() {
    let (rules, mut p) = gate_layout().both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "r0-t1", "r1-t1", // either post into the space
            "r1-t0", "r1-t2",   // 6H on 7C or 7S
            "t2-t7x3", // the whole pile on TD
            "t3-f3", "t5-t4", "t6-t7",
        ],
    );
    // Not part of a pile: 8D 7S on 9C.
    let reason = refused(&rules, &mut p, "t2-t6x2");
    assert!(reason.contains("top card or the whole pile"), "{reason}");
    // Not the waste into a space while a post has cards, nor a tableau card.
    let reason = refused(&rules, &mut p, "w-t1");
    assert!(reason.contains("only from the reserve"), "{reason}");
    let reason = refused(&rules, &mut p, "t2-t1");
    assert!(reason.contains("only from the reserve"), "{reason}");
    // No wrap: KD does not go on AD.
    let reason = refused(&rules, &mut p, "w-t3");
    assert!(reason.contains("does not go on"), "{reason}");
}

#[test]
fn gate_never_fills_a_space_by_force() {
    let (rules, mut p) = gate_layout().both();
    play(&rules, &mut p, "t3-f3");
    assert_eq!(tableau(&p), "7C |  | 9S 8D 7S |  | KH | QC | 9C | TD");
    assert_eq!(pile(&p, Pile::Reserve(0)), "JD 9H");
    assert_eq!(pile(&p, Pile::Reserve(1)), "2D JC 6H");
}

#[test]
fn gate_waste_fills_a_space_only_once_both_posts_are_empty() {
    let (rules, p) = layout("gate")
        .reserve(&["", "2D JC 6H"])
        .tableau(&["7C", "", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
        .waste("KD")
        .both();
    assert!(!is_legal(&rules, &p, "w-t1"));
    assert!(is_legal(&rules, &p, "r1-t1"));
    let (rules, p) = layout("gate")
        .reserve(&["", ""])
        .tableau(&["7C", "", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
        .waste("KD")
        .both();
    assert_moves(
        &rules,
        &p,
        &["draw", "w-t1", "t2-t7x3", "t3-f3", "t5-t4", "t6-t7"],
    );
}

// ---------------------------------------------------------------------------------------------------------

/// The legal moves onto one pile, by its notation code.
fn moves_to(rules: &patience_core::RuleSet, p: &Position, to: &str) -> Vec<String> {
    common::moves(rules, p)
        .into_iter()
        .filter(|m| {
            m.split('-')
                .nth(1)
                .is_some_and(|t| t.split('x').next() == Some(to))
        })
        .collect()
}

#[test]
fn kings_go_on_aces_only_where_the_order_wraps_or_the_ace_is_highest() {
    let king_on_ace = |id: &str, king: &str, ace: &str| {
        let rules = rules(id);
        let p = Position::deal(&rules, 1).expect("deal 1");
        p.builds_on(
            &rules,
            king.parse().expect("card"),
            ace.parse().expect("card"),
        )
    };
    for id in [
        "four-seasons",
        "florentine",
        "canfield",
        "canfield-foster",
        "chameleon",
    ] {
        assert!(king_on_ace(id, "KH", "AC"), "{id}: K on A");
    }
    assert!(king_on_ace("simplicity", "KH", "AC"));
    assert!(king_on_ace("storehouse", "KH", "AH"));
    for (id, king, ace) in [
        ("fortunes-favor", "KH", "AH"),
        ("gate", "KH", "AC"),
        ("canfield-solo", "KH", "AC"),
    ] {
        assert!(!king_on_ace(id, king, ace), "{id}: no K on A");
    }
    // And an ace never goes on a two where the ace is highest.
    assert!(!king_on_ace("storehouse", "AH", "2H"));
}
