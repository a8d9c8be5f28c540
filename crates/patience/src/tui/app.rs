//! The player's state: which screen shows (the game menu, the search for a winnable deal, a deal in play), the
//! overlays, the background solver's findings, and what each key or click does to them.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::Duration;

use patience_core::{builtin, Game, Move, Position, RuleSet};
use patience_solver::analysis::{Known, Outcome};
use ratatui::crossterm::event::{KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};

use super::analysis::{Analysis, Winnable, HARD, QUICK};
use super::board::Board;
use super::event::Event;
use super::finder::{random_deal, Finder};
use super::keys::{self, Action, Direction};
use super::play::{Play, State, Tone};
use super::postmortem::{Ending, PostMortem};
use super::record::{Record, Resumed};
use crate::render::describe_move;
use crate::store::Outcome as StoreOutcome;

/// The player's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// Red suits in red (off when `NO_COLOR` is set).
    pub colour: bool,
    /// Safe cards go to the foundations by themselves after each move.
    pub auto_play: bool,
    /// New random deals are ones the solver has proved winnable.
    pub winnable_only: bool,
    /// The background solver runs (the indicator, hints, post-mortems).
    pub solver: bool,
    /// The time the post-mortem's solver gets for each position it asks about.
    pub probe: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            colour: true,
            auto_play: true,
            winnable_only: false,
            solver: true,
            probe: super::postmortem::PROBE,
        }
    }
}

/// What the player sees first.
#[derive(Debug, Clone)]
pub enum Start {
    /// The game menu; `deal` is the deal number of the game chosen first, if one was given.
    Menu {
        /// The deal number for the first game chosen.
        deal: Option<u64>,
    },
    /// A game at once: deal `deal`, or a random one.
    Deal {
        /// The game.
        rules: Arc<RuleSet>,
        /// The deal number; random without it.
        deal: Option<u64>,
    },
    /// The game left unfinished last time, resumed.
    Resume(Box<Resumed>),
}

/// Which screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    /// The list of games.
    Menu,
    /// Waiting for the solver to prove a random deal winnable.
    Finding,
    /// A deal in play.
    Play,
}

/// A window over the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overlay {
    /// The keys and the game's rules, scrolled down this many lines.
    Help(u16),
    /// The player's results per game, scrolled down this many lines.
    Summary(u16),
}

/// The game menu.
#[derive(Debug, Clone)]
pub struct Menu {
    /// The games: a rule file's game first when one was given, then the built-in games.
    pub games: Vec<Arc<RuleSet>>,
    /// The game under the cursor.
    pub cursor: usize,
    /// Where each game's row was drawn (for clicks), by index into `games`.
    pub rows: Vec<(usize, ratatui::layout::Rect)>,
}

/// The terminal player.
pub struct App {
    /// The settings.
    pub settings: Settings,
    /// The screen showing.
    pub screen: Screen,
    /// The game menu.
    pub menu: Menu,
    /// The deal in play, if any.
    pub play: Option<Play>,
    /// The overlay shown, if any.
    pub overlay: Option<Overlay>,
    /// The background solver of the positions in play.
    pub analysis: Analysis,
    /// The search for winnable deals.
    pub finder: Finder,
    /// The post-mortem of the game in play, once it is lost or given up.
    pub postmortem: Option<PostMortem>,
    /// Where the piles were last drawn.
    pub board: Board,
    /// The game the finding screen waits for.
    pub finding: Option<Arc<RuleSet>>,
    /// A note to show on the menu (a resumed game that could not be read, say).
    pub note: Option<String>,
    /// The player's results per game, as text lines (filled by the store, when there is one).
    pub summary: Vec<String>,
    /// Whether the player asked to leave.
    pub quit: bool,
    /// The deal number asked for on the command line, for the first game chosen from the menu.
    first_deal: Option<u64>,
    /// Whether a hint was asked for and waits for the solver.
    hint_pending: bool,
    /// The rule file's text of the game read from one (saved with its games).
    custom_toml: Option<String>,
    /// The player's record.
    pub record: Record,
    postmortems: u64,
    rx: Receiver<Event>,
    tx: Sender<Event>,
}

