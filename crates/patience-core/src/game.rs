//! A game: a position with its history, so moves can be undone and redone without limit.

use std::sync::Arc;

use crate::apply::Undo;
use crate::deal::NoDealZero;
use crate::illegal::IllegalMove;
use crate::moves::Move;
use crate::position::Position;
use crate::rules::RuleSet;

/// A deal being played: the rules, the starting position, the moves made and the moves undone.
#[derive(Debug, Clone)]
pub struct Game {
    rules: Arc<RuleSet>,
    deal: Option<u64>,
    start: Position,
    position: Position,
    done: Vec<(Move, Undo)>,
    undone: Vec<Move>,
}

/// What a game has scored so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Score {
    /// Cards on the foundations.
    pub cards: usize,
    /// Casino dollars: the cards times the pay per card, less the price of the pack (`5 × cards − 52`).
    pub casino_dollars: i64,
}

impl Game {
    /// Starts deal `number` of a game.
    pub fn new(rules: Arc<RuleSet>, number: u64) -> Result<Game, NoDealZero> {
        let start = Position::deal(&rules, number)?;
        Ok(Game {
            deal: Some(number),
            ..Game::from_position(rules, start)
        })
    }

    /// Starts from a position that did not come from a numbered deal (read from JSON, say).
    pub fn from_position(rules: Arc<RuleSet>, start: Position) -> Game {
        Game {
            rules,
            deal: None,
            start,
            position: start,
            done: Vec::new(),
            undone: Vec::new(),
        }
    }

    /// The rules being played.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The rules, shared.
    pub fn shared_rules(&self) -> Arc<RuleSet> {
        Arc::clone(&self.rules)
    }

    /// The deal number, when the game started from one.
    pub fn deal_number(&self) -> Option<u64> {
        self.deal
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves made, first first.
    pub fn history(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.done.iter().map(|(mv, _)| *mv)
    }

    /// The moves undone that [`Game::redo`] would make again, the next one last.
    pub fn redo_stack(&self) -> &[Move] {
        &self.undone
    }

    /// How many moves have been made (undone moves do not count).
    pub fn move_count(&self) -> usize {
        self.done.len()
    }

    /// Every legal move now.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.position.legal_moves(&self.rules)
    }

    /// Makes a move if it is legal. A new move forgets the moves that were undone.
    pub fn play(&mut self, mv: Move) -> Result<Move, IllegalMove> {
        let mv = self.position.complete(&self.rules, mv);
        let undo = self.position.play(&self.rules, mv)?;
        self.done.push((mv, undo));
        self.undone.clear();
        Ok(mv)
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let (mv, undo) = self.done.pop()?;
        self.position.undo(undo);
        self.undone.push(mv);
        Some(mv)
    }

    /// Makes the last undone move again; returns it, or `None` when nothing was undone.
    pub fn redo(&mut self) -> Option<Move> {
        let mv = self.undone.pop()?;
        let undo = self.position.apply(&self.rules, mv);
        self.done.push((mv, undo));
        Some(mv)
    }

    /// Goes back to the starting position and forgets every move.
    pub fn restart(&mut self) {
        self.position = self.start;
        self.done.clear();
        self.undone.clear();
    }

    /// The score now.
    pub fn score(&self) -> Score {
        score(&self.rules, &self.position)
    }

    /// Whether every card is on the foundations.
    pub fn is_won(&self) -> bool {
        self.position.is_won()
    }

    /// Whether nothing but cycling the stock is possible.
    pub fn is_stuck(&self) -> bool {
        self.position.is_stuck(&self.rules)
    }
}

/// The score of a position under these rules.
pub fn score(rules: &RuleSet, position: &Position) -> Score {
    let cards = position.foundation_cards();
    Score {
        cards,
        casino_dollars: cards as i64 * i64::from(rules.score.per_card)
            - i64::from(rules.score.pack_price),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn undo_and_redo_walk_the_history() {
        let rules = Arc::new(builtin::rules("canfield").expect("canfield"));
        let mut game = Game::new(rules, 1).expect("deal 1");
        let start = *game.position();
        let first = game.legal_moves()[0];
        game.play(first).expect("legal");
        let after = *game.position();
        assert_eq!(game.undo(), Some(first));
        assert_eq!(*game.position(), start);
        assert_eq!(game.undo(), None);
        assert_eq!(game.redo(), Some(first));
        assert_eq!(*game.position(), after);
        assert_eq!(game.redo(), None);
        game.restart();
        assert_eq!(*game.position(), start);
        assert_eq!(game.move_count(), 0);
    }

    #[test]
    fn casino_score_counts_the_base_card() {
        let rules = Arc::new(builtin::rules("canfield").expect("canfield"));
        let game = Game::new(rules, 1).expect("deal 1");
        assert_eq!(
            game.score(),
            Score {
                cards: 1,
                casino_dollars: -47
            }
        );
    }
}
