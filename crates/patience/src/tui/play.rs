//! One deal being played: the game with its history, the selected source pile, the cursor, the status message
//! and the clock. Every move goes through the rules engine; a move it refuses is reported with its reason.

use std::sync::Arc;
use std::time::{Duration, Instant};

use patience_core::rules::Moves;
use patience_core::{Game, Move, Pile, Position, RuleSet};
use patience_solver::prune::Pruning;

use super::keys;
use crate::render::describe_move;

/// The pile chosen as the source of the next move, and how many of its cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection {
    /// The source pile.
    pub pile: Pile,
    /// How many of its top cards move.
    pub count: u8,
    /// Whether the player chose the count (by a click on a card or by pressing the pile's key again); otherwise the
    /// count is fitted to the target.
    pub explicit: bool,
}

/// The tone of the status line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// What just happened.
    Info,
    /// A move refused, or something that cannot be done.
    Refused,
    /// Won.
    Good,
    /// A hint.
    Hint,
}

/// The status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Its text.
    pub text: String,
    /// How it is coloured.
    pub tone: Tone,
}

impl Message {
    fn new(text: impl Into<String>, tone: Tone) -> Message {
        Message {
            text: text.into(),
            tone,
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Moves are left to make.
    Playing,
    /// Every card is on the foundations.
    Won,
    /// Nothing but cycling the stock is left.
    Stuck,
}

/// The time spent on a deal: it runs while the game is played and stops when it is won or stuck.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    banked: Duration,
    since: Option<Instant>,
}

impl Clock {
    /// A clock that has counted `banked` already and runs from now.
    pub fn running(banked: Duration) -> Clock {
        Clock {
            banked,
            since: Some(Instant::now()),
        }
    }

    /// The time counted.
    pub fn elapsed(&self) -> Duration {
        self.banked + self.since.map_or(Duration::ZERO, |s| s.elapsed())
    }

    fn stop(&mut self) {
        self.banked = self.elapsed();
        self.since = None;
    }

    fn start(&mut self) {
        if self.since.is_none() {
            self.since = Some(Instant::now());
        }
    }
}

/// A deal being played.
#[derive(Debug)]
pub struct Play {
    /// The game and its history.
    pub game: Game,
    /// The source pile chosen, if any.
    pub selection: Option<Selection>,
    /// The pile the arrow keys point at.
    pub cursor: Pile,
    /// The status line.
    pub message: Message,
    /// The time spent.
    pub clock: Clock,
    /// The move a hint showed, highlighted until the position changes.
    pub hint: Option<Move>,
    /// Where the game stands.
    pub state: State,
    /// Whether the player gave up.
    pub gave_up: bool,
    /// Whether the game was won at some point (and recorded).
    pub was_won: bool,
    /// Whether the player asked for a hint.
    pub hints_used: bool,
    /// Whether the player took a move back.
    pub undo_used: bool,
    /// Whether the game has been recorded as finished (it is then neither saved nor recorded again).
    pub recorded: bool,
    /// The rule file's text, for a game read from one (the store keeps it with the game).
    pub rules_toml: Option<String>,
    pruning: Pruning,
}

impl Play {
    /// Starts a game from its first position or from a saved one, with `elapsed` already on the clock.
    pub fn new(game: Game, elapsed: Duration) -> Play {
        let pruning = Pruning::for_rules(game.rules());
        let cursor = if game.position().choice_pending() {
            Pile::Choice(0)
        } else {
            Pile::Tableau(0)
        };
        let mut play = Play {
            game,
            selection: None,
            cursor,
            message: Message::new("", Tone::Info),
            clock: Clock::running(elapsed),
            hint: None,
            state: State::Playing,
            gave_up: false,
            was_won: false,
            hints_used: false,
            undo_used: false,
            recorded: false,
            rules_toml: None,
            pruning,
        };
        play.update_state();
        play.message = Message::new(play.opening(), Tone::Info);
        play
    }

    /// The rules.
    pub fn rules(&self) -> &RuleSet {
        self.game.rules()
    }

