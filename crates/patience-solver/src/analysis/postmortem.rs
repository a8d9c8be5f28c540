//! The post-mortem of a lost game: can the position it ended in still be won, could the deal be won at all, and
//! after which move could the game no longer be won.
//!
//! Positions along a game are winnable up to some move and lost after it (a position reached from a lost one is
//! lost), so the losing move is found by a binary search over the game's history. [`FatalSearch`] is that search
//! as a state machine: it says which position to solve next, the caller solves it however it likes (in a thread,
//! in a task, from what it knows already) and tells it the outcome. It asks for the last position first, then
//! the deal, then bisects between the last position known winnable and the first known lost. A position the
//! solver cannot decide is stepped around; if every position left between the two is undecided, the result says
//! between which moves the game was lost.
//!
//! ```
//! use patience_core::{Move, Pile};
//! use patience_solver::analysis::{Fatal, FatalSearch, Outcome};
//!
//! let moves = vec![Move::new(Pile::Waste, Pile::Tableau(0), 1); 10];
//! let mut search = FatalSearch::new(moves.clone());
//! // Winnable after up to 6 moves, lost after 7.
//! while let Some(position) = search.probe() {
//!     search.record(if position <= 6 { Outcome::Winnable } else { Outcome::Lost });
//! }
//! assert_eq!(search.deal(), Some(Outcome::Winnable));
//! assert_eq!(search.fatal(), Some(Fatal::Found { before: 6, mv: moves[6] }));
//! ```

use patience_core::Move;
use serde::{Serialize, Serializer};

use crate::{Limit, Verdict};

/// What the solver says of one position, in short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Some line wins.
    Winnable,
    /// No line wins.
    Lost,
    /// Undecided within the time limit.
    Unknown,
}

impl Outcome {
    /// What a verdict says, in short; `None` for a cancelled search, which says nothing.
    pub fn of(verdict: &Verdict) -> Option<Outcome> {
        match verdict {
            Verdict::Won(_) => Some(Outcome::Winnable),
            Verdict::Lost => Some(Outcome::Lost),
            Verdict::Unknown(Limit::Cancelled) => None,
            Verdict::Unknown(_) => Some(Outcome::Unknown),
        }
    }
}

/// The move after which the game could no longer be won. In JSON, an object whose `kind` is `found`, `between`
/// or `not-applicable`, with the variant's fields (the move as `notation` and `move`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Fatal {
    /// After `before` moves the position was winnable; move number `before + 1`, `mv`, lost it.
    Found {
        /// Moves made before the losing one.
        before: usize,
        /// The losing move.
        #[serde(flatten, serialize_with = "notation_and_move")]
        mv: Move,
    },
    /// The game was lost somewhere after move `after` and by move `by`; the solver could not say where.
    Between {
        /// The last position known winnable, by its number of moves (`None`: not even the deal is known).
        after: Option<usize>,
        /// The first position known lost, by its number of moves (`None`: not even the last one is known).
        by: Option<usize>,
    },
    /// Nothing to find: the deal was never winnable, or the position is still winnable.
    NotApplicable,
}

/// The post-mortem's search over a game's positions (the deal, and the position after each move).
#[derive(Debug, Clone)]
pub struct FatalSearch {
    moves: Vec<Move>,
    /// The position to solve next, `None` once finished.
    next: Option<usize>,
    now: Option<Outcome>,
    deal: Option<Outcome>,
    /// The last position known winnable, by its number of moves.
    winnable: Option<usize>,
    /// The first position known lost.
    lost: Option<usize>,
    /// The positions the solver could not decide.
    undecided: Vec<bool>,
    fatal: Option<Fatal>,
}

impl FatalSearch {
    /// The search over the game that went by `moves` from its deal.
    pub fn new(moves: Vec<Move>) -> FatalSearch {
        let last = moves.len();
        FatalSearch {
            moves,
            next: Some(last),
            now: None,
            deal: None,
            winnable: None,
            lost: None,
            undecided: vec![false; last + 1],
            fatal: None,
        }
    }

    /// The position to solve next, by its number of moves; `None` once the search has finished. No position is
    /// asked for twice.
    pub fn probe(&self) -> Option<usize> {
        self.next
    }

    /// Takes the outcome of the position [`probe`](Self::probe) asked for.
    pub fn record(&mut self, outcome: Outcome) {
        let Some(at) = self.next else {
            return;
        };
        if self.now.is_none() {
            self.now = Some(outcome);
            if at == 0 {
                self.deal = Some(outcome);
            }
        } else if self.deal.is_none() {
            self.deal = Some(outcome);
        }
        match outcome {
            Outcome::Winnable => self.winnable = Some(at),
            Outcome::Lost => self.lost = Some(at),
            Outcome::Unknown => self.undecided[at] = true,
        }
        self.next = self.advance();
    }

