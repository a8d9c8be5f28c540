//! Games held on the server: each a session with its game, its analysis and what the player has done, in a map
//! keyed by a random id and bounded in size (starting a game past the bound forgets the one left alone longest).

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;
use std::time::Instant;

use patience_core::rules::{Layout, Redeals, ScoreKind};
use patience_core::{Game, IllegalMove, Move, RuleSet};
use patience_solver::prune::Pruning;
use serde::Serialize;

use super::analysis::{Analysis, Pool, Status, QUICK};
use super::postmortem::PostMortem;
use crate::store::{FinishedGame, Outcome, SavedGame};

/// One game in play.
#[derive(Debug)]
pub struct Session {
    /// The game: rules, start, moves, undo and redo.
    pub game: Game,
    /// The rule file's text, for a game read from one.
    pub rules_toml: Option<String>,
    /// The background solver of the game's positions.
    pub analysis: Analysis,
    /// Whether safe cards go to the foundations by themselves after each move.
    pub autoplay: bool,
    /// Whether the deal was picked as one the solver proved winnable.
    pub proved_winnable: bool,
    /// Whether the player has asked for a hint.
    pub hints_used: bool,
    /// Whether the player has taken a move back.
    pub undo_used: bool,
    /// Whether the game has been recorded as finished.
    pub recorded: bool,
    /// The post-mortem, once asked for.
    pub postmortem: Option<PostMortem>,
    /// The moves the last request made, in order (a move and the safe moves auto-play added).
    pub last: Vec<Move>,
    pruning: Pruning,
    /// How many moves each player action made (a move and its auto-play are one action), so that undo and redo
    /// take them back and make them again together.
    done_actions: Vec<usize>,
    undone_actions: Vec<usize>,
    /// Time played before this session (a resumed game's).
    seconds_before: f64,
    started: Instant,
    touched: u64,
}

impl Session {
    /// A new session for `game`, its analysis searching in `pool`.
    pub fn new(game: Game, rules_toml: Option<String>, pool: Pool) -> Session {
        let rules = game.shared_rules();
        let session = Session {
            analysis: Analysis::new(Arc::clone(&rules), pool),
            pruning: Pruning::for_rules(&rules),
            game,
            rules_toml,
            autoplay: false,
            proved_winnable: false,
            hints_used: false,
            undo_used: false,
            recorded: false,
            postmortem: None,
            last: Vec::new(),
            done_actions: Vec::new(),
            undone_actions: Vec::new(),
            seconds_before: 0.0,
            started: Instant::now(),
            touched: 0,
        };
        session.analysis.look_at(session.game.position(), QUICK);
        session
    }

    /// A session that resumes a saved game.
    pub fn resume(game: Game, saved: &SavedGame, pool: Pool) -> Session {
        let mut session = Session::new(game, saved.rules_toml.clone(), pool);
        session.seconds_before = saved.seconds;
        session.hints_used = saved.hints_used;
        session.undo_used = saved.undo_used;
        session.done_actions = vec![1; session.game.move_count()];
        session.undone_actions = vec![1; session.game.redo_stack().len()];
        session
    }