impl App {
    /// A player with these settings, starting as `start` says, keeping its record in `record`; `custom` is a
    /// game read from a rule file (with the file's text), listed first in the menu.
    pub fn new(
        settings: Settings,
        start: Start,
        custom: Option<(Arc<RuleSet>, Option<String>)>,
        record: Record,
    ) -> App {
        let (custom, custom_toml) = match custom {
            Some((rules, toml)) => (Some(rules), toml),
            None => (None, None),
        };
        let (tx, rx) = channel();
        let mut games: Vec<Arc<RuleSet>> = custom.into_iter().collect();
        games.extend(builtin::games().iter().cloned().map(Arc::new));
        let first_rules = match &start {
            Start::Deal { rules, .. } => Arc::clone(rules),
            Start::Resume(resumed) => resumed.game.shared_rules(),
            Start::Menu { .. } => Arc::clone(&games[0]),
        };
        let mut app = App {
            settings,
            screen: Screen::Menu,
            menu: Menu {
                games,
                cursor: 0,
                rows: Vec::new(),
            },
            play: None,
            overlay: None,
            analysis: Analysis::new(first_rules, tx.clone(), settings.solver),
            finder: Finder::new(tx.clone()),
            postmortem: None,
            board: Board::default(),
            finding: None,
            note: None,
            summary: Vec::new(),
            quit: false,
            first_deal: None,
            hint_pending: false,
            custom_toml,
            record,
            postmortems: 0,
            rx,
            tx,
        };
        match start {
            Start::Menu { deal } => {
                app.first_deal = deal;
                app.open_menu();
            }
            Start::Deal { rules, deal } => {
                app.point_menu_at(&rules);
                app.new_deal(rules, deal);
            }
            Start::Resume(resumed) => {
                let rules = resumed.game.shared_rules();
                app.point_menu_at(&rules);
                let resumed = *resumed;
                let mut play = Play::new(resumed.game, resumed.elapsed);
                play.hints_used = resumed.hints_used;
                play.undo_used = resumed.undo_used;
                play.rules_toml = resumed.rules_toml;
                app.begin(play);
                if let Some(play) = &mut app.play {
                    play.say(
                        format!(
                            "Resumed where you left off ({} moves). n deals anew, m chooses another game.",
                            play.game.move_count()
                        ),
                        Tone::Info,
                    );
                }
            }
        }
        app
    }

