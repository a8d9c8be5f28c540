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

use super::postmortem::Outcome;

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

/// What the choices tell of the deal they open, when its own search left it undecided: it could be won if any
/// choice could, and could not if every choice is known lost. A decided deal, or choices that settle nothing,
/// leave `deal` as it is.
pub fn refine_deal(
    deal: Option<Outcome>,
    choices: impl IntoIterator<Item = Option<Outcome>>,
) -> Option<Outcome> {
    if matches!(deal, Some(Outcome::Winnable | Outcome::Lost)) {
        return deal;
    }
    let mut seen = 0;
    let mut all_lost = true;
    for outcome in choices {
        seen += 1;
        match outcome {
            Some(Outcome::Winnable) => return Some(Outcome::Winnable),
            Some(Outcome::Lost) => {}
            _ => all_lost = false,
        }
    }
    if seen > 0 && all_lost {
        Some(Outcome::Lost)
    } else {
        deal
    }
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

    #[test]
    fn the_choices_settle_an_undecided_deal() {
        use Outcome::{Lost, Unknown, Winnable};
        assert_eq!(
            refine_deal(Some(Unknown), [Some(Lost), Some(Winnable), None]),
            Some(Winnable)
        );
        assert_eq!(refine_deal(None, [Some(Lost), Some(Lost)]), Some(Lost));
        assert_eq!(
            refine_deal(Some(Unknown), [Some(Lost), Some(Unknown)]),
            Some(Unknown)
        );
        assert_eq!(
            refine_deal(Some(Unknown), [Some(Lost), None]),
            Some(Unknown)
        );
        assert_eq!(
            refine_deal(Some(Unknown), std::iter::empty()),
            Some(Unknown)
        );
        // A decided deal stays as its own search found it.
        assert_eq!(refine_deal(Some(Lost), [Some(Winnable)]), Some(Lost));
    }
}
