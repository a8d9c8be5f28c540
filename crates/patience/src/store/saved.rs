//! The unfinished game of each player front-end (`terminal`, `web`): its start, every move made and every move
//! undone, so that it resumes exactly as it was left, redo included.

use std::sync::Arc;

use patience_core::json::PositionJson;
use patience_core::{builtin, Game, Move, Position, RuleSet};
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::{clock, Store, StoreError};

/// A game in play, as the store keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    /// The game's id (`canfield`).
    pub game: String,
    /// The rule file's text, for a game read from one, so that it resumes without the file; `None` for a
    /// built-in game.
    pub rules_toml: Option<String>,
    /// The deal number, when the game started from one.
    pub deal: Option<u64>,
    /// The starting position's JSON, when the game did not start from a deal.
    pub start: Option<String>,
    /// The moves made, first first, in the text notation (`w-f2`, `draw`).
    pub moves: Vec<String>,
    /// The moves undone that redo would make again, in the text notation, the next one last.
    pub redo: Vec<String>,
    /// Time played so far, in seconds.
    pub seconds: f64,
    /// Whether the player has asked for a hint.
    pub hints_used: bool,
    /// Whether the player has taken a move back.
    pub undo_used: bool,
}

impl SavedGame {
    /// The saved form of `game`. `rules_toml` is the rule file's text for a game read from one.
    pub fn from_game(
        game: &Game,
        rules_toml: Option<&str>,
        seconds: f64,
        hints_used: bool,
        undo_used: bool,
    ) -> SavedGame {
        let deal = game.deal_number();
        let start = match deal {
            Some(_) => None,
            None => serde_json::to_string(&game.start().to_json(game.rules())).ok(),
        };
        SavedGame {
            game: game.rules().id.clone(),
            rules_toml: rules_toml.map(str::to_string),
            deal,
            start,
            moves: game.history().map(|mv| mv.to_string()).collect(),
            redo: game.redo_stack().iter().map(|mv| mv.to_string()).collect(),
            seconds,
            hints_used,
            undo_used,
        }
    }

    /// The rules the game is played under: those of its rule file's text, or the built-in game's.
    pub fn rules(&self) -> Result<RuleSet, StoreError> {
        match &self.rules_toml {
            Some(text) => RuleSet::from_toml("the saved game's rule file", text)
                .map_err(|e| StoreError::Resume(e.to_string())),
            None => builtin::rules(&self.game).ok_or_else(|| {
                StoreError::Resume(format!("`{}` is not a built-in game", self.game))
            }),
        }
    }

    /// The game again: its start, the moves replayed through [`Game::play`], then the undone moves played and
    /// undone so that redo works exactly as before. A move that no longer fits is refused with its place.
    pub fn to_game(&self, rules: Arc<RuleSet>) -> Result<Game, StoreError> {
        if rules.id != self.game {
            return Err(StoreError::Resume(format!(
                "it is a game of `{}`, but the rules are those of `{}`",
                self.game, rules.id
            )));
        }
        let mut game = match (self.deal, &self.start) {
            (Some(number), _) => {
                Game::new(rules, number).map_err(|e| StoreError::Resume(e.to_string()))?
            }
            (None, Some(json)) => {
                let start = PositionJson::parse(json)
                    .and_then(|json| Position::from_json(&rules, &json))
                    .map_err(|e| StoreError::Resume(format!("its start: {e}")))?;
                Game::from_position(rules, start)
            }
            (None, None) => {
                return Err(StoreError::Resume(
                    "it has neither a deal number nor a starting position".to_string(),
                ))
            }
        };
        let replay = |game: &mut Game, what: &str, place: usize, text: &str| {
            let fail = |why: String| StoreError::Resume(format!("{what} {place}, `{text}`: {why}"));
            let mv = Move::parse(text).map_err(|e| fail(e.to_string()))?;
            game.play(mv).map_err(|e| fail(e.to_string()))?;
            Ok::<(), StoreError>(())
        };
        for (i, text) in self.moves.iter().enumerate() {
            replay(&mut game, "move", i + 1, text)?;
        }
        for (i, text) in self.redo.iter().enumerate().rev() {
            replay(&mut game, "undone move", i + 1, text)?;
        }
        for _ in &self.redo {
            game.undo();
        }
        Ok(game)
    }
}

