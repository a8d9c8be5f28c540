//! Each variant under `games/extra/` against its built-in game: the rule that makes it differ (RULES.md,
//! "Variants other programs play"), shown by a move legal in one and not in the other, or a refill one makes
//! and the other does not.

mod common;

use common::{assert_moves, is_legal, layout, pile, play, refused, rules, tableau};
use patience_core::{Pile, Position};

/// The same layout under two games.
fn both(
    a: &str,
    b: &str,
    make: impl Fn(common::Layout) -> common::Layout,
) -> [(patience_core::RuleSet, Position); 2] {
    [make(layout(a)).both(), make(layout(b)).both()]
}

#[test]
fn every_variant_is_tested_here() {
    let ids: Vec<&str> = patience_core::builtin::extras()
        .iter()
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "canfield-pysol",
            "canfield-any-run",
            "chameleon-pysol",
            "fortunes-favor-no-redeal",
            "florentine-pysol",
            "gate-pysol",
            "storehouse-pysol",
            "rainbow",
            "superior-canfield",
        ]
    );
}

#[test]
fn canfield_pysol_moves_the_top_card_alone() {
    let [(canfield, p), (pysol, q)] = both("canfield", "canfield-pysol", |l| {
        l.base("5")
            .foundations(["5C", "", "", ""])
            .reserve(&["9H 6C"])
            .tableau(&["8S 7H", "9D", "7D 6S", "AH"])
            .waste("KC")
    });
    // 6S alone on 7H.
    assert!(!is_legal(&canfield, &p, "t2-t0"));
    assert!(is_legal(&pysol, &q, "t2-t0"));
    // Not part of a longer pile other than its top card.
    assert_moves(
        &pysol,
        &q,
        &["draw", "r0-f0", "r0-t0", "w-t3", "t0-t1x2", "t2-t0"],
    );
}

#[test]
fn canfield_pysol_fills_spaces_from_the_tableau_once_the_reserve_is_empty() {
    let [(canfield, p), (pysol, q)] = both("canfield", "canfield-pysol", |l| {
        l.base("5")
            .reserve(&[""])
            .tableau(&["", "9D 8C", "5H", "KS"])
            .waste("QH")
    });
    assert_moves(&canfield, &p, &["draw", "w-t0", "w-t3", "t2-f2"]);
    // 8C alone into the space; never a whole pile (that changes nothing).
    assert_moves(&pysol, &q, &["draw", "w-t0", "w-t3", "t2-f2", "t1-t0"]);
}

#[test]
fn canfield_any_run_moves_runs_in_rank_order_from_the_base() {
    let [(canfield, p), (any_run, q)] = both("canfield", "canfield-any-run", |l| {
        l.base("5")
            .foundations(["5C", "", "", ""])
            .reserve(&["9H 6C"])
            .tableau(&["8S 7H", "9D", "TD 9S 8H", "AH"])
            .waste("KC")
    });
    // Here both games allow the same moves.
    assert_moves(
        &canfield,
        &p,
        &["draw", "r0-f0", "r0-t0", "w-t3", "t0-t1x2"],
    );
    // The order runs 5 6 … K A 2 3 4: KC still goes on AH, but nothing on a 5.
    assert_moves(&any_run, &q, &["draw", "r0-f0", "r0-t0", "w-t3", "t0-t1x2"]);

    let [(canfield, p), (any_run, q)] = both("canfield", "canfield-any-run", |l| {
        l.base("5")
            .reserve(&["9H 6C"])
            .tableau(&["JC TD 9S", "JS", "5H", "4C"])
            .waste("KC")
    });
    // TD 9S, part of a pile, on JS.
    assert!(!is_legal(&canfield, &p, "t0-t1x2"));
    assert!(is_legal(&any_run, &q, "t0-t1x2"));
    // 4C on 5H in Canfield; with the order from the base, 5 is the lowest rank and nothing goes on it.
    assert!(is_legal(&canfield, &p, "t3-t2"));
    assert!(!is_legal(&any_run, &q, "t3-t2"));
}

