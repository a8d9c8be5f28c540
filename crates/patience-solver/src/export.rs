//! A position in another solver's deal format: Solvitaire's JSON (Blake & Gent), so that its answers can be
//! compared with ours deal by deal.
//!
//! The format: one JSON object with the keys `"tableau piles"` (array of piles), `"foundations"` (array of
//! cards), `"reserve"` (one pile), `"stock"` and `"waste"` (only when it holds cards). Every pile is listed
//! bottom to top; the stock's last card is the next one turned. Cards are written rank then suit, the ten as
//! `10`: `"10D"`, `"AS"`. The foundations list every card on them, each foundation bottom to top in suit order
//! ♣ ♠ ♥ ♦, so that for a game whose base rank comes from the deal the first card listed is the starter.
//!
//! ```
//! use patience_core::{builtin, Position};
//! use patience_solver::export;
//!
//! let rules = builtin::rules("canfield").unwrap();
//! let position = Position::deal(&rules, 1).unwrap();
//! let deal = export::solvitaire(&rules, &position).unwrap();
//! assert_eq!(deal["foundations"], serde_json::json!(["JD"]));
//! ```

use patience_core::rules::Base;
use patience_core::{Card, Pile, Position, RuleSet};
use serde_json::{json, Map, Value};

/// What Solvitaire's format cannot say about a position, or a position that is not a whole pack.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The game has more than one reserve pile (Gate's posts): the format has one.
    #[error("{game} has {piles} reserve piles; Solvitaire's format has one reserve pile at most")]
    ReservePiles {
        /// The game's name.
        game: String,
        /// How many reserve piles it has.
        piles: usize,
    },
    /// The base card is still to be chosen from the choice row: the format has no choice row.
    #[error("the base card is still to be chosen from the choice row, which Solvitaire's format cannot express: make the choice first")]
    ChoicePending,
    /// The base rank comes from the deal but no foundation card shows it, so Solvitaire could not read it.
    #[error(
        "the foundations are empty, so Solvitaire could not read the base rank ({base}) from them"
    )]
    BaseNotShown {
        /// The base rank, as a letter.
        base: String,
    },
    /// The position does not hold the 52 cards of the pack once each.
    #[error("the position holds {distinct} distinct cards of {total}, not the 52 cards of the pack once each: Solvitaire's format needs the whole pack")]
    NotWholePack {
        /// Distinct cards found.
        distinct: usize,
        /// Cards found in all.
        total: usize,
    },
}

/// The position as a Solvitaire deal (a JSON object), or why the format cannot express it.
pub fn solvitaire(rules: &RuleSet, position: &Position) -> Result<Value, ExportError> {
    if position.reserve_piles() > 1 {
        return Err(ExportError::ReservePiles {
            game: rules.name.clone(),
            piles: position.reserve_piles(),
        });
    }
    if position.choice_pending() {
        return Err(ExportError::ChoicePending);
    }
    let foundations: Vec<Card> = (0..4u8)
        .flat_map(|suit| position.cards(Pile::Foundation(suit)))
        .collect();
    if foundations.is_empty()
        && rules.foundations.base != Base::Chosen
        && rules.fixed_base().is_none()
    {
        if let Some(base) = position.base_rank() {
            return Err(ExportError::BaseNotShown {
                base: base.letter().to_string(),
            });
        }
    }
    let tableau: Vec<Vec<Card>> = (0..position.tableau_piles() as u8)
        .map(|i| position.cards(Pile::Tableau(i)))
        .collect();
    let reserve = (position.reserve_piles() == 1).then(|| position.cards(Pile::Reserve(0)));
    let stock = position.cards(Pile::Stock);
    let waste = position.cards(Pile::Waste);

    let every = foundations
        .iter()
        .chain(tableau.iter().flatten())
        .chain(reserve.iter().flatten())
        .chain(&stock)
        .chain(&waste);
    check_whole_pack(every)?;

    let mut deal = Map::new();
    deal.insert("foundations".into(), cards(&foundations));
    deal.insert(
        "tableau piles".into(),
        Value::Array(tableau.iter().map(|pile| cards(pile)).collect()),
    );
    if let Some(reserve) = &reserve {
        deal.insert("reserve".into(), cards(reserve));
    }
    deal.insert("stock".into(), cards(&stock));
    if !waste.is_empty() {
        deal.insert("waste".into(), cards(&waste));
    }
    Ok(Value::Object(deal))
}

/// The position as a Solvitaire deal, as JSON text on one line.
pub fn solvitaire_string(rules: &RuleSet, position: &Position) -> Result<String, ExportError> {
    solvitaire(rules, position).map(|deal| deal.to_string())
}

