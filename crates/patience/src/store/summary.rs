//! What the finished games add up to, game by game: played, won, win rate, streaks, best time, fewest moves and
//! the casino bankroll.

use serde::Serialize;

use super::{FinishedGame, Outcome, Store, StoreError};

/// The record of one game (one rule set: a rule file with a built-in game's id counts apart).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameSummary {
    /// The game's id.
    pub game: String,
    /// The game's name for people, as last recorded.
    pub rules_name: String,
    /// The rule file's hash for a game read from one; `None` for a built-in game.
    pub rules_hash: Option<String>,
    /// Games finished (won, lost or abandoned).
    pub played: u32,
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
    /// Games abandoned.
    pub abandoned: u32,
    /// Won over played, from 0 to 1.
    pub win_rate: f64,
    /// Games won in a row up to the last one (0 when the last was not won).
    pub current_streak: u32,
    /// The most games won in a row. A loss or an abandoned game ends a streak.
    pub best_streak: u32,
    /// The shortest time of a game won, in seconds.
    pub best_seconds: Option<f64>,
    /// The fewest moves of a game won.
    pub fewest_moves: Option<u32>,
    /// The casino dollars of every game added up (each game a bet of the pack's price, paid per card).
    pub bankroll: i64,
}

impl Store {
    /// The summaries of every game played, or of one game id, in the order of the game ids.
    #[allow(
        dead_code,
        reason = "the store's API for the players (terminal and web); used by tests until they call it"
    )]
    pub fn summaries(&self, game: Option<&str>) -> Result<Vec<GameSummary>, StoreError> {
        Ok(summarize(&self.history(game)?))
    }
}

/// The summaries of these games, given oldest first; one per game id and rule file, in the order of the ids.
pub fn summarize(games: &[FinishedGame]) -> Vec<GameSummary> {
    let mut summaries: Vec<GameSummary> = Vec::new();
    for game in games {
        let at = summaries
            .iter()
            .position(|s| s.game == game.game && s.rules_hash == game.rules_hash);
        let summary = match at {
            Some(at) => &mut summaries[at],
            None => {
                summaries.push(GameSummary {
                    game: game.game.clone(),
                    rules_name: String::new(),
                    rules_hash: game.rules_hash.clone(),
                    played: 0,
                    won: 0,
                    lost: 0,
                    abandoned: 0,
                    win_rate: 0.0,
                    current_streak: 0,
                    best_streak: 0,
                    best_seconds: None,
                    fewest_moves: None,
                    bankroll: 0,
                });
                let last = summaries.len() - 1;
                &mut summaries[last]
            }
        };
        summary.rules_name.clone_from(&game.rules_name);
        summary.played += 1;
        summary.bankroll += game.casino_dollars;
        match game.outcome {
            Outcome::Won => {
                summary.won += 1;
                summary.current_streak += 1;
                summary.best_streak = summary.best_streak.max(summary.current_streak);
                summary.best_seconds = Some(
                    summary
                        .best_seconds
                        .map_or(game.seconds, |best| best.min(game.seconds)),
                );
                summary.fewest_moves = Some(
                    summary
                        .fewest_moves
                        .map_or(game.moves, |best| best.min(game.moves)),
                );
            }
            Outcome::Lost => {
                summary.lost += 1;
                summary.current_streak = 0;
            }
            Outcome::Abandoned => {
                summary.abandoned += 1;
                summary.current_streak = 0;
            }
        }
        summary.win_rate = f64::from(summary.won) / f64::from(summary.played);
    }
    summaries.sort_by(|a, b| (&a.game, &a.rules_hash).cmp(&(&b.game, &b.rules_hash)));
    summaries
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::{finished, scratch};

    /// A game of `id` ending with `outcome` after `moves` moves and `seconds`, with `cards` on the foundations.
    fn game(id: &str, outcome: Outcome, moves: u32, seconds: f64, cards: u32) -> FinishedGame {
        FinishedGame {
            game: id.to_string(),
            outcome,
            moves,
            seconds,
            cards,
            casino_dollars: 5 * i64::from(cards) - 52,
            ..finished(0)
        }
    }

    #[test]
    fn summaries_of_a_known_sequence() {
        use Outcome::{Abandoned as A, Lost as L, Won as W};
        let sequence = [
            game("canfield", W, 120, 300.0, 52),
            game("canfield", W, 110, 320.0, 52),
            game("four-seasons", L, 40, 90.0, 10),
            game("canfield", L, 60, 100.0, 17),
            game("canfield", W, 130, 250.0, 52),
            game("canfield", W, 99, 400.0, 52),
            game("canfield", W, 140, 280.0, 52),
            game("canfield", A, 3, 5.0, 1),
            game("four-seasons", W, 80, 200.0, 52),
            game("canfield", W, 150, 260.0, 52),
        ];
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        for game in &sequence {
            store.record_finished(game).expect("record");
        }
        let summaries = store.summaries(None).expect("summaries");
        assert_eq!(summaries.len(), 2);
        let canfield = &summaries[0];
        assert_eq!(canfield.game, "canfield");
        assert_eq!(
            (
                canfield.played,
                canfield.won,
                canfield.lost,
                canfield.abandoned
            ),
            (8, 6, 1, 1)
        );
        assert_eq!(canfield.win_rate, 0.75);
        assert_eq!((canfield.current_streak, canfield.best_streak), (1, 3));
        assert_eq!(canfield.best_seconds, Some(250.0));
        assert_eq!(
            canfield.fewest_moves,
            Some(99),
            "the fewest moves of a game won"
        );
        // Six wins pay 6 × $208, the loss with 17 cards $33, the abandoned game −$47.
        assert_eq!(canfield.bankroll, 6 * 208 + 33 - 47);
        let seasons = &summaries[1];
        assert_eq!((seasons.played, seasons.won), (2, 1));
        assert_eq!((seasons.current_streak, seasons.best_streak), (1, 1));
        assert_eq!(seasons.win_rate, 0.5);
        assert_eq!(seasons.fewest_moves, Some(80));
        assert_eq!(seasons.bankroll, 208 - 2);
        assert_eq!(
            store.summaries(Some("four-seasons")).expect("one game"),
            summaries[1..]
        );
    }

    #[test]
    fn a_game_never_won_has_no_best_and_a_rule_file_counts_apart() {
        let mut custom = game("canfield", Outcome::Won, 50, 60.0, 52);
        custom.rules_hash = Some("0123456789abcdef".to_string());
        let summaries = summarize(&[
            game("canfield", Outcome::Lost, 10, 20.0, 5),
            custom,
            game("canfield", Outcome::Abandoned, 0, 1.0, 1),
        ]);
        assert_eq!(summaries.len(), 2);
        let builtin = &summaries[0];
        assert_eq!(builtin.rules_hash, None);
        assert_eq!((builtin.played, builtin.won, builtin.win_rate), (2, 0, 0.0));
        assert_eq!((builtin.best_seconds, builtin.fewest_moves), (None, None));
        assert_eq!((builtin.current_streak, builtin.best_streak), (0, 0));
        assert_eq!(builtin.bankroll, -27 - 47);
        assert_eq!((summaries[1].played, summaries[1].best_streak), (1, 1));
        assert!(summarize(&[]).is_empty());
    }
}