#[test]
fn canfield_any_run_fills_spaces_with_any_card_or_run_once_the_reserve_is_empty() {
    let (rules, p) = layout("canfield-any-run")
        .base("5")
        .reserve(&[""])
        .tableau(&["", "JC TD 9S", "QH", "4C"])
        .waste("KC")
        .both();
    assert_moves(
        &rules,
        &p,
        &[
            "draw", "w-t0", "t1-t0", "t1-t0x2", // 9S, or TD 9S, into the space
            "t1-t2x3", // the whole pile on QH
        ],
    );
}

#[test]
fn chameleon_pysol_moves_the_top_card_or_the_whole_pile() {
    let [(chameleon, p), (pysol, q)] = both("chameleon", "chameleon-pysol", |l| {
        l.base("9")
            .reserve(&["2C 5D"])
            .tableau(&["6H 5S 4D", "6C", "7D"])
            .waste("KH")
    });
    assert_moves(
        &chameleon,
        &p,
        &["draw", "r0-t1", "t0-t1x2", "t0-t2x3", "t1-t2"],
    );
    // Not the run 5S 4D from the middle.
    assert_moves(&pysol, &q, &["draw", "r0-t1", "t0-t2x3", "t1-t2"]);
}

#[test]
fn fortunes_favor_no_redeal_has_none() {
    for (id, redeals) in [
        ("fortunes-favor", Some(1)),
        ("fortunes-favor-no-redeal", Some(0)),
    ] {
        let rules = rules(id);
        let p = Position::deal(&rules, 7).expect("deal");
        assert_eq!(p.redeals_left(), redeals, "{id}");
    }
}

#[test]
fn fortunes_favor_no_redeal_stops_when_the_stock_is_empty() {
    let lay = |id: &str| {
        layout(id)
            .foundations(["3C", "AS", "AH", "AD"])
            .tableau(&[
                "4C", "9S", "8S", "8H", "5D", "6D", "TH", "JC", "7C", "QH", "2H", "3D",
            ])
            .rest_to_waste()
    };
    let (ff, p) = lay("fortunes-favor").both();
    let (no_redeal, mut q) = lay("fortunes-favor-no-redeal").both();
    assert!(is_legal(&ff, &p, "redeal"));
    assert!(!is_legal(&no_redeal, &q, "redeal"));
    assert!(refused(&no_redeal, &mut q, "redeal").contains("no redeal"));
}

#[test]
fn florentine_pysol_has_no_centre_rule() {
    let [(florentine, p), (pysol, q)] = both("florentine", "florentine-pysol", |l| {
        l.base("J")
            .tableau(&["6H", "8S", "7C", "", "4C 3H"])
            .waste("9D")
    });
    assert!(!is_legal(&florentine, &p, "t0-t2"));
    assert!(is_legal(&pysol, &q, "t0-t2"));
    // Without a centre rule the piles are alike, so a one-card pile into a space changes nothing.
    assert!(is_legal(&florentine, &p, "t2-t3"));
    assert!(!is_legal(&pysol, &q, "t2-t3"));
    assert_eq!(florentine.stock.redeals, pysol.stock.redeals);
}

