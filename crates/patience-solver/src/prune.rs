//! Pruning rules, each used only on the rule sets for which it is proved safe.
//!
//! # Safe moves to the foundations
//! A card `c` goes to its foundation at once, as the only move searched from that position, when:
//! 1. foundation cards never come back (`cards_go_back = false`);
//! 2. no space is ever filled by force (`spaces.forced` is empty);
//! 3. `c` is the top card of a tableau pile or of a reserve pile (never the waste: with a draw of three, taking a
//!    waste card changes which cards later draws turn up, and the stock is not a free reserve);
//! 4. every card that could be built on `c` in the tableau is already on the foundations.
//!
//! Proof. Take any winning line L from position P, and let P' be P with `c` on its foundation. Play L from P',
//! leaving out the moves that move `c` (it must reach its foundation in L, since L wins). By (4) no move of L puts
//! a card on `c`, and by (1) none takes a card off the foundations, so `c` is never under another card. A move of
//! L that moves a run with `c` on top moves the same run less `c` from P', which the same rule allows: it is
//! still a run, a whole pile is still a whole pile, and its bottom card is the same. Where `c` lay alone in a
//! pile, P' has a space; since (2) nothing fills a space by force, that space stays empty until L would have
//! used it, and L never puts a card on `c`. Every other pile and the stock are the same in both lines, so every
//! other move of L is legal from P' at its turn, and the line ends with every card on the foundations.
//!
//! # Stock macro-moves
//! Instead of one draw at a time, the search takes as one step "turn the stock until card X is on the waste, then
//! play X", for every X the stock can bring up (through every redeal left; with unlimited redeals, through one
//! whole pass after the first redeal, since the passes then repeat), beside the moves that do not touch the stock
//! or the waste. The positions between the draws are never stored. Used when no space is filled by force from the
//! waste or the stock.
//!
//! Proof. A draw or redeal touches only the stock and the waste, and whether it is allowed depends only on them.
//! A move that touches neither (tableau, reserve or foundation to tableau or foundation, with the refills it
//! forces, none of which comes from the waste or the stock by the condition) neither depends on them nor changes
//! them. So a draw followed by such a move gives the same position as that move followed by the draw, and both
//! orders are legal. Moving such moves before the draws, one swap at a time, turns any winning line into one in
//! which every run of stock moves is followed by a move from the waste (a line never ends with a draw, since a
//! draw wins nothing). Every step of that line is a step the search generates, so the search finds a win if there
//! is one. The positions it stores are exact, so the transposition table stays sound.
//!
//! Rules (2) and (3) are why Canfield, Chameleon, Storehouse and Fortune's Favor get no safe moves: their forced
//! refills would take a different reserve or waste card into the space. Rule (1) keeps it off Solo Canfield.

use patience_core::rules::Source;
use patience_core::{Card, Move, Pile, Position, Rank, RuleSet, Suit};

/// The pruning a rule set allows, decided once before a search.
#[derive(Debug, Clone, Copy)]
pub struct Pruning {
    /// Whether safe moves to the foundations are proved for this rule set (see the module documentation).
    pub safe_foundation_moves: bool,
    /// Whether the stock is searched by macro-moves (see the module documentation).
    pub stock_macros: bool,
}

impl Pruning {
    /// The pruning proved safe for these rules.
    pub fn for_rules(rules: &RuleSet) -> Pruning {
        Pruning {
            safe_foundation_moves: !rules.foundations.cards_go_back
                && rules.tableau.spaces.forced.is_empty(),
            stock_macros: !rules
                .tableau
                .spaces
                .forced
                .iter()
                .any(|s| matches!(s, Source::Waste | Source::Stock)),
        }
    }

    /// No pruning.
    pub fn none() -> Pruning {
        Pruning {
            safe_foundation_moves: false,
            stock_macros: false,
        }
    }

    /// A move to the foundations that is safe to make at once, if there is one.
    pub fn safe_move(&self, rules: &RuleSet, position: &Position) -> Option<Move> {
        if !self.safe_foundation_moves || position.choice_pending() {
            return None;
        }
        let tableau = (0..position.tableau_piles() as u8).map(Pile::Tableau);
        let reserve = (0..position.reserve_piles() as u8).map(Pile::Reserve);
        tableau.chain(reserve).find_map(|from| {
            let card = position.top(from)?;
            (position.foundation_next(card.suit()) == Some(card)
                && nothing_builds_on(rules, position, card))
            .then(|| Move::new(from, Pile::Foundation(card.suit() as u8), 1))
        })
    }
}

/// Whether every card that could be built on `card` in the tableau is already on the foundations.
fn nothing_builds_on(rules: &RuleSet, position: &Position, card: Card) -> bool {
    let Some(base) = position.base_rank() else {
        return false;
    };
    let ranks = position.ranks();
    Suit::ALL.into_iter().all(|suit| {
        (0..ranks).all(|r| {
            let Some(rank) = Rank::new(r) else {
                return true;
            };
            let other = Card::new(suit, rank);
            if !position.builds_on(rules, other, card) {
                return true;
            }
            let height = (r + ranks - base.index()) % ranks;
            usize::from(height) < position.foundation_len(suit as usize)
        })
    })
}