    /// The rules, shared.
    pub fn shared_rules(&self) -> Arc<RuleSet> {
        self.game.shared_rules()
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Sets the status line.
    pub fn say(&mut self, text: impl Into<String>, tone: Tone) {
        self.message = Message::new(text, tone);
    }

    /// A pile named by its key or clicked: selects it as the source, changes how many of its cards move when it is
    /// the source already, or makes the move from the source to it. Returns whether a move was made.
    pub fn press(&mut self, pile: Pile, count: Option<u8>) -> bool {
        if pile == Pile::Stock {
            return self.draw();
        }
        match self.selection {
            None => {
                self.select(pile, count);
                false
            }
            Some(sel) if sel.pile == pile => {
                self.reselect(sel, count);
                false
            }
            Some(sel) => {
                let mv = self.fit(sel, pile);
                self.selection = None;
                self.make(mv)
            }
        }
    }

    /// `f`: the selected card to its foundation, or with nothing selected, the next foundation as a source.
    pub fn foundation(&mut self) -> bool {
        match self.selection {
            Some(sel) if !matches!(sel.pile, Pile::Foundation(_)) => {
                let position = self.position();
                let Some(card) = position.top(sel.pile) else {
                    self.selection = None;
                    return false;
                };
                let mv = Move::new(sel.pile, Pile::Foundation(card.suit() as u8), 1);
                self.selection = None;
                self.make(mv)
            }
            other => {
                // Foundations as sources, each in turn (cards come back only in some games).
                let start = match other {
                    Some(Selection {
                        pile: Pile::Foundation(s),
                        ..
                    }) => s + 1,
                    _ => 0,
                };
                let position = *self.position();
                match (start..4).find(|&s| position.len(Pile::Foundation(s)) > 0) {
                    Some(s) => self.select(Pile::Foundation(s), None),
                    None => {
                        self.selection = None;
                        if start == 0 {
                            self.say("the foundations are empty", Tone::Refused);
                        } else {
                            self.say("", Tone::Info);
                        }
                    }
                }
                false
            }
        }
    }

    /// Draws from the stock, or turns the waste over when the stock is empty and the rules allow it.
    pub fn draw(&mut self) -> bool {
        self.selection = None;
        let position = *self.position();
        let mv = match position.stock_move(self.rules()) {
            Some(mv) => mv,
            // Let the engine say why: the stock is empty, no redeal is left, the choice comes first…
            None if position.len(Pile::Stock) == 0 && position.len(Pile::Waste) > 0 => {
                Move::new(Pile::Waste, Pile::Stock, position.len(Pile::Waste) as u8)
            }
            None => Move::new(Pile::Stock, Pile::Waste, 0),
        };
        self.make(mv)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        self.selection = None;
        match self.game.undo() {
            Some(mv) => {
                self.undo_used = true;
                self.say(format!("undid {mv}"), Tone::Info);
                self.after_change();
                true
            }
            None => {
                self.say(
                    "nothing to undo: this is the deal's first position",
                    Tone::Refused,
                );
                false
            }
        }
    }

    /// Makes the last undone move again.
    pub fn redo(&mut self) -> bool {
        self.selection = None;
        match self.game.redo() {
            Some(mv) => {
                self.say(format!("redid {mv}"), Tone::Info);
                self.after_change();
                true
            }
            None => {
                self.say("nothing to redo", Tone::Refused);
                false
            }
        }
    }

    /// Back to the deal's first position, every move undone (so that redo can bring them back).
    pub fn restart(&mut self) -> bool {
        self.selection = None;
        let mut undone = 0;
        while self.game.undo().is_some() {
            undone += 1;
        }
        self.gave_up = false;
        self.undo_used |= undone > 0;
        self.say(
            format!("back to the deal's first position ({undone} moves undone; U redoes them)"),
            Tone::Info,
        );
        self.after_change();
        undone > 0
    }

    /// Undoes moves until `moves` are left.
    pub fn back_to(&mut self, moves: usize) -> bool {
        self.selection = None;
        let mut undone = 0;
        while self.game.move_count() > moves && self.game.undo().is_some() {
            undone += 1;
        }
        self.after_change();
        undone > 0
    }

    /// Plays the safe moves to the foundations the solver's pruning proves (auto-play); returns how many.
    pub fn auto_play(&mut self) -> usize {
        let mut made = 0;
        while self.state == State::Playing {
            let Some(mv) = self.pruning.safe_move(self.rules(), self.position()) else {
                break;
            };
            if self.game.play(mv).is_err() {
                break;
            }
            made += 1;
            self.update_state();
        }
        if made > 0 {
            self.after_change();
        }
        made
    }

    /// Makes a move through the engine; a refused move leaves everything as it was and says why.
    pub fn make(&mut self, mv: Move) -> bool {
        let before = *self.position();
        let words = describe_move(&before, before.complete(self.rules(), mv));
        match self.game.play(mv) {
            Ok(_) => {
                self.say(words, Tone::Info);
                self.after_change();
                true
            }
            Err(illegal) => {
                self.say(format!("{}: {}", illegal.mv, illegal.reason), Tone::Refused);
                false
            }
        }
    }

    /// The legal counts of cards that can move from a pile, largest first.
    pub fn legal_counts(&self, pile: Pile) -> Vec<u8> {
        let mut counts = Vec::new();
        self.position()
            .for_each_legal_move_from(self.rules(), pile, |mv| {
                if !mv.is_stock_move() && !counts.contains(&mv.count) {
                    counts.push(mv.count);
                }
            });
        counts.sort_unstable_by(|a, b| b.cmp(a));
        counts
    }

    /// The key presses that make `mv` from here with nothing selected: the source's key (pressed again as often
    /// as it takes to reach the move's count), then the target's; `d` for a draw or a redeal. `None` when a pile
    /// of the move has no key.
    pub fn keys_for(&self, mv: Move) -> Option<Vec<char>> {
        let position = self.position();
        if mv.is_stock_move() {
            return Some(vec![keys::DRAW_KEY]);
        }
        let mut presses = match mv.from {
            Pile::Foundation(suit) => {
                let before = (0..suit)
                    .filter(|&s| position.len(Pile::Foundation(s)) > 0)
                    .count();
                vec![keys::FOUNDATION_KEY; before + 1]
            }
            from => {
                let key = keys::pile_key(from, position)?;
                let first = self.first_count(from);
                let auto = self.fit(
                    Selection {
                        pile: from,
                        count: first,
                        explicit: false,
                    },
                    mv.to,
                );
                let again = if auto.count == mv.count {
                    0
                } else {
                    let counts = self.legal_counts(from);
                    if !counts.contains(&mv.count) {
                        return None;
                    }
                    counts
                        .iter()
                        .filter(|&&c| c < first && c >= mv.count)
                        .count()
                };
                vec![key; again + 1]
            }
        };
        presses.push(match mv.to {
            Pile::Foundation(_) => keys::FOUNDATION_KEY,
            to => keys::pile_key(to, position)?,
        });
        Some(presses)
    }

    /// How many cards a selection of `pile` takes at first: the most any legal move of it takes, else what its
    /// rules move.
    fn first_count(&self, pile: Pile) -> u8 {
        if let Some(&most) = self.legal_counts(pile).first() {
            return most;
        }
        let len = self.position().len(pile);
        match pile {
            Pile::Tableau(_) if self.rules().tableau.moves == Moves::WholePile => len.max(1) as u8,
            _ => 1,
        }
    }

    fn select(&mut self, pile: Pile, count: Option<u8>) {
        let len = self.position().len(pile);
        if len == 0 {
            self.say(format!("{} is empty", pile_name(pile)), Tone::Refused);
            return;
        }
        let count = count.map(|c| c.min(len as u8));
        self.selection = Some(Selection {
            pile,
            count: count.unwrap_or_else(|| self.first_count(pile)),
            explicit: count.is_some(),
        });
        self.cursor = pile;
        self.say(self.selection_words(), Tone::Info);
    }

    /// The source chosen again: a click on one of its cards takes that many; its key again takes the next
    /// smaller legal count, and after the smallest drops the selection.
    fn reselect(&mut self, sel: Selection, count: Option<u8>) {
        let next = match count {
            Some(c) if c != sel.count => Some(c),
            Some(_) => None,
            None => self
                .legal_counts(sel.pile)
                .into_iter()
                .find(|&c| c < sel.count),
        };
        match next {
            Some(count) => {
                self.selection = Some(Selection {
                    count,
                    explicit: true,
                    ..sel
                });
                self.say(self.selection_words(), Tone::Info);
            }
            None => {
                self.selection = None;
                self.say("", Tone::Info);
            }
        }
    }

    fn selection_words(&self) -> String {
        let Some(sel) = self.selection else {
            return String::new();
        };
        let cards = self.position().cards(sel.pile);
        let moving: Vec<String> = cards[cards.len().saturating_sub(sel.count as usize)..]
            .iter()
            .map(ToString::to_string)
            .collect();
        let more = if self.legal_counts(sel.pile).len() > 1 {
            " (the same key again for fewer cards)"
        } else {
            ""
        };
        format!(
            "{} selected: where to? (Esc drops it){more}",
            moving.join(" ")
        )
    }

    /// The move from the selection to `to`: with the count the player chose, or the legal one for that target.
    fn fit(&self, sel: Selection, to: Pile) -> Move {
        let wanted = Move::new(sel.pile, to, sel.count);
        if sel.explicit {
            return wanted;
        }
        let mut fitting: Option<Move> = None;
        self.position()
            .for_each_legal_move_from(self.rules(), sel.pile, |mv| {
                let larger = match fitting {
                    Some(f) => mv.count > f.count,
                    None => true,
                };
                if mv.to == to && larger {
                    fitting = Some(mv);
                }
            });
        fitting.unwrap_or(wanted)
    }

    fn after_change(&mut self) {
        self.hint = None;
        self.update_state();
    }

    /// Works out whether the game is won or stuck, and says so.
    pub fn update_state(&mut self) {
        let before = self.state;
        self.state = if self.game.is_won() {
            State::Won
        } else if self.game.is_stuck() {
            State::Stuck
        } else {
            State::Playing
        };
        match self.state {
            State::Playing => self.clock.start(),
            State::Won | State::Stuck => self.clock.stop(),
        }
        if self.state != before {
            match self.state {
                State::Won => {
                    self.was_won = true;
                    self.say(
                        format!(
                            "Won in {} moves, {}! n deals again, m chooses another game.",
                            self.game.move_count(),
                            clock_text(self.clock.elapsed())
                        ),
                        Tone::Good,
                    );
                }
                State::Stuck => self.say(
                    "Stuck: nothing but turning the stock is left. u undoes; the post-mortem is below.",
                    Tone::Refused,
                ),
                State::Playing => {}
            }
        }
    }

    fn opening(&self) -> String {
        if self.position().choice_pending() {
            "Choose the base card: its key (1-5), then f; or click it, then its foundation."
                .to_string()
        } else {
            "A pile's key (or a click) takes its card, a second one puts it there. ? shows every key.".to_string()
        }
    }
}

/// A pile in words, for messages.
pub fn pile_name(pile: Pile) -> String {
    match pile {
        Pile::Stock => "the stock".into(),
        Pile::Waste => "the waste".into(),
        Pile::Foundation(s) => format!(
            "the {} foundation",
            patience_core::Suit::from_index(s as usize).symbol()
        ),
        Pile::Reserve(i) => format!("reserve pile {}", i + 1),
        Pile::Tableau(i) => format!("tableau pile {}", i + 1),
        Pile::Choice(i) => format!("choice card {}", i + 1),
    }
}

/// A duration as `m:ss`, or `h:mm:ss` past an hour.
pub fn clock_text(elapsed: Duration) -> String {
    let secs = elapsed.as_secs();
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;

    fn play(id: &str, deal: u64) -> Play {
        let rules = Arc::new(builtin::rules(id).expect("game"));
        Play::new(Game::new(rules, deal).expect("deal"), Duration::ZERO)
    }

    #[test]
    fn an_illegal_move_is_refused_with_the_engines_reason() {
        let mut p = play("canfield", 1);
        assert!(!p.press(Pile::Tableau(0), None));
        assert!(!p.press(Pile::Tableau(3), None));
        assert_eq!(p.message.tone, Tone::Refused);
        assert!(
            p.message.text.contains("KS does not go on KH"),
            "{}",
            p.message.text
        );
        assert_eq!(p.game.move_count(), 0);
    }

    #[test]
    fn source_then_target_makes_the_move_and_undo_takes_it_back() {
        let mut p = play("canfield", 1);
        assert!(!p.press(Pile::Reserve(0), None));
        assert!(p.press(Pile::Tableau(3), None));
        assert_eq!(p.message.text, "QC onto KH");
        assert!(p.undo());
        assert_eq!(p.game.move_count(), 0);
        assert!(p.redo());
        assert_eq!(p.game.move_count(), 1);
    }

    #[test]
    fn the_same_key_again_cycles_the_counts_then_drops_the_selection() {
        // Chameleon moves any run: find a deal and pile with a run of two.
        let rules = Arc::new(builtin::rules("chameleon").expect("game"));
        for deal in 1..1000 {
            let mut p = Play::new(
                Game::new(Arc::clone(&rules), deal).expect("deal"),
                Duration::ZERO,
            );
            let Some(mv) = p.game.legal_moves().into_iter().find(|m| {
                m.count == 1
                    && matches!(m.from, Pile::Tableau(_))
                    && matches!(m.to, Pile::Tableau(_))
            }) else {
                continue;
            };
            p.make(mv);
            let counts = p.legal_counts(mv.to);
            if counts.len() < 2 {
                continue;
            }
            p.press(mv.to, None);
            assert_eq!(p.selection.map(|s| s.count), Some(counts[0]));
            p.press(mv.to, None);
            assert_eq!(p.selection.map(|s| s.count), Some(counts[1]));
            for _ in 2..counts.len() {
                p.press(mv.to, None);
            }
            p.press(mv.to, None);
            assert_eq!(p.selection, None);
            return;
        }
        panic!("no deal with a run to cycle");
    }
}
