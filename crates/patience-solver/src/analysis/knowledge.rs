//! What searches proved about the positions of a game, kept by position under one rule set.
//!
//! A winning line marks every position along it as winnable (so following its moves needs no new search), a
//! position reached from a lost one is lost, and an undecided search is remembered with its time limit, so that
//! only a longer one is tried again.
//!
//! ```
//! use std::sync::Arc;
//! use std::time::Duration;
//!
//! use patience_core::{builtin, Position};
//! use patience_solver::analysis::{Knowledge, Known};
//! use patience_solver::{solve, Limits, Verdict};
//!
//! let rules = Arc::new(builtin::rules("florentine").unwrap());
//! let start = Position::deal(&rules, 1).unwrap();
//! let mut knowledge = Knowledge::new(Arc::clone(&rules));
//! let limit = Duration::from_secs(2);
//! assert!(knowledge.needs_search(&start, limit));
//! let verdict = solve(&rules, &start, &Limits::default()).verdict;
//! knowledge.learn(start, &verdict, limit);
//! assert!(!knowledge.needs_search(&start, limit));
//! if let Verdict::Won(line) = verdict {
//!     assert_eq!(knowledge.next_move(&start), line.first().copied());
//! }
//! ```

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use patience_core::{Move, Position, RuleSet};

use super::postmortem::Outcome;
use crate::{Limit, Verdict};

/// What is known of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Known {
    /// Winnable: `line[at..]` wins from it.
    Winnable {
        /// A winning line through the position.
        line: Arc<[Move]>,
        /// Where the position lies on the line.
        at: usize,
    },
    /// No line of moves wins from it.
    Lost,
    /// The solver could not decide within this time.
    Unknown(Duration),
}

impl Known {
    /// The next move of the winning line through the position; `None` when it is not known winnable, or is won.
    pub fn next_move(&self) -> Option<Move> {
        match self {
            Known::Winnable { line, at } => line.get(*at).copied(),
            Known::Lost | Known::Unknown(_) => None,
        }
    }

    /// What it says, in short.
    pub fn outcome(&self) -> Outcome {
        match self {
            Known::Winnable { .. } => Outcome::Winnable,
            Known::Lost => Outcome::Lost,
            Known::Unknown(_) => Outcome::Unknown,
        }
    }
}

/// What is known of positions under one rule set.
#[derive(Debug, Clone)]
pub struct Knowledge {
    rules: Arc<RuleSet>,
    known: HashMap<Position, Known>,
}

impl Knowledge {
    /// Nothing known yet of positions under `rules`.
    pub fn new(rules: Arc<RuleSet>) -> Knowledge {
        Knowledge {
            rules,
            known: HashMap::new(),
        }
    }

    /// The rules positions are known under.
    pub fn rules(&self) -> &Arc<RuleSet> {
        &self.rules
    }

    /// Changes the rules; if they differ, everything known is forgotten. Says whether they differed.
    pub fn set_rules(&mut self, rules: Arc<RuleSet>) -> bool {
        if *rules == *self.rules {
            return false;
        }
        self.rules = rules;
        self.known.clear();
        true
    }

    /// What is known of a position.
    pub fn get(&self, position: &Position) -> Option<&Known> {
        self.known.get(position)
    }

    /// The next move of a winning line known through `position`.
    pub fn next_move(&self, position: &Position) -> Option<Move> {
        self.get(position).and_then(Known::next_move)
    }

    /// What a search of `position` within `limit` would say, if that is known without one: a won position is
    /// winnable, and an undecided search is taken as the answer if it had at least `limit`.
    pub fn outcome(&self, position: &Position, limit: Duration) -> Option<Outcome> {
        if position.is_won() {
            return Some(Outcome::Winnable);
        }
        match self.get(position)? {
            Known::Unknown(t) if *t < limit => None,
            known => Some(known.outcome()),
        }
    }

    /// Whether a search of `position` within `limit` could tell more than is known.
    pub fn needs_search(&self, position: &Position, limit: Duration) -> bool {
        self.outcome(position, limit).is_none()
    }

    /// Keeps what a search of `position` within `limit` proved: a winning line marks every position along it
    /// (replayed by the rules), a loss the position, an undecided search the longest limit it had. A cancelled
    /// search proves nothing.
    pub fn learn(&mut self, position: Position, verdict: &Verdict, limit: Duration) {
        match verdict {
            Verdict::Won(line) => {
                let line: Arc<[Move]> = line.as_slice().into();
                let mut along = position;
                for at in 0..=line.len() {
                    self.known.insert(
                        along,
                        Known::Winnable {
                            line: Arc::clone(&line),
                            at,
                        },
                    );
                    if let Some(&mv) = line.get(at) {
                        along.apply(&self.rules, mv);
                    }
                }
            }
            Verdict::Lost => {
                self.known.insert(position, Known::Lost);
            }
            Verdict::Unknown(Limit::Cancelled) => {}
            Verdict::Unknown(_) => {
                let known = self.known.entry(position).or_insert(Known::Unknown(limit));
                if matches!(known, Known::Unknown(t) if *t < limit) {
                    *known = Known::Unknown(limit);
                }
            }
        }
    }

    /// Records what follows from a move from `from` to `to`: a position reached from a lost one is lost.
    pub fn moved(&mut self, from: &Position, to: &Position) {
        if self.known.get(from) == Some(&Known::Lost) {
            self.known.entry(*to).or_insert(Known::Lost);
        }
    }