impl Store {
    /// Saves `frontend`'s unfinished game, replacing the one saved before, in one transaction.
    pub fn save_unfinished(&self, frontend: &str, game: &SavedGame) -> Result<(), StoreError> {
        if !(game.seconds.is_finite() && game.seconds >= 0.0) {
            return Err(StoreError::Invalid(format!(
                "the time played, {}, is not a number of seconds, 0 or more",
                game.seconds
            )));
        }
        self.write("save the unfinished game", |tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO unfinished_game
                     (frontend, game, rules_toml, deal, start, moves, redo, seconds, hints_used, undo_used,
                      saved_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?
            .execute(params![
                frontend,
                game.game,
                game.rules_toml,
                game.deal.map(|n| n.to_string()),
                game.start,
                game.moves.join(" "),
                game.redo.join(" "),
                game.seconds,
                game.hints_used,
                game.undo_used,
                clock::now(),
            ])?;
            Ok(())
        })
    }

    /// `frontend`'s unfinished game, if one is saved.
    pub fn load_unfinished(&self, frontend: &str) -> Result<Option<SavedGame>, StoreError> {
        type Row = (
            String,
            Option<String>,
            Option<String>,
            Option<String>,
            String,
            String,
            f64,
            bool,
            bool,
        );
        let row: Option<Row> = self
            .conn
            .prepare_cached(
                "SELECT game, rules_toml, deal, start, moves, redo, seconds, hints_used, undo_used
                 FROM unfinished_game WHERE frontend = ?1",
            )
            .and_then(|mut statement| {
                statement
                    .query_row([frontend], |row| {
                        Ok((
                            row.get(0)?,
                            row.get(1)?,
                            row.get(2)?,
                            row.get(3)?,
                            row.get(4)?,
                            row.get(5)?,
                            row.get(6)?,
                            row.get(7)?,
                            row.get(8)?,
                        ))
                    })
                    .optional()
            })
            .map_err(|e| StoreError::database(&self.path, "read the unfinished game", &e))?;
        let Some((game, rules_toml, deal, start, moves, redo, seconds, hints_used, undo_used)) =
            row
        else {
            return Ok(None);
        };
        let deal = deal
            .map(|d| {
                d.parse::<u64>().map_err(|_| StoreError::Damaged {
                    path: self.path.clone(),
                    what: format!(
                        "the unfinished game of `{frontend}`: `{d}` is not a deal number"
                    ),
                })
            })
            .transpose()?;
        let words = |text: &str| text.split_whitespace().map(str::to_string).collect();
        Ok(Some(SavedGame {
            game,
            rules_toml,
            deal,
            start,
            moves: words(&moves),
            redo: words(&redo),
            seconds,
            hints_used,
            undo_used,
        }))
    }

