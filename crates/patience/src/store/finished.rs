//! Finished games: the record of each game played to its end (won, lost or abandoned), and the player's history.

use std::fmt;
use std::str::FromStr;

use patience_core::Game;
use rusqlite::{params, Row};
use serde::{Deserialize, Serialize};

use super::{clock, Store, StoreError};

/// One game played to its end, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame {
    /// The record's number in the store (rising with time); `None` until it is recorded.
    pub id: Option<i64>,
    /// The game's id (`canfield`), the built-in game's or the rule file's.
    pub game: String,
    /// The game's name for people (`Canfield`).
    pub rules_name: String,
    /// For a game read from a rule file, [`rules_hash`] of the file's text; `None` for a built-in game.
    pub rules_hash: Option<String>,
    /// The deal number, when the game started from one (not from a position).
    pub deal: Option<u64>,
    /// How it ended.
    pub outcome: Outcome,
    /// Moves made (undone moves do not count).
    pub moves: u32,
    /// Time played, in seconds.
    pub seconds: f64,
    /// Cards on the foundations at the end.
    pub cards: u32,
    /// Casino dollars won or lost: `5 × cards − 52` under the usual scoring (the pack was a bet of $52).
    pub casino_dollars: i64,
    /// When it ended: UTC, RFC 3339 (`2025-03-01T18:04:05Z`).
    pub finished_at: String,
    /// Whether the player asked for a hint.
    pub hints_used: bool,
    /// Whether the player took a move back.
    pub undo_used: bool,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every card reached the foundations.
    Won,
    /// No move was left.
    Lost,
    /// The player stopped while moves were left.
    Abandoned,
}

impl Outcome {
    /// How a game stands if it ends now: won, lost when it is stuck, abandoned otherwise.
    #[allow(
        dead_code,
        reason = "the store's API for the players (terminal and web); used by tests until they call it"
    )]
    pub fn of(game: &Game) -> Outcome {
        if game.is_won() {
            Outcome::Won
        } else if game.is_stuck() {
            Outcome::Lost
        } else {
            Outcome::Abandoned
        }
    }

    /// The word the store and the JSON use: `won`, `lost`, `abandoned`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::Lost => "lost",
            Outcome::Abandoned => "abandoned",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Outcome {
    type Err = String;

    fn from_str(text: &str) -> Result<Outcome, String> {
        match text {
            "won" => Ok(Outcome::Won),
            "lost" => Ok(Outcome::Lost),
            "abandoned" => Ok(Outcome::Abandoned),
            _ => Err(format!(
                "`{text}` is not an outcome: expected won, lost or abandoned"
            )),
        }
    }
}

impl FinishedGame {
    /// The record of `game` ending now with `outcome`: its moves and score as they stand. `rules_toml` is the
    /// rule file's text for a game read from one (`None` for a built-in game).
    pub fn from_game(
        game: &Game,
        rules_toml: Option<&str>,
        outcome: Outcome,
        seconds: f64,
        hints_used: bool,
        undo_used: bool,
    ) -> FinishedGame {
        let score = game.score();
        FinishedGame {
            id: None,
            game: game.rules().id.clone(),
            rules_name: game.rules().name.clone(),
            rules_hash: rules_toml.map(rules_hash),
            deal: game.deal_number(),
            outcome,
            moves: u32::try_from(game.move_count()).unwrap_or(u32::MAX),
            seconds,
            cards: u32::try_from(score.cards).unwrap_or(u32::MAX),
            casino_dollars: score.casino_dollars,
            finished_at: clock::now(),
            hints_used,
            undo_used,
        }
    }
}