    /// Whether the position the game ended in can still be won, once known.
    pub fn now(&self) -> Option<Outcome> {
        self.now
    }

    /// Whether the deal could be won, once known.
    pub fn deal(&self) -> Option<Outcome> {
        self.deal
    }

    /// Where the game was lost, once the search has finished.
    pub fn fatal(&self) -> Option<Fatal> {
        self.fatal
    }

    /// The moves of the game.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position to ask for after an outcome; finishes the search when there is none.
    fn advance(&mut self) -> Option<usize> {
        if self.now == Some(Outcome::Winnable) {
            self.deal = Some(Outcome::Winnable);
            self.fatal = Some(Fatal::NotApplicable);
            return None;
        }
        match self.deal {
            None => return Some(0),
            Some(Outcome::Lost) => {
                self.fatal = Some(Fatal::NotApplicable);
                return None;
            }
            Some(_) => {}
        }
        // The positions left to look at: after the last winnable one, before the first lost one.
        let start = self.winnable.map_or(0, |i| i + 1);
        let end = self.lost.unwrap_or(self.moves.len() + 1);
        if start < end {
            let middle = (start + end - 1) / 2;
            let probe = (start..end)
                .filter(|&i| !self.undecided[i])
                .min_by_key(|&i| (i.abs_diff(middle), i));
            if probe.is_some() {
                return probe;
            }
        }
        self.fatal = Some(match (self.winnable, self.lost) {
            (Some(before), Some(lost)) if lost == before + 1 => Fatal::Found {
                before,
                mv: self.moves[before],
            },
            (after, by) => Fatal::Between { after, by },
        });
        None
    }
}