    /// Plays a move, then the safe moves when auto-play is on; one action for undo.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let before = *self.game.position();
        let played = self.game.play(mv)?;
        self.last = vec![played];
        self.analysis.moved(&before, self.game.position());
        self.auto_play();
        self.done_actions.push(self.last.len());
        self.undone_actions.clear();
        self.changed();
        Ok(())
    }

    /// Turns auto-play on or off; turning it on plays the safe moves at once (as an action of its own).
    pub fn set_autoplay(&mut self, on: bool) {
        self.autoplay = on;
        self.last.clear();
        self.auto_play();
        if !self.last.is_empty() {
            self.done_actions.push(self.last.len());
            self.undone_actions.clear();
            self.changed();
        }
    }

    /// Takes back the last action; false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        let count = self.done_actions.pop().unwrap_or(1);
        self.last.clear();
        for _ in 0..count {
            match self.game.undo() {
                Some(mv) => self.last.push(mv),
                None => break,
            }
        }
        if self.last.is_empty() {
            return false;
        }
        self.undone_actions.push(self.last.len());
        self.undo_used = true;
        self.changed();
        true
    }

    /// Makes the last undone action again; false when nothing was undone.
    pub fn redo(&mut self) -> bool {
        let count = self.undone_actions.pop().unwrap_or(1);
        self.last.clear();
        for _ in 0..count {
            match self.game.redo() {
                Some(mv) => self.last.push(mv),
                None => break,
            }
        }
        if self.last.is_empty() {
            return false;
        }
        self.done_actions.push(self.last.len());
        self.changed();
        true
    }

    /// Goes back to the deal.
    pub fn restart(&mut self) {
        self.game.restart();
        self.last.clear();
        self.done_actions.clear();
        self.undone_actions.clear();
        self.changed();
    }

    /// Time played, in seconds.
    pub fn seconds(&self) -> f64 {
        self.seconds_before + self.started.elapsed().as_secs_f64()
    }

    /// The record of the game if it ended now (won, lost when stuck, abandoned otherwise).
    pub fn finished(&self) -> FinishedGame {
        FinishedGame::from_game(
            &self.game,
            self.rules_toml.as_deref(),
            Outcome::of(&self.game),
            self.seconds(),
            self.hints_used,
            self.undo_used,
        )
    }

    /// The game as the store saves it to be resumed.
    pub fn saved(&self) -> SavedGame {
        SavedGame::from_game(
            &self.game,
            self.rules_toml.as_deref(),
            self.seconds(),
            self.hints_used,
            self.undo_used,
        )
    }

    /// The state the API answers with.
    pub fn state(&self, id: &str) -> State {
        let game = &self.game;
        let rules = game.rules();
        let position = game.position();
        let (status, _) = self.analysis.status(position);
        State {
            id: id.to_string(),
            game: rules.id.clone(),
            name: rules.name.clone(),
            deal: game.deal_number(),
            position: serde_json::to_value(position.to_json(rules)).unwrap_or_default(),
            legal_moves: game
                .legal_moves()
                .into_iter()
                .map(|mv| LegalMove {
                    notation: mv.to_string(),
                    mv,
                })
                .collect(),
            move_count: game.move_count(),
            can_undo: game.move_count() > 0,
            can_redo: !game.redo_stack().is_empty(),
            score: Score {
                cards: game.score().cards,
                casino_dollars: game.score().casino_dollars,
                pack_size: rules.pack_size(),
                kind: match rules.score.default {
                    ScoreKind::Cards => "cards",
                    ScoreKind::Casino => "casino",
                },
            },
            won: game.is_won(),
            stuck: game.is_stuck(),
            winnable: status,
            proved_winnable: self.proved_winnable,
            autoplay: self.autoplay,
            layout: LayoutHints::of(rules),
            last: self.last.iter().map(ToString::to_string).collect(),
            recorded: self.recorded,
            seconds: self.seconds(),
        }
    }

    /// Plays the safe moves to the foundations while there are any, adding them to `last`.
    fn auto_play(&mut self) {
        if !self.autoplay {
            return;
        }
        // At most one move a card: each safe move puts a card on a foundation.
        for _ in 0..self.game.rules().pack_size() {
            let Some(mv) = self
                .pruning
                .safe_move(self.game.rules(), self.game.position())
            else {
                break;
            };
            let before = *self.game.position();
            match self.game.play(mv) {
                Ok(mv) => self.last.push(mv),
                Err(_) => break,
            }
            self.analysis.moved(&before, self.game.position());
        }
    }

    /// After any change: the winnable status of the new position is looked into, the post-mortem forgotten.
    fn changed(&mut self) {
        self.postmortem = None;
        self.analysis.look_at(self.game.position(), QUICK);
    }
}

/// The state of a game, as the API writes it (`docs/web-api.md`).
#[derive(Debug, Serialize)]
pub struct State {
    /// The session's id.
    pub id: String,
    /// The game's id.
    pub game: String,
    /// The game's name.
    pub name: String,
    /// The deal number, `null` for a game not started from one.
    pub deal: Option<u64>,
    /// The position JSON (`docs/position-json.md`).
    pub position: serde_json::Value,
    /// Every legal move.
    pub legal_moves: Vec<LegalMove>,
    /// Moves made.
    pub move_count: usize,
    /// Whether there is a move to take back.
    pub can_undo: bool,
    /// Whether there is an undone move to make again.
    pub can_redo: bool,
    /// The score.
    pub score: Score,
    /// Whether every card is on the foundations.
    pub won: bool,
    /// Whether nothing but cycling the stock is left.
    pub stuck: bool,
    /// Whether the position can still be won, as far as the background solver knows now.
    pub winnable: Status,
    /// Whether the deal was picked as one the solver proved winnable.
    pub proved_winnable: bool,
    /// Whether safe cards go to the foundations by themselves.
    pub autoplay: bool,
    /// How the screens lay the game out.
    pub layout: LayoutHints,
    /// The moves the request made (a move and its auto-play; for undo, the moves taken back, last first).
    pub last: Vec<String>,
    /// Whether the game has been recorded as finished.
    pub recorded: bool,
    /// Time played, in seconds.
    pub seconds: f64,
}