/// The hash that tells rule files apart: FNV-1a (64 bits) of the file's text, as 16 hex digits. Stable across
/// versions of patience and platforms.
pub fn rules_hash(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

impl Store {
    /// Records a finished game in one transaction; returns its id.
    pub fn record_finished(&self, game: &FinishedGame) -> Result<i64, StoreError> {
        check_seconds(game.seconds)?;
        self.write("record the finished game", |tx| insert(tx, game))
    }

    /// Records a finished game and forgets `frontend`'s unfinished game, in one transaction, so that a crash
    /// between the two can neither lose the record nor resume a game already recorded.
    pub fn finish(&self, frontend: &str, game: &FinishedGame) -> Result<i64, StoreError> {
        check_seconds(game.seconds)?;
        self.write("record the finished game", |tx| {
            let id = insert(tx, game)?;
            tx.execute(
                "DELETE FROM unfinished_game WHERE frontend = ?1",
                [frontend],
            )?;
            Ok(id)
        })
    }

    /// The finished games, oldest first: all of them, or those of one game id.
    pub fn history(&self, game: Option<&str>) -> Result<Vec<FinishedGame>, StoreError> {
        let action = "read the finished games";
        let fail = |e: rusqlite::Error| StoreError::database(&self.path, action, &e);
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT id, game, rules_name, rules_hash, deal, outcome, moves, seconds, cards, casino_dollars,
                        finished_at, hints_used, undo_used
                 FROM finished_game WHERE ?1 IS NULL OR game = ?1 ORDER BY id",
            )
            .map_err(fail)?;
        let rows = statement.query_map([game], read_row).map_err(fail)?;
        let mut games = Vec::new();
        for row in rows {
            let game = row.map_err(fail)?.map_err(|what| StoreError::Damaged {
                path: self.path.clone(),
                what,
            })?;
            games.push(game);
        }
        Ok(games)
    }
}

fn check_seconds(seconds: f64) -> Result<(), StoreError> {
    if seconds.is_finite() && seconds >= 0.0 {
        Ok(())
    } else {
        Err(StoreError::Invalid(format!(
            "the time played, {seconds}, is not a number of seconds, 0 or more"
        )))
    }
}

fn insert(tx: &rusqlite::Transaction, game: &FinishedGame) -> rusqlite::Result<i64> {
    tx.prepare_cached(
        "INSERT INTO finished_game (game, rules_name, rules_hash, deal, outcome, moves, seconds, cards,
                                    casino_dollars, finished_at, hints_used, undo_used)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        game.game,
        game.rules_name,
        game.rules_hash,
        game.deal.map(|n| n.to_string()),
        game.outcome.as_str(),
        game.moves,
        game.seconds,
        game.cards,
        game.casino_dollars,
        game.finished_at,
        game.hints_used,
        game.undo_used,
    ])?;
    Ok(tx.last_insert_rowid())
}

