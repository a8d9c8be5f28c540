//! Deals lay out PySolFC's game numbers exactly, pile by pile (the vectors of `DEALS.md`).

use patience_core::{builtin, Card, Pile, Position, RuleSet};

fn rules(id: &str) -> RuleSet {
    builtin::rules(id).unwrap_or_else(|| panic!("no built-in game {id}"))
}

fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn pile(position: &Position, pile: Pile) -> String {
    names(&position.cards(pile))
}

fn tableau(position: &Position) -> String {
    (0..position.tableau_piles() as u8)
        .map(|i| pile(position, Pile::Tableau(i)))
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn canfield_deal_1() {
    let rules = rules("canfield");
    let p = Position::deal(&rules, 1).expect("deal");
    assert_eq!(pile(&p, Pile::Foundation(3)), "JD");
    for suit in 0..3 {
        assert_eq!(p.len(Pile::Foundation(suit)), 0);
    }
    assert_eq!(
        pile(&p, Pile::Reserve(0)),
        "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC"
    );
    assert_eq!(tableau(&p), "KS | 2S | 3H | KH");
    assert_eq!(pile(&p, Pile::Waste), "9D QD JS");
    assert_eq!(
        pile(&p, Pile::Stock),
        "6H 2H 9C 6S TC 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H TH 4S TD 3S 7S 4D AC 4H QH TS 5C 4C 3C AH AS"
    );
    assert_eq!(p.base_rank().map(|r| r.letter()), Some('J'));
    assert_eq!(p.redeals_left(), None);
}

#[test]
fn canfield_deal_2() {
    let rules = rules("canfield");
    let p = Position::deal(&rules, 2).expect("deal");
    assert_eq!(pile(&p, Pile::Foundation(3)), "QD");
    assert_eq!(
        pile(&p, Pile::Reserve(0)),
        "QC KC 3C 4C 2C KD 5C 4D JD JS 6H QS 6D"
    );
    assert_eq!(tableau(&p), "JC | TD | 9C | 2D");
    assert_eq!(pile(&p, Pile::Waste), "8C 6C 8S");
}

#[test]
fn four_seasons_deal_1() {
    for id in ["four-seasons", "florentine"] {
        let rules = rules(id);
        let p = Position::deal(&rules, 1).expect("deal");
        assert_eq!(pile(&p, Pile::Foundation(3)), "JD");
        assert_eq!(tableau(&p), "2D | 9H | JC | 5D | 7H");
        assert_eq!(pile(&p, Pile::Waste), "7C");
        assert_eq!(p.len(Pile::Stock), 52 - 7);
    }
}

#[test]
fn gate_deal_1() {
    let rules = rules("gate");
    let p = Position::deal(&rules, 1).expect("deal");
    assert_eq!(pile(&p, Pile::Reserve(0)), "JD 9H 5D 7C KD");
    assert_eq!(pile(&p, Pile::Reserve(1)), "2D JC 7H 5H KC");
    assert_eq!(tableau(&p), "9S | 5S | AD | QC | KH | 3H | 2S | KS");
    assert_eq!(pile(&p, Pile::Waste), "9D");
    assert_eq!(p.foundation_cards(), 0);
}

#[test]
fn chameleon_deals_twelve_and_three() {
    let rules = rules("chameleon");
    let p = Position::deal(&rules, 1).expect("deal");
    assert_eq!(pile(&p, Pile::Foundation(3)), "JD");
    assert_eq!(
        pile(&p, Pile::Reserve(0)),
        "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD"
    );
    // Right to left: the first tableau card dealt goes to the last pile.
    assert_eq!(tableau(&p), "3H | KH | QC");
    assert_eq!(pile(&p, Pile::Waste), "2S");
}

#[test]
fn simplicity_deals_twelve_left_to_right() {
    let rules = rules("simplicity");
    let p = Position::deal(&rules, 1).expect("deal");
    assert_eq!(pile(&p, Pile::Foundation(3)), "JD");
    assert_eq!(
        tableau(&p),
        "2D | 9H | JC | 5D | 7H | 7C | 5H | KD | KC | 9S | 5S | AD"
    );
    assert_eq!(pile(&p, Pile::Waste), "QC");
}

#[test]
fn fortunes_favor_and_storehouse_take_their_base_cards_out_first() {
    let rules = rules("fortunes-favor");
    let p = Position::deal(&rules, 1).expect("deal");
    for suit in 0..4 {
        assert_eq!(p.len(Pile::Foundation(suit)), 1);
    }
    // Deal 1 without its aces, in deal order.
    assert_eq!(
        tableau(&p),
        "JD | 2D | 9H | JC | 5D | 7H | 7C | 5H | KD | KC | 9S | 5S"
    );
    assert_eq!(pile(&p, Pile::Waste), "QC");

    let rules = self::rules("storehouse");
    let p = Position::deal(&rules, 1).expect("deal");
    assert_eq!(pile(&p, Pile::Foundation(0)), "2C");
    assert_eq!(p.base_rank().map(|r| r.letter()), Some('2'));
    assert_eq!(
        pile(&p, Pile::Reserve(0)),
        "JD 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC"
    );
    assert_eq!(tableau(&p), "9D | KS | 3H | KH");
    assert_eq!(p.redeals_left(), Some(2));
}

#[test]
fn solo_canfield_takes_the_first_ace_out() {
    let rules = rules("canfield-solo");
    let p = Position::deal(&rules, 1).expect("deal");
    // AD is the first ace in deal 1's order.
    assert_eq!(pile(&p, Pile::Foundation(3)), "AD");
    assert_eq!(
        pile(&p, Pile::Reserve(0)),
        "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S QC"
    );
    assert_eq!(tableau(&p), "KS | 2S | 3H | KH");
    assert_eq!(pile(&p, Pile::Waste), "9D QD JS");
}

#[test]
fn selective_canfield_deals_a_row_of_five_to_choose_from() {
    let rules = rules("selective-canfield");
    let p = Position::deal(&rules, 1).expect("deal");
    assert!(p.choice_pending());
    assert_eq!(
        pile(&p, Pile::Reserve(0)),
        "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD"
    );
    let row: Vec<String> = (0..5).map(|i| pile(&p, Pile::Choice(i))).collect();
    assert_eq!(row.join(" "), "QC KH 3H 2S KS");
    assert_eq!(tableau(&p), " |  |  | ");
    assert_eq!(pile(&p, Pile::Waste), "9D QD JS");
    assert_eq!(p.base_rank(), None);
}

#[test]
fn deal_zero_is_refused() {
    assert!(Position::deal(&rules("canfield"), 0).is_err());
}
