//! The one JSON form of a position (documented in `docs/position-json.md`): piles bottom to top, cards as `QH`.
//!
//! Reading a position checks it against its rule set, so an impossible position is refused with what is wrong
//! rather than played on.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Rank, Suit};
use crate::position::{Pile, Position};
use crate::rules::{Redeals, RuleSet};

/// A position as JSON: the keys every client relies on. Unknown keys are ignored when reading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionJson {
    /// The game's id.
    pub game: String,
    /// The four foundations in suit order ♣ ♠ ♥ ♦, bottom to top.
    pub foundations: Vec<Vec<Card>>,
    /// The tableau piles, bottom to top.
    pub tableau: Vec<Vec<Card>>,
    /// The reserve piles, bottom to top (`[]` when the game has none).
    pub reserve: Vec<Vec<Card>>,
    /// The stock, bottom to top: the last card is the next one turned.
    pub stock: Vec<Card>,
    /// The waste, bottom to top: the last card is the one available.
    pub waste: Vec<Card>,
    /// The base rank of the foundations, `null` while it is not fixed.
    #[serde(deserialize_with = "Option::deserialize")]
    pub base_rank: Option<Rank>,
    /// Redeals left, `null` when unlimited.
    #[serde(deserialize_with = "Option::deserialize")]
    pub redeals_left: Option<u8>,
    /// The choice row, left to right, while the base card is still to be chosen (Selective Canfield).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choice: Vec<Card>,
}

/// A position could not be read, or is not one the rules could reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad position: {0}")]
pub struct PositionError(pub String);

impl PositionJson {
    /// Reads the JSON text of a position (not yet checked against its rules).
    pub fn parse(text: &str) -> Result<PositionJson, PositionError> {
        serde_json::from_str(text).map_err(|e| PositionError(e.to_string()))
    }
}