/// The losing move in JSON: its notation, then its object.
fn notation_and_move<S: Serializer>(mv: &Move, serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Written<'a> {
        notation: String,
        #[serde(rename = "move")]
        mv: &'a Move,
    }
    Written {
        notation: mv.to_string(),
        mv,
    }
    .serialize(serializer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::Pile;

    /// A game of `n` moves, each told apart by its destination.
    fn moves(n: usize) -> Vec<Move> {
        (0..n)
            .map(|i| Move::new(Pile::Waste, Pile::Tableau(i as u8), 1))
            .collect()
    }

    /// Runs the search over `n` moves with `truth` giving each position's outcome; the search and the positions
    /// it asked for, in order.
    fn run(n: usize, truth: impl Fn(usize) -> Outcome) -> (FatalSearch, Vec<usize>) {
        let mut search = FatalSearch::new(moves(n));
        let mut asked = Vec::new();
        while let Some(i) = search.probe() {
            assert!(i <= n, "position {i} of a game of {n} moves");
            assert!(!asked.contains(&i), "position {i} asked twice: {asked:?}");
            asked.push(i);
            search.record(truth(i));
        }
        (search, asked)
    }

    #[test]
    fn a_position_still_winnable_needs_no_bisection() {
        let (search, asked) = run(30, |_| Outcome::Winnable);
        assert_eq!(asked, [30]);
        assert_eq!(search.now(), Some(Outcome::Winnable));
        assert_eq!(search.deal(), Some(Outcome::Winnable));
        assert_eq!(search.fatal(), Some(Fatal::NotApplicable));
    }

    #[test]
    fn a_deal_never_winnable_needs_no_bisection() {
        let (search, asked) = run(30, |_| Outcome::Lost);
        assert_eq!(asked, [30, 0]);
        assert_eq!(search.now(), Some(Outcome::Lost));
        assert_eq!(search.deal(), Some(Outcome::Lost));
        assert_eq!(search.fatal(), Some(Fatal::NotApplicable));
    }

    #[test]
    fn a_game_of_no_moves_asks_for_its_one_position_once() {
        for outcome in [Outcome::Winnable, Outcome::Lost, Outcome::Unknown] {
            let (search, asked) = run(0, |_| outcome);
            assert_eq!(asked, [0]);
            assert_eq!(search.deal(), Some(outcome));
            assert_eq!(
                search.fatal(),
                Some(match outcome {
                    Outcome::Unknown => Fatal::Between {
                        after: None,
                        by: None
                    },
                    _ => Fatal::NotApplicable,
                })
            );
        }
    }

    #[test]
    fn the_bisection_finds_every_losing_move_in_few_probes() {
        for n in 1..40 {
            for k in 0..n {
                let (search, asked) = run(n, |i| {
                    if i <= k {
                        Outcome::Winnable
                    } else {
                        Outcome::Lost
                    }
                });
                assert_eq!(
                    search.fatal(),
                    Some(Fatal::Found {
                        before: k,
                        mv: moves(n)[k]
                    }),
                    "{k} of {n}"
                );
                assert_eq!(search.deal(), Some(Outcome::Winnable));
                assert_eq!(search.now(), Some(Outcome::Lost));
                let most = 2 + (usize::BITS - n.leading_zeros()) as usize;
                assert!(asked.len() <= most, "{k} of {n}: {asked:?}");
            }
        }
    }

    #[test]
    fn the_bisection_probes_the_middle_first() {
        let (_, asked) = run(10, |i| {
            if i <= 6 {
                Outcome::Winnable
            } else {
                Outcome::Lost
            }
        });
        // Between 0 (winnable) and 10 (lost): 5, then between 5 and 10: 7, then 6.
        assert_eq!(asked, [10, 0, 5, 7, 6]);
    }

    #[test]
    fn an_undecided_probe_is_stepped_around() {
        // The middle, 5, is undecided: its nearer neighbour 4 (the lower of two as near) is lost, so 2 and 3 are
        // asked next.
        let (search, asked) = run(10, |i| match i {
            0..=3 => Outcome::Winnable,
            5 => Outcome::Unknown,
            _ => Outcome::Lost,
        });
        assert_eq!(asked, [10, 0, 5, 4, 2, 3]);
        assert_eq!(
            search.fatal(),
            Some(Fatal::Found {
                before: 3,
                mv: moves(10)[3]
            })
        );
    }

    #[test]
    fn undecided_positions_between_give_the_moves_the_game_was_lost_between() {
        let (search, asked) = run(12, |i| match i {
            0..=3 => Outcome::Winnable,
            4..=7 => Outcome::Unknown,
            _ => Outcome::Lost,
        });
        assert_eq!(
            search.fatal(),
            Some(Fatal::Between {
                after: Some(3),
                by: Some(8)
            })
        );
        for i in 4..=7 {
            assert!(asked.contains(&i), "{i} not asked: {asked:?}");
        }
    }

    #[test]
    fn an_undecided_deal_and_end_leave_the_ends_open() {
        let (search, _) = run(6, |i| match i {
            0 | 6 => Outcome::Unknown,
            1..=3 => Outcome::Winnable,
            _ => Outcome::Unknown,
        });
        assert_eq!(search.now(), Some(Outcome::Unknown));
        assert_eq!(search.deal(), Some(Outcome::Unknown));
        assert_eq!(
            search.fatal(),
            Some(Fatal::Between {
                after: Some(3),
                by: None
            })
        );
        let (search, asked) = run(6, |_| Outcome::Unknown);
        assert_eq!(asked.len(), 7, "{asked:?}");
        assert_eq!(
            search.fatal(),
            Some(Fatal::Between {
                after: None,
                by: None
            })
        );
    }

    #[test]
    fn an_outcome_after_the_end_changes_nothing() {
        let (mut search, _) = run(3, |_| Outcome::Winnable);
        search.record(Outcome::Lost);
        assert_eq!(search.probe(), None);
        assert_eq!(search.now(), Some(Outcome::Winnable));
        assert_eq!(search.fatal(), Some(Fatal::NotApplicable));
    }

    #[test]
    fn a_cancelled_search_says_nothing() {
        assert_eq!(Outcome::of(&Verdict::Won(vec![])), Some(Outcome::Winnable));
        assert_eq!(Outcome::of(&Verdict::Lost), Some(Outcome::Lost));
        assert_eq!(
            Outcome::of(&Verdict::Unknown(Limit::Time)),
            Some(Outcome::Unknown)
        );
        assert_eq!(Outcome::of(&Verdict::Unknown(Limit::Cancelled)), None);
    }

    #[test]
    fn the_json_names_the_kind_and_the_move() {
        let mv: Move = "t2-t0".parse().expect("a move");
        let json = |fatal: Fatal| serde_json::to_string(&fatal).expect("JSON");
        assert_eq!(
            json(Fatal::Found { before: 17, mv }),
            r#"{"kind":"found","before":17,"notation":"t2-t0","move":{"from":"tableau:2","to":"tableau:0","count":1}}"#
        );
        assert_eq!(
            json(Fatal::Between {
                after: Some(3),
                by: None
            }),
            r#"{"kind":"between","after":3,"by":null}"#
        );
        assert_eq!(json(Fatal::NotApplicable), r#"{"kind":"not-applicable"}"#);
        assert_eq!(
            serde_json::to_string(&[Outcome::Winnable, Outcome::Lost, Outcome::Unknown])
                .expect("JSON"),
            r#"["winnable","lost","unknown"]"#
        );
    }
}