    /// Forgets `frontend`'s unfinished game (there may be none).
    pub fn clear_unfinished(&self, frontend: &str) -> Result<(), StoreError> {
        self.write("forget the unfinished game", |tx| {
            tx.execute(
                "DELETE FROM unfinished_game WHERE frontend = ?1",
                [frontend],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::scratch;

    fn canfield() -> Arc<RuleSet> {
        Arc::new(builtin::rules("canfield").expect("canfield"))
    }

    /// Plays `n` moves of `game`, always the legal move at `n`'s turn in the list, so that the line varies.
    fn play(game: &mut Game, n: usize) {
        for i in 0..n {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game.play(moves[(i * 7) % moves.len()]).expect("legal");
        }
    }

    /// Checks that `restored` is `game` in every way a player can see: position, history, redo, and what undo
    /// and redo do next.
    fn same(mut restored: Game, mut game: Game) {
        assert_eq!(restored.position(), game.position());
        assert_eq!(restored.start(), game.start());
        assert_eq!(restored.deal_number(), game.deal_number());
        assert!(restored.history().eq(game.history()));
        assert_eq!(restored.redo_stack(), game.redo_stack());
        while let Some(mv) = game.redo() {
            assert_eq!(restored.redo(), Some(mv));
            assert_eq!(restored.position(), game.position());
        }
        assert_eq!(restored.redo(), None);
        while let Some(mv) = game.undo() {
            assert_eq!(restored.undo(), Some(mv));
            assert_eq!(restored.position(), game.position());
        }
        assert_eq!(restored.undo(), None);
    }

    #[test]
    fn a_saved_game_resumes_exactly_with_its_redo() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        for (deal, made, undone) in [(1, 40, 7), (2, 25, 0), (3, 0, 0), (4, 60, 60), (5, 90, 3)] {
            let mut game = Game::new(canfield(), deal).expect("deal");
            play(&mut game, made);
            for _ in 0..undone {
                game.undo();
            }
            assert!(undone == 0 || !game.redo_stack().is_empty());
            let saved = SavedGame::from_game(&game, None, 61.25, deal % 2 == 0, undone > 0);
            store.save_unfinished("terminal", &saved).expect("save");
            let loaded = store
                .load_unfinished("terminal")
                .expect("load")
                .expect("saved");
            assert_eq!(loaded, saved);
            let restored = loaded
                .to_game(Arc::new(loaded.rules().expect("rules")))
                .expect("resume");
            same(restored, game);
        }
    }

    #[test]
    fn a_game_from_a_position_and_a_rule_file_resumes_without_either_file() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../games/canfield.toml"
        ))
        .expect("the rule file");
        let rules = Arc::new(RuleSet::from_toml("canfield.toml", &text).expect("rules"));
        let mut dealt = Game::new(Arc::clone(&rules), 9).expect("deal");
        play(&mut dealt, 10);
        let mut game = Game::from_position(Arc::clone(&rules), *dealt.position());
        play(&mut game, 15);
        game.undo();
        game.undo();
        let saved = SavedGame::from_game(&game, Some(&text), 5.0, false, true);
        assert!(saved.deal.is_none() && saved.start.is_some());
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        store.save_unfinished("web", &saved).expect("save");
        let loaded = store.load_unfinished("web").expect("load").expect("saved");
        assert_eq!(loaded, saved);
        let restored = loaded
            .to_game(Arc::new(
                loaded.rules().expect("the rules from the saved text"),
            ))
            .expect("resume");
        same(restored, game);
    }

    #[test]
    fn each_front_end_has_one_unfinished_game() {
        let dir = scratch();
        let (store, _) = Store::open(dir.path()).expect("open");
        let mut game = Game::new(canfield(), 1).expect("deal");
        let first = SavedGame::from_game(&game, None, 1.0, false, false);
        play(&mut game, 5);
        let second = SavedGame::from_game(&game, None, 2.0, false, false);
        store.save_unfinished("terminal", &first).expect("save");
        store.save_unfinished("web", &first).expect("save");
        store.save_unfinished("terminal", &second).expect("replace");
        assert_eq!(
            store.load_unfinished("terminal").expect("load"),
            Some(second)
        );
        assert_eq!(store.load_unfinished("web").expect("load"), Some(first));
        store.clear_unfinished("terminal").expect("clear");
        store
            .clear_unfinished("terminal")
            .expect("clearing nothing is fine");
        assert_eq!(store.load_unfinished("terminal").expect("load"), None);
        assert!(store.load_unfinished("web").expect("load").is_some());
    }

    #[test]
    fn a_save_that_no_longer_fits_is_refused_with_the_move() {
        let mut game = Game::new(canfield(), 1).expect("deal");
        play(&mut game, 3);
        let mut saved = SavedGame::from_game(&game, None, 1.0, false, false);
        saved.moves.insert(1, "t0-t0".to_string());
        let error = saved.to_game(canfield()).expect_err("refused");
        assert!(error.to_string().contains("move 2, `t0-t0`"), "{error}");
        saved.moves[1] = "nonsense".to_string();
        let error = saved.to_game(canfield()).expect_err("refused");
        assert!(error.to_string().contains("not a move"), "{error}");
        let mut other = SavedGame::from_game(&game, None, 1.0, false, false);
        other.game = "four-seasons".to_string();
        assert!(other.to_game(canfield()).is_err());
        other.deal = None;
        assert!(other.rules().is_ok());
        other.game = "no-such-game".to_string();
        assert!(other.rules().is_err());
    }
}