impl Position {
    /// The position's JSON form under these rules.
    pub fn to_json(&self, rules: &RuleSet) -> PositionJson {
        let piles = |make: fn(u8) -> Pile, n: usize| -> Vec<Vec<Card>> {
            (0..n as u8).map(|i| self.cards(make(i))).collect()
        };
        PositionJson {
            game: rules.id.clone(),
            foundations: piles(Pile::Foundation, 4),
            tableau: piles(Pile::Tableau, self.tableau_piles()),
            reserve: piles(Pile::Reserve, self.reserve_piles()),
            stock: self.cards(Pile::Stock),
            waste: self.cards(Pile::Waste),
            base_rank: self.base_rank(),
            redeals_left: self.redeals_left(),
            choice: if self.choice_pending() {
                piles(Pile::Choice, self.choice_piles())
                    .into_iter()
                    .flatten()
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Reads a position under these rules, refusing anything the rules could not have produced in the
    /// layout's shape: wrong pile counts, missing or repeated cards, foundations out of order, tableau piles
    /// that are not runs, too many redeals.
    pub fn from_json(rules: &RuleSet, json: &PositionJson) -> Result<Position, PositionError> {
        let fail = |message: String| Err(PositionError(message));
        if json.game != rules.id {
            return fail(format!(
                "the position is of game `{}`, but the rules are `{}`",
                json.game, rules.id
            ));
        }
        let expect_piles = |what: &str, got: usize, want: usize| {
            if got == want {
                Ok(())
            } else {
                Err(PositionError(format!(
                    "`{what}` has {got} piles; {} has {want}",
                    rules.name
                )))
            }
        };
        expect_piles("foundations", json.foundations.len(), 4)?;
        expect_piles("tableau", json.tableau.len(), rules.tableau.piles as usize)?;
        expect_piles("reserve", json.reserve.len(), rules.reserve.piles.len())?;
        let ranks = rules.pack.ranks;
        let mut seen = [false; 52];
        let all_cards = json
            .foundations
            .iter()
            .chain(&json.tableau)
            .chain(&json.reserve)
            .flatten()
            .chain(&json.stock)
            .chain(&json.waste)
            .chain(&json.choice);
        for &card in all_cards {
            if card.rank().index() >= ranks {
                return fail(format!("{card} is not in a pack of {ranks} ranks"));
            }
            if std::mem::replace(&mut seen[card.index() as usize], true) {
                return fail(format!("{card} appears twice"));
            }
        }
        let count = seen.iter().filter(|&&s| s).count();
        if count != rules.pack_size() {
            let missing: Vec<String> = Card::pack()
                .filter(|c| c.rank().index() < ranks && !seen[c.index() as usize])
                .map(|c| c.to_string())
                .collect();
            return fail(format!(
                "the position holds {count} cards, not {}; missing: {}",
                rules.pack_size(),
                missing.join(" ")
            ));
        }
        let mut position = Position::empty(
            rules.reserve.piles.len(),
            rules.tableau.piles as usize,
            rules.choice_cards(),
            ranks,
        );
        check_base(rules, json)?;
        position.set_base_rank(json.base_rank);
        for (suit, pile) in json.foundations.iter().enumerate() {
            for (i, &card) in pile.iter().enumerate() {
                let want = json
                    .base_rank
                    .and_then(|base| {
                        Rank::new(((base.index() as usize + i) % ranks as usize) as u8)
                    })
                    .map(|rank| Card::new(Suit::from_index(suit), rank));
                if want != Some(card) {
                    return fail(format!(
                        "the {} foundation is out of order: {card} where {} belongs",
                        Suit::from_index(suit).symbol(),
                        want.map_or("nothing".to_string(), |c| c.to_string())
                    ));
                }
            }
            position.set_foundation_len(suit, pile.len() as u8);
        }
        match (rules.stock.redeals, json.redeals_left) {
            (Redeals::Unlimited, None) => {}
            (Redeals::Limited(most), Some(left)) if left <= most => {}
            (Redeals::Unlimited, Some(_)) => {
                return fail("`redeals_left` must be null: redeals are unlimited".into())
            }
            (Redeals::Limited(most), _) => {
                return fail(format!("`redeals_left` must be a number from 0 to {most}"))
            }
        }
        position.set_redeals_left(json.redeals_left);
        for &card in json.stock.iter() {
            position.push(Pile::Stock, card);
        }
        for &card in json.waste.iter() {
            position.push(Pile::Waste, card);
        }
        for (i, pile) in json.reserve.iter().enumerate() {
            for &card in pile {
                position.push(Pile::Reserve(i as u8), card);
            }
        }
        for (i, pile) in json.tableau.iter().enumerate() {
            if pile.len() > rules.capacity(i) {
                return fail(format!(
                    "tableau pile {i} holds {} cards; it may hold {}",
                    pile.len(),
                    rules.capacity(i)
                ));
            }
            for &card in pile {
                position.push(Pile::Tableau(i as u8), card);
            }
        }
        for (i, &card) in json.choice.iter().enumerate() {
            position.push(Pile::Choice(i as u8), card);
        }
        for i in 0..rules.tableau.piles {
            let pile = Pile::Tableau(i);
            let len = position.len(pile);
            if position.run_length(rules, pile) < len {
                return fail(format!(
                    "tableau pile {i} is not a run: its cards do not build down as the rules say"
                ));
            }
        }
        Ok(position)
    }
}

/// Checks the base rank and the choice row against the rules.
fn check_base(rules: &RuleSet, json: &PositionJson) -> Result<(), PositionError> {
    let fail = |message: String| Err(PositionError(message));
    let choice = rules.choice_cards();
    if !json.choice.is_empty() {
        if json.choice.len() != choice {
            return fail(format!(
                "the choice row holds {} cards; {} deals {choice}",
                json.choice.len(),
                rules.name
            ));
        }
        let laid_out = json
            .foundations
            .iter()
            .chain(&json.tableau)
            .flatten()
            .count();
        if json.base_rank.is_some() || laid_out > 0 {
            return fail(
                "while the choice row is out, the foundations and the tableau are empty and the base rank is null"
                    .into(),
            );
        }
        return Ok(());
    }
    match (rules.fixed_base(), json.base_rank) {
        (Some(fixed), Some(base)) if fixed == base => Ok(()),
        (Some(fixed), _) => fail(format!("`base_rank` must be \"{fixed}\" in {}", rules.name)),
        (None, Some(_)) => Ok(()),
        (None, None) => {
            fail("`base_rank` is null, but the base card has been dealt or chosen".into())
        }
    }
}
