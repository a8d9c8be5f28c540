//! Turning the stock without making a position for every turn: a search that plays a card from the waste needs the
//! position only at the turns that bring up a card it can play, and this says which card each turn brings up.

use crate::card::Card;
use crate::movegen::stock_move;
use crate::moves::Move;
use crate::position::{Pile, Position};
use crate::rules::RuleSet;

/// The stock and the waste of a position as the stock is turned, one draw or redeal at a time.
///
/// Turning never changes the order the cards come up in: the waste from the bottom, then the stock from the top.
/// A draw moves the next cards of that order onto the waste, and a redeal turns the waste back into the stock
/// as it was. So the stock and the waste are that order cut in two, and a turn moves the cut.
#[derive(Debug, Clone, Copy)]
pub struct StockTurns {
    /// The cards of the stock and the waste in the order they come up.
    order: [u8; 52],
    /// How many cards the stock and the waste hold together.
    cards: u8,
    /// How many of them are on the waste: the first ones of `order`.
    waste: u8,
    /// How many cards a draw turns.
    draw: u8,
    /// The redeals left, `None` for unlimited.
    redeals_left: Option<u8>,
}

impl StockTurns {
    /// Turns the stock once, as [`Position::stock_move`] would: the draw, or the redeal if the stock is empty.
    /// Gives that move, or `None` when the stock cannot be turned.
    pub fn turn(&mut self) -> Option<Move> {
        let stock = (self.cards - self.waste) as usize;
        let turn = stock_move(stock, self.waste as usize, self.draw, self.redeals_left)?;
        if turn.is_redeal() {
            self.waste = 0;
            self.redeals_left = self.redeals_left.map(|left| left - 1);
        } else {
            self.waste += turn.count;
        }
        Some(turn)
    }

    /// The card on top of the waste.
    pub fn waste_top(&self) -> Option<Card> {
        let top = self.waste.checked_sub(1)?;
        Card::from_index(self.order[top as usize])
    }
}

impl Position {
    /// The cards of the stock and the waste in the order they come up, the waste from the bottom and then the
    /// stock from the top (as card bytes), and how many there are: the order no turning of the stock changes.
    pub fn stock_order(&self) -> ([u8; 52], usize) {
        let stock = self.pile(Pile::Stock);
        let waste = self.pile(Pile::Waste);
        let mut order = [0u8; 52];
        order[..waste.len()].copy_from_slice(waste);
        for (slot, &card) in order[waste.len()..].iter_mut().zip(stock.iter().rev()) {
            *slot = card;
        }
        (order, stock.len() + waste.len())
    }

    /// The stock and the waste of this position, to be turned.
    pub fn stock_turns(&self, rules: &RuleSet) -> StockTurns {
        let (order, cards) = self.stock_order();
        StockTurns {
            order,
            cards: cards as u8,
            waste: self.len(Pile::Waste) as u8,
            draw: rules.stock.draw,
            redeals_left: self.redeals_left(),
        }
    }

    /// Sets the stock, the waste and the redeals left to `turns`, which must come from this position or from one
    /// with the same stock and waste turned: the same as making the turns one by one.
    pub fn turn_to(&mut self, turns: &StockTurns) {
        let (cards, waste) = (turns.cards as usize, turns.waste as usize);
        let stock = cards - waste;
        self.set_stock_and_waste(|slots| {
            for (slot, &card) in slots[..stock]
                .iter_mut()
                .zip(turns.order[waste..cards].iter().rev())
            {
                *slot = card;
            }
            slots[stock..cards].copy_from_slice(&turns.order[..waste]);
            stock
        });
        self.set_redeals_left(turns.redeals_left);
    }
}

#[cfg(test)]
mod tests {
    use crate::builtin;
    use crate::position::{Pile, Position};

    /// Turning with `StockTurns` gives the moves, the waste tops and the positions that turning one move at a time
    /// gives, through every redeal, for draws of one and of three, with limited and unlimited redeals.
    #[test]
    fn turning_is_the_same_as_making_the_stock_moves() {
        for id in [
            "canfield",
            "four-seasons",
            "chameleon",
            "simplicity",
            "storehouse",
            "gate",
        ] {
            let rules = builtin::rules(id).expect("a built-in game");
            for deal in 1..=5 {
                let mut position = Position::deal(&rules, deal).expect("deal numbers start at 1");
                // Some plays first, so the waste and stock are not as dealt.
                for _ in 0..3 {
                    let moves = position.legal_moves(&rules);
                    if let Some(&mv) = moves.iter().find(|mv| !mv.is_stock_move()) {
                        position.apply(&rules, mv);
                    }
                    if let Some(stock) = position.stock_move(&rules) {
                        position.apply(&rules, stock);
                    }
                }
                let mut turns = position.stock_turns(&rules);
                let mut turned = position;
                for turn in 0..120 {
                    let expected = turned.stock_move(&rules);
                    assert_eq!(turns.turn(), expected, "{id} deal {deal}, turn {turn}");
                    let Some(stock) = expected else { break };
                    turned.apply(&rules, stock);
                    assert_eq!(
                        turns.waste_top(),
                        turned.top(Pile::Waste),
                        "{id} deal {deal}, turn {turn}"
                    );
                    let mut direct = position;
                    direct.turn_to(&turns);
                    assert_eq!(direct, turned, "{id} deal {deal}, turn {turn}");
                }
            }
        }
    }
}
