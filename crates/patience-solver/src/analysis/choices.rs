//! The choices a deal opens with, for the post-mortem's consolation: in a game with a choice row (Selective
//! Canfield), the player first picks one of its cards as the base card, and the post-mortem says which picks
//! could have won.
//!
//! [`choices`] lists them, each with the position it leads to; a front-end solves those positions its own way
//! (in a thread, in a task, from what it knows already).
//!
//! ```
//! use patience_core::{builtin, Position};
//! use patience_solver::analysis::choices;
//!
//! let rules = builtin::rules("selective-canfield").unwrap();
//! let start = Position::deal(&rules, 1).unwrap();
//! let offered = choices(&rules, &start);
//! assert_eq!(offered.len(), 5);
//! for choice in &offered {
//!     assert_eq!(choice.position.base_rank(), Some(choice.card.rank()));
//!     assert!(!choice.position.choice_pending());
//! }
//! // A game without a choice row, or one already chosen, opens with none.
//! assert!(choices(&rules, &offered[0].position).is_empty());
//! ```

use patience_core::{Card, Move, Position, RuleSet};

/// One choice of the base card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    /// The move that makes it.
    pub mv: Move,
    /// The card chosen.
    pub card: Card,
    /// The position after it.
    pub position: Position,
}

/// The choices `start` has pending, in the order of the choice row; none when it has no choice to make.
pub fn choices(rules: &RuleSet, start: &Position) -> Vec<Choice> {
    let mut choices = Vec::new();
    if !start.choice_pending() {
        return choices;
    }
    start.for_each_legal_move(rules, |mv| {
        if let Some(card) = start.top(mv.from) {
            let mut position = *start;
            position.apply(rules, mv);
            choices.push(Choice { mv, card, position });
        }
    });
    choices
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::{builtin, Pile};

    #[test]
    fn each_card_of_the_choice_row_is_a_choice_that_founds_its_rank() {
        let rules = builtin::rules("selective-canfield").expect("built in");
        let start = Position::deal(&rules, 7).expect("a deal");
        let choices = choices(&rules, &start);
        assert_eq!(choices.len(), start.choice_piles());
        for (i, choice) in choices.iter().enumerate() {
            assert_eq!(choice.mv.from, Pile::Choice(i as u8));
            assert_eq!(start.top(Pile::Choice(i as u8)), Some(choice.card));
            assert!(start.legal_moves(&rules).contains(&choice.mv));
            let mut after = start;
            after.apply(&rules, choice.mv);
            assert_eq!(after, choice.position);
            assert_eq!(choice.position.base_rank(), Some(choice.card.rank()));
            assert_eq!(choice.position.top(choice.mv.to), Some(choice.card));
            assert!(!choice.position.choice_pending());
        }
    }

    #[test]
    fn a_game_without_a_choice_row_has_no_choices() {
        let rules = builtin::rules("canfield").expect("built in");
        let start = Position::deal(&rules, 7).expect("a deal");
        assert!(choices(&rules, &start).is_empty());
    }
}