    /// Forgets that a search of `position` was undecided, if it had less than `limit`: before a longer one.
    pub fn forget_undecided(&mut self, position: &Position, limit: Duration) {
        if matches!(self.known.get(position), Some(Known::Unknown(t)) if *t < limit) {
            self.known.remove(position);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{solve, Limits};
    use patience_core::builtin;

    const QUICK: Duration = Duration::from_secs(2);
    const HARD: Duration = Duration::from_secs(8);

    fn rules(id: &str) -> Arc<RuleSet> {
        Arc::new(builtin::rules(id).expect("a built-in game"))
    }

    /// A deal of `id` the solver wins, and its winning line.
    fn won_deal(rules: &RuleSet) -> (Position, Vec<Move>) {
        let limits = Limits {
            time: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        for deal in 1..=20 {
            let start = Position::deal(rules, deal).expect("deal");
            if let Verdict::Won(line) = solve(rules, &start, &limits).verdict {
                if !line.is_empty() {
                    return (start, line);
                }
            }
        }
        panic!("no deal of {} won", rules.id);
    }

    #[test]
    fn a_winning_line_marks_every_position_along_it() {
        let rules = rules("fortunes-favor");
        let (start, line) = won_deal(&rules);
        let mut knowledge = Knowledge::new(Arc::clone(&rules));
        knowledge.learn(start, &Verdict::Won(line.clone()), QUICK);
        let mut along = start;
        for (at, &mv) in line.iter().enumerate() {
            assert!(
                matches!(knowledge.get(&along), Some(Known::Winnable { at: a, .. }) if *a == at),
                "position {at} of the line"
            );
            assert_eq!(knowledge.next_move(&along), Some(mv));
            assert!(!knowledge.needs_search(&along, HARD));
            assert_eq!(knowledge.outcome(&along, HARD), Some(Outcome::Winnable));
            along.play(&rules, mv).expect("the line is legal");
        }
        assert!(along.is_won());
        assert_eq!(knowledge.next_move(&along), None);
        assert!(
            matches!(knowledge.get(&along), Some(Known::Winnable { at, .. }) if *at == line.len())
        );
    }

    #[test]
    fn a_position_reached_from_a_lost_one_is_lost() {
        let rules = rules("canfield");
        let start = Position::deal(&rules, 1).expect("deal");
        let moves = start.legal_moves(&rules);
        let (&first, &second) = (&moves[0], &moves[moves.len() - 1]);
        let (mut after_first, mut after_second) = (start, start);
        after_first.apply(&rules, first);
        after_second.apply(&rules, second);
        let mut knowledge = Knowledge::new(Arc::clone(&rules));
        // Nothing follows from a position not known lost.
        knowledge.moved(&start, &after_first);
        assert_eq!(knowledge.get(&after_first), None);
        knowledge.learn(start, &Verdict::Lost, QUICK);
        knowledge.moved(&start, &after_first);
        assert_eq!(knowledge.get(&after_first), Some(&Known::Lost));
        assert_eq!(knowledge.outcome(&after_first, HARD), Some(Outcome::Lost));
        // What is known already is kept.
        knowledge.learn(after_second, &Verdict::Unknown(Limit::Time), QUICK);
        knowledge.moved(&start, &after_second);
        assert_eq!(knowledge.get(&after_second), Some(&Known::Unknown(QUICK)));
    }

    #[test]
    fn an_undecided_search_keeps_its_longest_limit() {
        let rules = rules("canfield");
        let start = Position::deal(&rules, 1).expect("deal");
        let mut knowledge = Knowledge::new(Arc::clone(&rules));
        knowledge.learn(start, &Verdict::Unknown(Limit::Cancelled), HARD);
        assert_eq!(knowledge.get(&start), None);
        knowledge.learn(start, &Verdict::Unknown(Limit::Time), QUICK);
        assert!(!knowledge.needs_search(&start, QUICK));
        assert!(knowledge.needs_search(&start, HARD));
        assert_eq!(knowledge.outcome(&start, QUICK), Some(Outcome::Unknown));
        knowledge.learn(start, &Verdict::Unknown(Limit::Memory), HARD);
        knowledge.learn(start, &Verdict::Unknown(Limit::Time), QUICK);
        assert_eq!(knowledge.get(&start), Some(&Known::Unknown(HARD)));
        knowledge.forget_undecided(&start, HARD);
        assert_eq!(knowledge.get(&start), Some(&Known::Unknown(HARD)));
        knowledge.forget_undecided(&start, HARD * 2);
        assert_eq!(knowledge.get(&start), None);
        // A decided position stays decided.
        knowledge.learn(start, &Verdict::Lost, QUICK);
        knowledge.learn(start, &Verdict::Unknown(Limit::Time), HARD);
        knowledge.forget_undecided(&start, HARD * 2);
        assert_eq!(knowledge.get(&start), Some(&Known::Lost));
    }

    #[test]
    fn other_rules_forget_everything_and_the_same_rules_nothing() {
        let canfield = rules("canfield");
        let start = Position::deal(&canfield, 1).expect("deal");
        let mut knowledge = Knowledge::new(Arc::clone(&canfield));
        knowledge.learn(start, &Verdict::Lost, QUICK);
        assert!(!knowledge.set_rules(rules("canfield")));
        assert_eq!(knowledge.get(&start), Some(&Known::Lost));
        assert!(knowledge.set_rules(rules("gate")));
        assert_eq!(knowledge.get(&start), None);
        assert_eq!(knowledge.rules().id, "gate");
    }

    #[test]
    fn a_won_position_needs_no_search() {
        let rules = rules("fortunes-favor");
        let (start, line) = won_deal(&rules);
        let mut end = start;
        for &mv in &line {
            end.apply(&rules, mv);
        }
        let knowledge = Knowledge::new(rules);
        assert!(!knowledge.needs_search(&end, HARD));
        assert_eq!(knowledge.outcome(&end, HARD), Some(Outcome::Winnable));
        assert!(knowledge.needs_search(&start, QUICK));
    }
}
