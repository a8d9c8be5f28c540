//! Helpers shared by the integration tests: positions written as strings of cards, legal moves as sorted
//! notation strings.

#![allow(dead_code)]

use patience_core::json::PositionJson;
use patience_core::{builtin, Card, Move, Pile, Position, Rank, RuleSet, Suit};

/// A built-in game or variant by id.
pub fn rules(id: &str) -> RuleSet {
    builtin::rules(id).unwrap_or_else(|| panic!("no built-in game {id}"))
}

/// Cards written `"KS QH 2C"`, bottom to top.
pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| c.parse().unwrap_or_else(|_| panic!("bad card {c}")))
        .collect()
}

/// The cards of a pile written as a string, bottom to top.
pub fn pile(position: &Position, pile: Pile) -> String {
    position
        .cards(pile)
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every tableau pile, `|` between piles.
pub fn tableau(position: &Position) -> String {
    (0..position.tableau_piles() as u8)
        .map(|i| pile(position, Pile::Tableau(i)))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Where the cards not placed by a test go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rest {
    /// To the bottom of the stock, below the cards given for it.
    Stock,
    /// To the bottom of the waste, below the cards given for it.
    Waste,
    /// Nowhere: every card must be placed.
    Nowhere,
}

/// A position under construction. Cards not placed anywhere go to the bottom of the stock (below the cards
/// given for the stock), unless `rest_to_waste` or `exact` is asked for.
#[derive(Debug, Clone)]
pub struct Layout {
    rules: RuleSet,
    base: Option<Rank>,
    foundations: [String; 4],
    tableau: Vec<String>,
    reserve: Vec<String>,
    stock: String,
    waste: String,
    choice: String,
    redeals: Option<Option<u8>>,
    rest: Rest,
}

/// Starts a position of game `id`.
pub fn layout(id: &str) -> Layout {
    let rules = rules(id);
    Layout {
        base: rules.fixed_base(),
        foundations: Default::default(),
        tableau: vec![String::new(); rules.tableau.piles as usize],
        reserve: vec![String::new(); rules.reserve.piles.len()],
        stock: String::new(),
        waste: String::new(),
        choice: String::new(),
        redeals: None,
        rest: Rest::Stock,
        rules,
    }
}

impl Layout {
    /// The base rank, as its letter.
    pub fn base(mut self, rank: &str) -> Layout {
        self.base = Some(Rank::parse(rank).expect("a rank"));
        self
    }

    /// The foundations, each given by its top card ("" for empty): every card from the base rank up to it
    /// is on it.
    pub fn foundations(mut self, tops: [&str; 4]) -> Layout {
        self.foundations = tops.map(str::to_string);
        self
    }

    /// The tableau piles, each bottom to top; piles not given are empty.
    pub fn tableau(mut self, piles: &[&str]) -> Layout {
        for (i, p) in piles.iter().enumerate() {
            self.tableau[i] = p.to_string();
        }
        self
    }

    /// The reserve piles, each bottom to top.
    pub fn reserve(mut self, piles: &[&str]) -> Layout {
        for (i, p) in piles.iter().enumerate() {
            self.reserve[i] = p.to_string();
        }
        self
    }

    /// The stock, bottom to top (the last card is turned next).
    pub fn stock(mut self, text: &str) -> Layout {
        self.stock = text.to_string();
        self
    }

    /// The waste, bottom to top.
    pub fn waste(mut self, text: &str) -> Layout {
        self.waste = text.to_string();
        self
    }

    /// The choice row, left to right (the base is then not fixed).
    pub fn choice(mut self, text: &str) -> Layout {
        self.choice = text.to_string();
        self.base = None;
        self
    }

    /// Redeals left (`None` for unlimited); the rules' starting number if not given.
    pub fn redeals(mut self, left: Option<u8>) -> Layout {
        self.redeals = Some(left);
        self
    }

    /// Every card must be placed: nothing goes to the stock unasked.
    pub fn exact(mut self) -> Layout {
        self.rest = Rest::Nowhere;
        self
    }

    /// Cards not placed go to the bottom of the waste, so the stock holds only the cards given for it.
    pub fn rest_to_waste(mut self) -> Layout {
        self.rest = Rest::Waste;
        self
    }

    /// The JSON form of the position.
    pub fn json(&self) -> PositionJson {
        let foundations: Vec<Vec<Card>> = (0..4)
            .map(|suit| {
                let top = self.foundations[suit].trim();
                if top.is_empty() {
                    return Vec::new();
                }
                let top: Card = top.parse().expect("a card");
                let base = self.base.expect("a base rank for a foundation");
                let mut pile = Vec::new();
                for i in 0..13u8 {
                    let rank = Rank::new((base.index() + i) % 13).expect("rank");
                    let card = Card::new(Suit::from_index(suit), rank);
                    pile.push(card);
                    if card == top {
                        return pile;
                    }
                }
                panic!("{top} is not on foundation {suit}")
            })
            .collect();
        let tableau: Vec<Vec<Card>> = self.tableau.iter().map(|p| cards(p)).collect();
        let reserve: Vec<Vec<Card>> = self.reserve.iter().map(|p| cards(p)).collect();
        let mut stock = cards(&self.stock);
        let mut waste = cards(&self.waste);
        let choice = cards(&self.choice);
        if self.rest != Rest::Nowhere {
            let placed: Vec<Card> = foundations
                .iter()
                .chain(&tableau)
                .chain(&reserve)
                .flatten()
                .chain(&stock)
                .chain(&waste)
                .chain(&choice)
                .copied()
                .collect();
            let mut rest: Vec<Card> = Card::pack()
                .filter(|c| c.rank().index() < self.rules.pack.ranks && !placed.contains(c))
                .collect();
            if self.rest == Rest::Stock {
                rest.append(&mut stock);
                stock = rest;
            } else {
                rest.append(&mut waste);
                waste = rest;
            }
        }
        let default_redeals = Position::deal(&self.rules, 1)
            .expect("deal 1")
            .redeals_left();
        PositionJson {
            game: self.rules.id.clone(),
            foundations,
            tableau,
            reserve,
            stock,
            waste,
            base_rank: self.base,
            redeals_left: self.redeals.unwrap_or(default_redeals),
            choice,
        }
    }

    /// The position, checked by `Position::from_json`.
    pub fn build(&self) -> Position {
        Position::from_json(&self.rules, &self.json())
            .unwrap_or_else(|e| panic!("{}: {e}", self.rules.id))
    }

    /// The rules and the position.
    pub fn both(&self) -> (RuleSet, Position) {
        (self.rules.clone(), self.build())
    }
}

/// The legal moves in notation, sorted.
pub fn moves(rules: &RuleSet, position: &Position) -> Vec<String> {
    let mut out: Vec<String> = position
        .legal_moves(rules)
        .iter()
        .map(|m| m.to_string())
        .collect();
    out.sort();
    out
}

/// Asserts the exact set of legal moves (no move given twice).
#[track_caller]
pub fn assert_moves(rules: &RuleSet, position: &Position, expected: &[&str]) {
    let got = moves(rules, position);
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(
        got,
        want,
        "{}: legal moves differ\nposition: {}",
        rules.id,
        serde_json::to_string(&position.to_json(rules)).expect("serialise")
    );
}

/// Whether `text` (notation) is a legal move here.
pub fn is_legal(rules: &RuleSet, position: &Position, text: &str) -> bool {
    moves(rules, position).iter().any(|m| m == text)
}

/// Plays a move written in notation; panics if it is refused.
#[track_caller]
pub fn play(rules: &RuleSet, position: &mut Position, text: &str) {
    let mv: Move = text.parse().expect("notation");
    if let Err(e) = position.play(rules, mv) {
        panic!("{}: {e}", rules.id);
    }
}

/// Plays a move that must be refused; returns the reason, and checks the position did not change.
#[track_caller]
pub fn refused(rules: &RuleSet, position: &mut Position, text: &str) -> String {
    let before = *position;
    let mv: Move = text.parse().expect("notation");
    match position.play(rules, mv) {
        Ok(_) => panic!("{}: {text} was accepted", rules.id),
        Err(e) => {
            assert_eq!(*position, before, "a refused move changed the position");
            e.reason
        }
    }
}