#[test]
fn gate_pysol_moves_any_run() {
    let [(gate, p), (pysol, q)] = both("gate", "gate-pysol", |l| {
        l.reserve(&["JD 9H", "2D JC 6H"])
            .tableau(&["7C", "TS", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
            .waste("KD")
    });
    // 8D 7S, part of a pile, on 9C.
    assert!(!is_legal(&gate, &p, "t2-t6x2"));
    assert!(is_legal(&pysol, &q, "t2-t6x2"));
}

#[test]
fn gate_pysol_fills_a_space_at_once_from_the_fuller_post() {
    let (rules, mut p) = layout("gate-pysol")
        .reserve(&["JD 9H", "2D JC 6H"])
        .tableau(&["7C", "TS", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
        .waste("KD")
        .both();
    play(&rules, &mut p, "t3-f3");
    assert_eq!(pile(&p, Pile::Tableau(3)), "6H");
    assert_eq!(pile(&p, Pile::Reserve(1)), "2D JC");
    // A tie: the left post.
    play(&rules, &mut p, "t3-t0");
    assert_eq!(
        tableau(&p),
        "7C 6H | TS | 9S 8D 7S | 9H | KH | QC | 9C | TD"
    );
    assert_eq!(pile(&p, Pile::Reserve(0)), "JD");
    // Then the waste once both posts are empty.
    let (rules, mut p) = layout("gate-pysol")
        .reserve(&["", ""])
        .tableau(&["7C", "TS", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
        .waste("3C KD")
        .both();
    play(&rules, &mut p, "t3-f3");
    assert_eq!(pile(&p, Pile::Tableau(3)), "KD");
    assert_eq!(p.top(Pile::Waste).map(|c| c.to_string()), Some("3C".into()));
    // Gate itself leaves the space empty.
    let (rules, mut p) = layout("gate")
        .reserve(&["JD 9H", "2D JC 6H"])
        .tableau(&["7C", "TS", "9S 8D 7S", "AD", "KH", "QC", "9C", "TD"])
        .both();
    play(&rules, &mut p, "t3-f3");
    assert_eq!(p.len(Pile::Tableau(3)), 0);
}

#[test]
fn storehouse_pysol_lets_the_top_card_alone_move() {
    let [(storehouse, mut p), (pysol, mut q)] = both("storehouse", "storehouse-pysol", |l| {
        l.foundations(["4C", "2S", "2H", "2D"])
            .reserve(&["9H 5C"])
            .tableau(&["AH", "AS KS", "QS", "KH"])
            .waste("3D")
    });
    // Building down in suit, the top card alone can only go where the card under it is, so the two games
    // allow the same moves; what differs is why a top card may not leave its pile.
    assert_eq!(common::moves(&storehouse, &p), common::moves(&pysol, &q));
    let reason = refused(&storehouse, &mut p, "t1-t3");
    assert!(reason.contains("whole"), "{reason}");
    let reason = refused(&pysol, &mut q, "t1-t3");
    assert!(reason.contains("does not go on"), "{reason}");
}

#[test]
fn rainbow_builds_regardless_of_suit_and_draws_one_without_redeal() {
    let [(canfield, p), (rainbow, q)] = both("canfield", "rainbow", |l| {
        l.base("5")
            .reserve(&["9H 6C"])
            .tableau(&["8S 7H", "9D", "8D", "AH"])
            .stock("2C 3C 4C")
    });
    // 8D on 9D: any suit.
    assert!(!is_legal(&canfield, &p, "t2-t1"));
    assert!(is_legal(&rainbow, &q, "t2-t1"));
    assert_eq!(p.stock_move(&canfield).map(|m| m.count), Some(3));
    assert_eq!(q.stock_move(&rainbow).map(|m| m.count), Some(1));
    let [(canfield, p), (rainbow, q)] = both("canfield", "rainbow", |l| {
        l.base("5")
            .reserve(&["9H 6C"])
            .tableau(&["8S 7H", "9D", "8D", "AH"])
            .rest_to_waste()
    });
    assert!(is_legal(&canfield, &p, "redeal"));
    assert_eq!(q.redeals_left(), Some(0));
    assert!(!is_legal(&rainbow, &q, "redeal"));
}

#[test]
fn superior_canfield_fills_spaces_from_the_reserve_only_at_will() {
    let [(canfield, mut p), (superior, mut q)] = both("canfield", "superior-canfield", |l| {
        l.base("5")
            .foundations(["5C", "", "", ""])
            .reserve(&["9H 6C"])
            .tableau(&["8S 7H", "9D", "7D 6S", "AH"])
            .waste("KC")
    });
    play(&canfield, &mut p, "t0-t1x2");
    play(&superior, &mut q, "t0-t1x2");
    assert_eq!(tableau(&p), "6C | 9D 8S 7H | 7D 6S | AH");
    assert_eq!(tableau(&q), " | 9D 8S 7H | 7D 6S | AH");
    assert_eq!(pile(&q, Pile::Reserve(0)), "9H 6C");
    // The reserve fills it when the player likes; the waste and the tableau do not.
    assert_moves(&superior, &q, &["draw", "r0-f0", "r0-t0", "r0-t1", "w-t3"]);
    assert!(refused(&superior, &mut q, "w-t0").contains("only from the reserve"));
}