    /// Takes a key press.
    pub fn key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        let action = if self.overlay.is_some() {
            keys::overlay_action(key)
        } else {
            match (self.screen, &self.play) {
                (Screen::Play, Some(play)) => keys::action(key, play.position()),
                _ => keys::menu_action(key),
            }
        };
        if let Some(action) = action {
            self.act(action);
        }
    }

    /// Takes a mouse event: a left click on a pile or a menu row, a right click to drop the selection, the wheel
    /// to scroll an overlay.
    pub fn mouse(&mut self, event: MouseEvent) {
        let action = match event.kind {
            MouseEventKind::Down(MouseButton::Left) => self.click(event.column, event.row),
            MouseEventKind::Down(MouseButton::Right) => Some(Action::Cancel),
            MouseEventKind::ScrollDown if self.overlay.is_some() => Some(Action::Scroll(3)),
            MouseEventKind::ScrollUp if self.overlay.is_some() => Some(Action::Scroll(-3)),
            _ => None,
        };
        if let Some(action) = action {
            self.act(action);
        }
    }

    fn click(&self, x: u16, y: u16) -> Option<Action> {
        if self.overlay.is_some() {
            return Some(Action::Cancel);
        }
        match self.screen {
            Screen::Menu => self
                .menu
                .rows
                .iter()
                .find(|(_, r)| y == r.y && x >= r.x && x < r.right())
                .map(|&(i, _)| Action::MenuRow(i)),
            Screen::Finding => None,
            Screen::Play => {
                let play = self.play.as_ref()?;
                match self.board.hit(play.position(), x, y) {
                    Some((pile, count)) => Some(Action::Pile { pile, count }),
                    None => Some(Action::Cancel),
                }
            }
        }
    }

    /// Does what an action asks.
    pub fn act(&mut self, action: Action) {
        if action == Action::Quit {
            self.leave();
            return;
        }
        if let Some(overlay) = self.overlay {
            match (action, overlay) {
                (Action::Scroll(by), Overlay::Help(at)) => {
                    self.overlay = Some(Overlay::Help(scroll(at, by)));
                }
                (Action::Scroll(by), Overlay::Summary(at)) => {
                    self.overlay = Some(Overlay::Summary(scroll(at, by)));
                }
                _ => self.overlay = None,
            }
            return;
        }
        match self.screen {
            Screen::Menu => self.menu_act(action),
            Screen::Finding => {
                if matches!(action, Action::Cancel | Action::Menu) {
                    self.finding = None;
                    self.open_menu();
                }
            }
            Screen::Play => self.play_act(action),
        }
    }

    fn menu_act(&mut self, action: Action) {
        let games = self.menu.games.len();
        match action {
            Action::Cursor(Direction::Up) => {
                self.menu.cursor = (self.menu.cursor + games - 1) % games;
                self.want_winnable_deal();
            }
            Action::Cursor(Direction::Down) => {
                self.menu.cursor = (self.menu.cursor + 1) % games;
                self.want_winnable_deal();
            }
            Action::MenuRow(i) if i < games => {
                self.menu.cursor = i;
                self.choose_game();
            }
            Action::Enter => self.choose_game(),
            Action::ToggleWinnable => self.toggle_winnable(),
            Action::Help => self.overlay = Some(Overlay::Help(0)),
            Action::Summary => self.show_summary(),
            Action::Cancel if self.play.is_some() => self.screen = Screen::Play,
            _ => {}
        }
    }

    fn play_act(&mut self, action: Action) {
        let Some(play) = self.play.as_mut() else {
            self.open_menu();
            return;
        };
        let before = *play.position();
        let moves_before = play.game.move_count();
        let forward = match action {
            Action::Pile { pile, count } => play.press(pile, count),
            Action::Foundation => play.foundation(),
            Action::Draw => play.draw(),
            Action::Undo => {
                play.undo();
                false
            }
            Action::Redo => {
                play.redo();
                false
            }
            Action::Restart => {
                play.restart();
                false
            }
            Action::Enter => {
                let cursor = play.cursor;
                match (cursor, play.selection) {
                    (patience_core::Pile::Foundation(_), Some(sel))
                        if !matches!(sel.pile, patience_core::Pile::Foundation(_)) =>
                    {
                        play.foundation()
                    }
                    _ => play.press(cursor, None),
                }
            }
            Action::Cursor(direction) => {
                if let Some(next) = self.board.neighbour(play.cursor, direction) {
                    play.cursor = next;
                }
                false
            }
            Action::Cancel => {
                if play.selection.is_some() || play.hint.is_some() {
                    play.selection = None;
                    play.hint = None;
                    play.say("", Tone::Info);
                } else if self.postmortem.is_some() {
                    self.postmortem = None;
                }
                false
            }
            Action::NewDeal => {
                let rules = play.shared_rules();
                self.new_deal(rules, None);
                return;
            }
            Action::Menu => {
                self.open_menu();
                return;
            }
            Action::ToggleAutoPlay => {
                self.settings.auto_play = !self.settings.auto_play;
                let on = self.settings.auto_play;
                play.say(
                    if on {
                        "auto-play on: safe cards go to the foundations by themselves"
                    } else {
                        "auto-play off"
                    },
                    Tone::Info,
                );
                on && play.auto_play() > 0
            }
            Action::ToggleWinnable => {
                self.toggle_winnable();
                return;
            }
            Action::Hint => {
                self.hint();
                return;
            }
            Action::Help => {
                self.overlay = Some(Overlay::Help(0));
                return;
            }
            Action::Summary => {
                self.show_summary();
                return;
            }
            Action::GiveUp => {
                self.give_up();
                return;
            }
            Action::BackToWinnable => {
                self.back_to_winnable();
                return;
            }
            Action::Unknown(c) => {
                play.say(
                    format!("`{c}` names no pile or command in this game; ? shows every key"),
                    Tone::Refused,
                );
                false
            }
            Action::Quit | Action::Scroll(_) | Action::MenuRow(_) => false,
        };
        self.changed(before, moves_before, forward);
    }

    /// After a change of position: auto-play, the indicator's solve, the post-mortem when the game is stuck.
    fn changed(&mut self, before: Position, moves_before: usize, forward: bool) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        if forward && self.settings.auto_play {
            play.auto_play();
        }
        let now = *play.position();
        if now == before && play.game.move_count() == moves_before {
            return;
        }
        if forward {
            self.analysis.moved(&before, &now);
        }
        self.analysis.look_at(&now);
        if play.state == State::Stuck {
            let already = self
                .postmortem
                .as_ref()
                .is_some_and(|pm| pm.ending == Ending::Stuck && pm.moves == play.game.move_count());
            if !already {
                self.start_postmortem(Ending::Stuck);
            }
        }
        self.after_move();
    }

    /// After every change to the game in play: a won game is recorded, any other saved to be resumed.
    fn after_move(&mut self) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        let toml = play.rules_toml.clone();
        let result = if play.state == State::Won {
            self.record.finish(play, StoreOutcome::Won, toml.as_deref())
        } else {
            self.record.save(play, toml.as_deref())
        };
        if let Err(e) = result {
            play.say(format!("not saved: {e}"), Tone::Refused);
        }
    }

    fn hint(&mut self) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        let position = *play.position();
        play.hints_used = true;
        if !self.settings.solver {
            play.say("the solver is turned off", Tone::Refused);
            return;
        }
        match self.analysis.winnable(&position) {
            Winnable::Unknown => {
                self.analysis.think_harder(&position);
                self.hint_pending = true;
                play.say(
                    format!(
                        "The solver could not decide in {} s; it thinks for {} s more…",
                        QUICK.as_secs(),
                        HARD.as_secs()
                    ),
                    Tone::Hint,
                );
            }
            Winnable::Checking | Winnable::Off => {
                self.analysis.look_at(&position);
                self.hint_pending = true;
                play.say("Thinking…", Tone::Hint);
            }
            _ => {
                self.hint_pending = true;
                self.show_hint();
            }
        }
    }

    /// Shows the hint for the position in play, if the solver has decided it.
    fn show_hint(&mut self) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        let position = *play.position();
        let text = match self.analysis.knowledge().get(&position) {
            _ if position.is_won() => "The game is won.".to_string(),
            Some(Known::Winnable { line, at }) => match line.get(*at) {
                Some(&mv) => {
                    play.hint = Some(mv);
                    format!(
                        "Hint: {} ({}); {} moves to the win.",
                        mv,
                        describe_move(&position, mv),
                        line.len() - at
                    )
                }
                None => "The game is won.".to_string(),
            },
            Some(Known::Lost) => {
                "No hint: no line of moves wins from here any more. u undoes; G gives up and \
                 shows where the game was lost."
                    .to_string()
            }
            Some(Known::Unknown(limit)) => {
                if self.analysis.is_running(&position) {
                    return;
                }
                format!(
                    "No hint: the solver could not decide this position in {} s. h again tries longer.",
                    limit.as_secs()
                )
            }
            None => return,
        };
        self.hint_pending = false;
        play.say(text, Tone::Hint);
    }

    fn show_summary(&mut self) {
        let current = match (&self.play, self.screen) {
            (Some(play), Screen::Play) => play.rules().id.clone(),
            _ => self.menu.games[self.menu.cursor].id.clone(),
        };
        self.summary = self.record.summary(Some(&current));
        self.overlay = Some(Overlay::Summary(0));
    }

    fn give_up(&mut self) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        if play.state == State::Won {
            play.say("The game is won: nothing to give up.", Tone::Info);
            return;
        }
        play.gave_up = true;
        play.selection = None;
        play.say(
            "You gave up. The post-mortem is below; u and b still go back, n deals anew.",
            Tone::Refused,
        );
        self.start_postmortem(Ending::GaveUp);
        self.after_move();
    }

    fn start_postmortem(&mut self, ending: Ending) {
        let Some(play) = self.play.as_ref() else {
            return;
        };
        if !self.settings.solver {
            return;
        }
        let rules = play.shared_rules();
        let moves: Vec<Move> = play.game.history().collect();
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut position = *play.game.start();
        positions.push(position);
        for &mv in &moves {
            position.apply(&rules, mv);
            positions.push(position);
        }
        let mut known: Vec<Option<Outcome>> = positions
            .iter()
            .map(|p| self.analysis.knowledge().outcome(p, self.settings.probe))
            .collect();
        if ending == Ending::Stuck {
            if let Some(last) = known.last_mut() {
                *last = Some(Outcome::Lost);
            }
        }
        self.postmortems += 1;
        self.postmortem = Some(PostMortem::start(
            self.postmortems,
            ending,
            rules,
            positions,
            moves,
            known,
            self.analysis.generation(),
            self.settings.probe,
            self.tx.clone(),
        ));
    }

    fn back_to_winnable(&mut self) {
        let Some(play) = self.play.as_mut() else {
            return;
        };
        let Some(pm) = &self.postmortem else {
            play.say(
                "b goes back to before the move that lost the game, once a post-mortem has found it (G gives up).",
                Tone::Refused,
            );
            return;
        };
        let Some(before) = pm.back_to() else {
            play.say(
                "The post-mortem has not found the move that lost the game (yet).",
                Tone::Refused,
            );
            return;
        };
        let moves_before = play.game.move_count();
        let position_before = *play.position();
        play.back_to(before);
        play.gave_up = false;
        play.undo_used = true;
        play.say(
            format!(
                "Back before move {}: this position can be won. h shows the next move of a winning line.",
                before + 1
            ),
            Tone::Good,
        );
        self.changed(position_before, moves_before, false);
    }

    fn toggle_winnable(&mut self) {
        self.settings.winnable_only = !self.settings.winnable_only;
        let on = self.settings.winnable_only;
        if on {
            self.want_winnable_deal();
        } else {
            self.finder.stop();
        }
        if let Some(play) = self.play.as_mut() {
            play.say(
                if on {
                    "winnable deals only: new deals are ones the solver has proved winnable"
                } else {
                    "winnable deals only: off; new deals are any deal"
                },
                Tone::Info,
            );
        }
    }

    /// Starts the search for a winnable deal of the game under the menu's cursor (or in play), when the setting
    /// is on.
    fn want_winnable_deal(&mut self) {
        if !self.settings.winnable_only || !self.settings.solver {
            return;
        }
        let rules = match (self.screen, &self.play) {
            (Screen::Play, Some(play)) => play.shared_rules(),
            _ => Arc::clone(&self.menu.games[self.menu.cursor]),
        };
        self.finder.want(&rules);
    }

    fn open_menu(&mut self) {
        self.screen = Screen::Menu;
        self.want_winnable_deal();
    }

    fn point_menu_at(&mut self, rules: &RuleSet) {
        if let Some(i) = self.menu.games.iter().position(|g| g.id == rules.id) {
            self.menu.cursor = i;
        }
    }

    fn choose_game(&mut self) {
        let rules = Arc::clone(&self.menu.games[self.menu.cursor]);
        let deal = self.first_deal.take();
        self.new_deal(rules, deal);
    }

    /// Leaves the game in play (if any) for deal `deal` of `rules`, or a random deal (a proved winnable one with
    /// the setting on).
    pub fn new_deal(&mut self, rules: Arc<RuleSet>, deal: Option<u64>) {
        let number = match deal {
            Some(n) => n,
            None if self.settings.winnable_only && self.settings.solver => {
                match self.finder.take_ready(&rules.id) {
                    Some(n) => n,
                    None => {
                        self.finder.want(&rules);
                        self.finding = Some(rules);
                        self.screen = Screen::Finding;
                        return;
                    }
                }
            }
            None => random_deal(),
        };
        match Game::new(rules, number) {
            Ok(game) => {
                self.finish_game();
                let mut play = Play::new(game, Duration::ZERO);
                play.rules_toml = self.toml_of(&play.shared_rules());
                self.begin(play);
            }
            Err(e) => {
                self.note = Some(e.to_string());
                self.open_menu();
            }
        }
    }

    /// The rule file's text when `rules` are those of the game read from one.
    fn toml_of(&self, rules: &RuleSet) -> Option<String> {
        let custom = self.menu.games.first()?;
        (self.custom_toml.is_some() && **custom == *rules)
            .then(|| self.custom_toml.clone())
            .flatten()
    }

    fn begin(&mut self, play: Play) {
        self.analysis.set_rules(play.shared_rules());
        self.postmortem = None;
        self.hint_pending = false;
        self.finding = None;
        self.screen = Screen::Play;
        let position = *play.position();
        let moves = play.game.move_count();
        self.play = Some(play);
        // Prepare the next winnable deal while this one is played.
        self.want_winnable_deal();
        self.analysis.look_at(&position);
        let start_state = self.play.as_ref().map(|p| p.state);
        if start_state == Some(State::Stuck) {
            self.start_postmortem(Ending::Stuck);
        }
        if self.settings.auto_play && moves == 0 {
            self.changed(position, moves, true);
        } else {
            self.after_move();
        }
    }

    /// Ends the game in play before another begins: recorded as lost (stuck, given up) or abandoned.
    fn finish_game(&mut self) {
        if let Some(mut play) = self.play.take() {
            let toml = play.rules_toml.clone();
            if let Err(e) = self.record.leave(&mut play, toml.as_deref()) {
                self.note = Some(format!("not recorded: {e}"));
            }
        }
    }

    /// Leaves the program: the game in play is saved for next time, or recorded as lost when it is over.
    fn leave(&mut self) {
        if let Some(play) = self.play.as_mut() {
            let toml = play.rules_toml.clone();
            if let Err(e) = self.record.quit(play, toml.as_deref()) {
                eprintln!("patience: {e}");
            }
        }
        self.analysis.cancel();
        self.finder.stop();
        self.postmortem = None;
        self.quit = true;
    }

    /// Takes every report the background threads have sent.
    pub fn tick(&mut self) {
        while let Ok(event) = self.rx.try_recv() {
            self.receive(event);
        }
        let problems = self.record.problems();
        if !problems.is_empty() {
            let text = format!("not saved: {}", problems.join("; "));
            match self.play.as_mut() {
                Some(play) => play.say(text, Tone::Refused),
                None => self.note = Some(text),
            }
        }
    }

    /// Waits up to `timeout` for a report from the background threads and takes it with any others; returns
    /// whether one came. For tests that need the solver's answer.
    #[cfg(test)]
    pub fn wait(&mut self, timeout: Duration) -> bool {
        match self.rx.recv_timeout(timeout) {
            Ok(event) => {
                self.receive(event);
                self.tick();
                true
            }
            Err(_) => false,
        }
    }

    /// Waits until `done` holds or `timeout` passes; returns whether it holds.
    #[cfg(test)]
    pub fn wait_until(&mut self, timeout: Duration, mut done: impl FnMut(&App) -> bool) -> bool {
        let end = std::time::Instant::now() + timeout;
        loop {
            self.tick();
            if done(self) {
                return true;
            }
            let left = end.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            self.wait(left.min(Duration::from_millis(100)));
        }
    }

    fn receive(&mut self, event: Event) {
        match event {
            Event::Solved {
                generation,
                position,
                verdict,
                limit,
            } => {
                self.analysis.take(generation, position, verdict, limit);
                if self.hint_pending {
                    self.show_hint();
                }
            }
            Event::PostMortem { id, update } => {
                if let Some(pm) = self.postmortem.as_mut().filter(|pm| pm.id == id) {
                    pm.take(update);
                }
            }
            Event::Finder(found) => {
                self.finder.take(found);
                if let Some(rules) = self.finding.clone() {
                    if let Some(number) = self.finder.take_ready(&rules.id) {
                        self.new_deal(rules, Some(number));
                    }
                }
            }
        }
    }

    /// What the indicator shows for the position in play.
    pub fn winnable(&self) -> Winnable {
        match &self.play {
            Some(play) => self.analysis.winnable(play.position()),
            None => Winnable::Off,
        }
    }
}

fn scroll(at: u16, by: i16) -> u16 {
    at.saturating_add_signed(by)
}