/// A row of `finished_game`: a database error outside, a row that makes no sense inside.
fn read_row(row: &Row) -> rusqlite::Result<Result<FinishedGame, String>> {
    let id: i64 = row.get(0)?;
    let deal: Option<String> = row.get(4)?;
    let outcome: String = row.get(5)?;
    let deal = match deal.map(|d| d.parse::<u64>().map_err(|_| d)).transpose() {
        Ok(deal) => deal,
        Err(bad) => {
            return Ok(Err(format!(
                "finished game {id}: `{bad}` is not a deal number"
            )))
        }
    };
    let outcome = match outcome.parse() {
        Ok(outcome) => outcome,
        Err(why) => return Ok(Err(format!("finished game {id}: {why}"))),
    };
    Ok(Ok(FinishedGame {
        id: Some(id),
        game: row.get(1)?,
        rules_name: row.get(2)?,
        rules_hash: row.get(3)?,
        deal,
        outcome,
        moves: row.get(6)?,
        seconds: row.get(7)?,
        cards: row.get(8)?,
        casino_dollars: row.get(9)?,
        finished_at: row.get(10)?,
        hints_used: row.get(11)?,
        undo_used: row.get(12)?,
    }))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use patience_core::builtin;

    use super::*;
    use crate::store::tests::{finished, scratch};

    #[test]
    fn finished_games_round_trip_field_for_field() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        let mut games = vec![finished(1), finished(2), finished(3)];
        games[1].deal = Some(u64::MAX);
        games[1].rules_hash = Some(rules_hash("id = \"mine\""));
        games[1].rules_name = "Mine, with \"quotes\"".to_string();
        games[2].deal = None;
        games[2].game = "four-seasons".to_string();
        games[2].casino_dollars = -47;
        for game in &mut games {
            game.id = Some(store.record_finished(game).expect("record"));
        }
        assert!(games[0].id < games[1].id && games[1].id < games[2].id);
        assert_eq!(store.history(None).expect("history"), games);
        assert_eq!(
            store.history(Some("four-seasons")).expect("history"),
            games[2..]
        );
        assert!(store.history(Some("klondike")).expect("history").is_empty());
    }

    #[test]
    fn a_game_is_recorded_as_it_stands() {
        let rules = Arc::new(builtin::rules("canfield").expect("canfield"));
        let mut game = Game::new(rules, 3).expect("deal 3");
        let first = game.legal_moves()[0];
        game.play(first).expect("legal");
        let record = FinishedGame::from_game(&game, None, Outcome::of(&game), 12.5, true, false);
        assert_eq!(record.game, "canfield");
        assert_eq!(record.deal, Some(3));
        assert_eq!(record.moves, 1);
        assert_eq!(record.outcome, Outcome::of(&game));
        assert_eq!(i64::from(record.cards) * 5 - 52, record.casino_dollars);
        assert_eq!(record.rules_hash, None);
        let custom = FinishedGame::from_game(&game, Some("text"), Outcome::Lost, 1.0, false, true);
        assert_eq!(
            custom.rules_hash.as_deref(),
            Some(rules_hash("text").as_str())
        );
    }

    #[test]
    fn a_game_left_is_lost_when_stuck_and_abandoned_otherwise() {
        let rules = Arc::new(builtin::rules("canfield").expect("canfield"));
        let outcomes: Vec<Outcome> = (1..=40)
            .map(|deal| {
                let game = Game::new(Arc::clone(&rules), deal).expect("deal");
                let outcome = Outcome::of(&game);
                let expected = if game.is_stuck() {
                    Outcome::Lost
                } else {
                    Outcome::Abandoned
                };
                assert_eq!(outcome, expected, "deal {deal}");
                outcome
            })
            .collect();
        assert!(outcomes.contains(&Outcome::Lost) && outcomes.contains(&Outcome::Abandoned));
    }

    #[test]
    fn the_rules_hash_is_fnv1a() {
        assert_eq!(rules_hash(""), "cbf29ce484222325");
        assert_eq!(rules_hash("a"), "af63dc4c8601ec8c");
        assert_ne!(rules_hash("draw = 1"), rules_hash("draw = 3"));
    }

    #[test]
    fn finish_records_and_forgets_the_unfinished_game_at_once() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        let rules = Arc::new(builtin::rules("canfield").expect("canfield"));
        let game = Game::new(rules, 1).expect("deal 1");
        let saved = crate::store::SavedGame::from_game(&game, None, 3.0, false, false);
        store.save_unfinished("terminal", &saved).expect("save");
        store.save_unfinished("web", &saved).expect("save");
        store.finish("terminal", &finished(1)).expect("finish");
        assert_eq!(store.load_unfinished("terminal").expect("load"), None);
        assert!(store.load_unfinished("web").expect("load").is_some());
        assert_eq!(store.history(None).expect("history").len(), 1);
    }

    #[test]
    fn a_time_that_is_not_a_number_is_refused_and_nothing_is_written() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        for seconds in [f64::NAN, -1.0, f64::INFINITY] {
            let mut game = finished(1);
            game.seconds = seconds;
            let error = store.record_finished(&game).expect_err("refused");
            assert!(
                error.to_string().contains("not a number of seconds"),
                "{error}"
            );
        }
        assert!(store.history(None).expect("history").is_empty());
    }
}