/// A legal move: the move JSON with its notation.
#[derive(Debug, Serialize)]
pub struct LegalMove {
    /// The move.
    #[serde(flatten)]
    pub mv: Move,
    /// The move in the notation.
    pub notation: String,
}

/// The score.
#[derive(Debug, Serialize)]
pub struct Score {
    /// Cards on the foundations.
    pub cards: usize,
    /// Casino dollars: the cards times the pay per card, less the price of the pack.
    pub casino_dollars: i64,
    /// Cards in the pack.
    pub pack_size: usize,
    /// The score the game shows first: `cards` or `casino`.
    pub kind: &'static str,
}

/// What the screens need to lay a game out, from its rule set.
#[derive(Debug, Serialize)]
pub struct LayoutHints {
    /// `row`, `cross`, `two-rows` or `rails`.
    pub tableau: &'static str,
    /// Tableau piles.
    pub tableau_piles: usize,
    /// The most cards each tableau pile may hold (`null`: no limit).
    pub capacity: Vec<Option<usize>>,
    /// The size of each reserve pile at the deal.
    pub reserve: Vec<u8>,
    /// Whether every reserve card shows (Gate's posts) or only the top one (Canfield's reserve).
    pub reserve_face_up: bool,
    /// Cards in the choice row at the deal (Selective Canfield), 0 without one.
    pub choice: usize,
    /// Cards a draw turns.
    pub draw: u8,
    /// Redeals the game allows (`null`: without limit).
    pub redeals: Option<u8>,
    /// Ranks in each suit (13 for a full pack).
    pub ranks: u8,
}

impl LayoutHints {
    /// The hints of a rule set.
    pub fn of(rules: &RuleSet) -> LayoutHints {
        let piles = rules.tableau.piles as usize;
        LayoutHints {
            tableau: match rules.tableau.layout {
                Layout::Row => "row",
                Layout::Cross => "cross",
                Layout::TwoRows => "two-rows",
                Layout::Rails => "rails",
            },
            tableau_piles: piles,
            capacity: (0..piles)
                .map(|i| Some(rules.capacity(i)).filter(|&c| c < rules.pack_size()))
                .collect(),
            reserve: rules.reserve.piles.clone(),
            reserve_face_up: rules.reserve.face_up,
            choice: rules.choice_cards(),
            draw: rules.stock.draw,
            redeals: match rules.stock.redeals {
                Redeals::Limited(n) => Some(n),
                Redeals::Unlimited => None,
            },
            ranks: rules.pack.ranks,
        }
    }
}

/// The sessions, by id, at most a fixed number.
#[derive(Debug)]
pub struct Sessions {
    map: HashMap<String, Session>,
    limit: usize,
    clock: u64,
    ids: RandomState,
    made: u64,
}

impl Sessions {
    /// No session yet; at most `limit` at once.
    pub fn new(limit: usize) -> Sessions {
        Sessions {
            map: HashMap::new(),
            limit: limit.max(1),
            clock: 0,
            ids: RandomState::new(),
            made: 0,
        }
    }

    /// Adds a session under a new id, forgetting the one left alone longest if the map is full; returns the id.
    pub fn insert(&mut self, mut session: Session) -> String {
        while self.map.len() >= self.limit {
            let oldest = self
                .map
                .iter()
                .min_by_key(|(_, s)| s.touched)
                .map(|(id, _)| id.clone());
            match oldest {
                Some(id) => self.map.remove(&id),
                None => break,
            };
        }
        let id = self.new_id();
        self.clock += 1;
        session.touched = self.clock;
        self.map.insert(id.clone(), session);
        id
    }

    /// The session with this id, marked as just used.
    pub fn get(&mut self, id: &str) -> Option<&mut Session> {
        self.clock += 1;
        let clock = self.clock;
        let session = self.map.get_mut(id)?;
        session.touched = clock;
        Some(session)
    }

    /// Forgets a session; false when there was none.
    pub fn remove(&mut self, id: &str) -> bool {
        self.map.remove(id).is_some()
    }

    /// A fresh random id: 32 hex digits, never one in use.
    fn new_id(&mut self) -> String {
        loop {
            self.made += 1;
            let mut halves = [0u64; 2];
            for (i, half) in halves.iter_mut().enumerate() {
                let mut hasher = self.ids.build_hasher();
                hasher.write_u64(self.made);
                hasher.write_usize(i);
                hasher.write_u128(
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_nanos()),
                );
                *half = hasher.finish();
            }
            let id = format!("{:016x}{:016x}", halves[0], halves[1]);
            if !self.map.contains_key(&id) {
                return id;
            }
        }
    }
}
