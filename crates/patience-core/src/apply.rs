//! Applying moves: the unchecked `apply` the solver uses, the checked `play`, `undo`, forced refills and the
//! stuck test.

use std::collections::HashSet;

use crate::illegal::IllegalMove;
use crate::moves::Move;
use crate::position::{Pile, Position};
use crate::rules::{ReservePick, RuleSet, Source};

/// What [`Position::undo`] needs to take a move back: the position before it. A position is a few dozen bytes,
/// so keeping it whole is both the simplest and the fastest record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo(Position);

impl Position {
    /// Makes a legal move, with the refills the rules force; returns what [`Position::undo`] needs.
    /// The move must be legal (one [`Position::for_each_legal_move`] gave); use [`Position::play`] otherwise.
    pub fn apply(&mut self, rules: &RuleSet, mv: Move) -> Undo {
        let undo = Undo(*self);
        let count = mv.count as usize;
        if mv.is_draw() {
            self.shift(Pile::Stock, Pile::Waste, count);
            // Cards are turned one by one, so the last one turned lies on top.
            self.reverse_top(Pile::Waste, count);
        } else if mv.is_redeal() {
            self.shift(Pile::Waste, Pile::Stock, count);
            self.reverse_top(Pile::Stock, count);
            if let Some(left) = self.redeals_left() {
                self.set_redeals_left(Some(left.saturating_sub(1)));
            }
        } else {
            match (mv.from, mv.to) {
                (Pile::Foundation(suit), to) => {
                    if let Some(card) = self.top(Pile::Foundation(suit)) {
                        self.lower_foundation(card.suit());
                        self.push(to, card);
                    }
                }
                (from, Pile::Foundation(_)) => {
                    if let Some(card) = self.pop(from) {
                        self.raise_foundation(card.suit());
                        if self.base_rank().is_none() {
                            self.set_base_rank(Some(card.rank()));
                        }
                    }
                    if matches!(from, Pile::Choice(_)) {
                        self.close_choice();
                    }
                }
                (from, to) => self.shift(from, to, count),
            }
        }
        self.refill(rules);
        undo
    }

    /// Takes a move back.
    pub fn undo(&mut self, undo: Undo) {
        *self = undo.0;
    }

    /// Makes a move after checking it is legal; an illegal move leaves the position as it was and says why.
    /// A draw or redeal given with count 0 turns as many cards as the rules do.
    pub fn play(&mut self, rules: &RuleSet, mv: Move) -> Result<Undo, IllegalMove> {
        let mv = self.complete(rules, mv);
        let mut legal = false;
        self.for_each_legal_move(rules, |m| legal |= m == mv);
        if legal {
            Ok(self.apply(rules, mv))
        } else {
            Err(self.explain_illegal(rules, mv))
        }
    }

    /// Fills in the count of a draw or redeal written without one (count 0).
    pub fn complete(&self, rules: &RuleSet, mv: Move) -> Move {
        match self.stock_move(rules) {
            Some(stock_move)
                if mv.count == 0 && mv.is_stock_move() && mv.from == stock_move.from =>
            {
                stock_move
            }
            _ => mv,
        }
    }

    /// Whether no sequence of moves can change anything but the order of the stock and the waste. A won
    /// position is not stuck.
    pub fn is_stuck(&self, rules: &RuleSet) -> bool {
        if self.is_won() {
            return false;
        }
        let mut position = *self;
        let mut seen = HashSet::new();
        loop {
            let mut stock_move = None;
            let mut other_move = false;
            position.for_each_legal_move(rules, |mv| {
                if mv.is_stock_move() {
                    stock_move = Some(mv);
                } else {
                    other_move = true;
                }
            });
            if other_move {
                return false;
            }
            // Cycling the stock only comes back to a position already seen.
            match stock_move {
                Some(mv) if seen.insert(position) => {
                    position.apply(rules, mv);
                }
                _ => return true,
            }
        }
    }

    /// After the choice, the cards not chosen become the tableau, in their order.
    fn close_choice(&mut self) {
        let mut pile = 0;
        for i in 0..self.choice_piles() as u8 {
            if self.len(Pile::Choice(i)) > 0 && pile < self.tableau_piles() as u8 {
                self.shift(Pile::Choice(i), Pile::Tableau(pile), 1);
                pile += 1;
            }
        }
    }

    /// Fills spaces from the sources the rules force, until no space or no source is left.
    fn refill(&mut self, rules: &RuleSet) {
        let spaces = &rules.tableau.spaces;
        if spaces.forced.is_empty() || self.choice_pending() {
            return;
        }
        while let Some(space) =
            (0..self.tableau_piles() as u8).find(|&t| self.len(Pile::Tableau(t)) == 0)
        {
            let Some(from) = spaces
                .forced
                .iter()
                .find_map(|&source| self.forced_source(source, spaces.forced_reserve))
            else {
                return;
            };
            self.shift(from, Pile::Tableau(space), 1);
        }
    }

    /// The pile a forced fill takes its card from, if this source has one.
    fn forced_source(&self, source: Source, pick: ReservePick) -> Option<Pile> {
        let has_card = |pile: Pile| (self.len(pile) > 0).then_some(pile);
        match source {
            Source::Waste => has_card(Pile::Waste),
            Source::Stock => has_card(Pile::Stock),
            Source::Tableau => None,
            Source::Reserve => {
                let piles = (0..self.reserve_piles() as u8).map(Pile::Reserve);
                match pick {
                    ReservePick::First => piles.into_iter().find_map(has_card),
                    ReservePick::Fullest => piles
                        .filter(|&p| self.len(p) > 0)
                        .min_by_key(|&p| std::cmp::Reverse(self.len(p))),
                }
            }
        }
    }
}