/// A card as Solvitaire writes it: rank (`10` for the ten) then suit, `10D`, `AS`.
pub fn card_name(card: Card) -> String {
    let rank = match card.rank().letter() {
        'T' => "10".to_string(),
        letter => letter.to_string(),
    };
    format!("{rank}{}", card.suit().letter())
}

fn cards(pile: &[Card]) -> Value {
    json!(pile.iter().map(|&c| card_name(c)).collect::<Vec<_>>())
}

/// Checks that the cards are the 52 of the pack, each once.
fn check_whole_pack<'a>(cards: impl Iterator<Item = &'a Card>) -> Result<(), ExportError> {
    let mut seen = [false; 52];
    let mut total = 0;
    for card in cards {
        total += 1;
        seen[card.index() as usize] = true;
    }
    let distinct = seen.iter().filter(|&&s| s).count();
    if distinct == 52 && total == 52 {
        Ok(())
    } else {
        Err(ExportError::NotWholePack { distinct, total })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;

    fn deal(game: &str, number: u64) -> (RuleSet, Position) {
        let rules = builtin::rules(game).expect("a built-in game");
        let position = Position::deal(&rules, number).expect("a deal");
        (rules, position)
    }

    fn names(value: &Value) -> String {
        value
            .as_array()
            .expect("an array")
            .iter()
            .map(|c| c.as_str().expect("a card"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn canfield_1_is_laid_out_as_deals_md_says() {
        let (rules, position) = deal("canfield", 1);
        let value = solvitaire(&rules, &position).expect("exportable");
        assert_eq!(names(&value["foundations"]), "JD");
        assert_eq!(
            names(&value["reserve"]),
            "2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC"
        );
        let tableau: Vec<String> = value["tableau piles"]
            .as_array()
            .expect("piles")
            .iter()
            .map(names)
            .collect();
        assert_eq!(tableau, ["KS", "2S", "3H", "KH"]);
        assert_eq!(names(&value["waste"]), "9D QD JS");
        assert_eq!(
            names(&value["stock"]),
            "6H 2H 9C 6S 10C 8C 3D 6C QS 8D 8S 6D 7D JH 2C 8H 10H 4S 10D 3S 7S 4D AC 4H QH 10S 5C 4C 3C AH AS"
        );
        let keys: Vec<&String> = value.as_object().expect("an object").keys().collect();
        assert_eq!(keys.len(), 5);
    }

    #[test]
    fn fortunes_favor_lists_the_four_aces_and_no_reserve() {
        let (rules, position) = deal("fortunes-favor", 1);
        let value = solvitaire(&rules, &position).expect("exportable");
        assert_eq!(names(&value["foundations"]), "AC AS AH AD");
        assert!(value.get("reserve").is_none());
        assert_eq!(value["tableau piles"].as_array().map(Vec::len), Some(12));
    }

    #[test]
    fn every_foundation_card_is_listed_bottom_to_top() {
        let (rules, mut position) = deal("fortunes-favor", 1);
        // Play foundation moves until some foundation holds two cards or more.
        for _ in 0..200 {
            if (0..4).any(|s| position.foundation_len(s) > 1) {
                break;
            }
            let moves = position.legal_moves(&rules);
            let Some(&mv) = moves
                .iter()
                .find(|m| matches!(m.to, Pile::Foundation(_)))
                .or(moves.iter().find(|m| m.is_draw()))
            else {
                break;
            };
            position.apply(&rules, mv);
        }
        let value = solvitaire(&rules, &position).expect("exportable");
        let listed = value["foundations"].as_array().expect("cards").len();
        assert_eq!(listed, position.foundation_cards());
        assert!(listed > 4, "some foundation grew");
    }

    #[test]
    fn two_reserve_piles_are_refused() {
        let (rules, position) = deal("gate", 1);
        let error = solvitaire(&rules, &position).expect_err("Gate has two posts");
        assert!(error.to_string().contains("2 reserve piles"), "{error}");
    }

    #[test]
    fn a_pending_choice_is_refused() {
        let (rules, position) = deal("selective-canfield", 1);
        assert_eq!(
            solvitaire(&rules, &position),
            Err(ExportError::ChoicePending)
        );
    }

    #[test]
    fn the_ten_is_written_10() {
        let card: Card = "TD".parse().expect("a card");
        assert_eq!(card_name(card), "10D");
        let card: Card = "AS".parse().expect("a card");
        assert_eq!(card_name(card), "AS");
    }

    #[test]
    fn a_pack_short_of_cards_is_refused() {
        let card: Card = "AS".parse().expect("a card");
        let cards = [card; 52];
        assert_eq!(
            check_whole_pack(cards.iter()),
            Err(ExportError::NotWholePack {
                distinct: 1,
                total: 52
            })
        );
    }
}
