//! Input mapping: which key names which pile, and what every other key and mouse click asks for.
//!
//! Piles: the tableau `1`..`9` `0` `-` `=` (left to right, upper row first), the waste `w`, the reserve `r` `t`
//! `y` `i` (Gate's posts: `r` left, `t` right), the foundations `f` (as a target, the foundation of the moving
//! card's suit; as a source, each foundation in turn), the choice row `1`..`5` while the base card is still to be
//! chosen. The stock is drawn from with `d` or space. Every pile shows its key on the screen.

use patience_core::{Pile, Position};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// Keys of the tableau piles, left to right: the keyboard's top row.
pub const TABLEAU_KEYS: [char; 12] = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '='];
/// Keys of the reserve piles.
pub const RESERVE_KEYS: [char; 4] = ['r', 't', 'y', 'i'];
/// The key of the waste.
pub const WASTE_KEY: char = 'w';
/// The key of the foundations.
pub const FOUNDATION_KEY: char = 'f';
/// The key that draws from the stock (space does too).
pub const DRAW_KEY: char = 'd';

/// What a key press or click asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A pile named by its key or clicked: a source, a target, or the source again to change how many cards.
    /// `count` is set when a click fell on a card inside the pile: that card and those above it.
    Pile {
        /// The pile.
        pile: Pile,
        /// How many cards, when a click chose them.
        count: Option<u8>,
    },
    /// `f`: the foundation of the selected card, or a foundation as a source.
    Foundation,
    /// Draw from the stock (or turn the waste over when the stock is empty).
    Draw,
    /// Take back the last move.
    Undo,
    /// Make the last undone move again.
    Redo,
    /// Back to the deal's first position (every move undone, so redo still works).
    Restart,
    /// A new random deal of the same game.
    NewDeal,
    /// The game menu.
    Menu,
    /// Turn auto-play of safe cards to the foundations on or off.
    ToggleAutoPlay,
    /// Turn "winnable deals only" on or off.
    ToggleWinnable,
    /// The next move of a winning line.
    Hint,
    /// The help overlay.
    Help,
    /// Give up the game and see the post-mortem.
    GiveUp,
    /// Go back to the position before the move that lost the game (after a post-mortem found it).
    BackToWinnable,
    /// The player's results per game.
    Summary,
    /// Leave the program (the game is saved).
    Quit,
    /// Drop the selection, close an overlay.
    Cancel,
    /// Move the cursor.
    Cursor(Direction),
    /// The pile under the cursor, as if its key were pressed.
    Enter,
    /// Scroll an overlay.
    Scroll(i16),
    /// A row of the game menu was clicked.
    MenuRow(usize),
    /// A key that names nothing here (said so, never ignored silently).
    Unknown(char),
}

/// A direction of the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Left.
    Left,
    /// Right.
    Right,
    /// Up.
    Up,
    /// Down.
    Down,
}

/// The action of a key press while a deal is played, or `None` for a key that means nothing.
pub fn action(key: KeyEvent, position: &Position) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('z') if ctrl => Action::Undo,
        KeyCode::Char('y') | KeyCode::Char('r') if ctrl => Action::Redo,
        KeyCode::Char(c) if !ctrl => match c {
            ' ' | DRAW_KEY => Action::Draw,
            'u' => Action::Undo,
            'U' => Action::Redo,
            'R' => Action::Restart,
            'n' => Action::NewDeal,
            'm' => Action::Menu,
            'a' => Action::ToggleAutoPlay,
            'W' => Action::ToggleWinnable,
            'h' => Action::Hint,
            '?' => Action::Help,
            'G' => Action::GiveUp,
            'b' => Action::BackToWinnable,
            'S' => Action::Summary,
            'q' => Action::Quit,
            FOUNDATION_KEY => Action::Foundation,
            other => match key_pile(other, position) {
                Some(pile) => Action::Pile { pile, count: None },
                None => Action::Unknown(other),
            },
        },
        KeyCode::Backspace => Action::Undo,
        KeyCode::Esc => Action::Cancel,
        KeyCode::F(1) => Action::Help,
        KeyCode::Left => Action::Cursor(Direction::Left),
        KeyCode::Right => Action::Cursor(Direction::Right),
        KeyCode::Up => Action::Cursor(Direction::Up),
        KeyCode::Down => Action::Cursor(Direction::Down),
        KeyCode::Enter => Action::Enter,
        KeyCode::PageUp => Action::Scroll(-10),
        KeyCode::PageDown => Action::Scroll(10),
        _ => return None,
    })
}

/// The key that names a pile, as the screen shows it.
pub fn pile_key(pile: Pile, position: &Position) -> Option<char> {
    match pile {
        Pile::Stock => Some(DRAW_KEY),
        Pile::Waste => Some(WASTE_KEY),
        Pile::Foundation(_) => Some(FOUNDATION_KEY),
        Pile::Reserve(i) => RESERVE_KEYS.get(i as usize).copied(),
        // While the base card is to be chosen, the digits name the cards of the choice row.
        Pile::Tableau(_) if position.choice_pending() => None,
        Pile::Tableau(i) => TABLEAU_KEYS.get(i as usize).copied(),
        Pile::Choice(i) => TABLEAU_KEYS.get(i as usize).copied(),
    }
}

/// The pile a key names, if any.
pub fn key_pile(key: char, position: &Position) -> Option<Pile> {
    if key == WASTE_KEY {
        return Some(Pile::Waste);
    }
    if let Some(i) = RESERVE_KEYS.iter().position(|&k| k == key) {
        let pile = Pile::Reserve(i as u8);
        return position.has_pile(pile).then_some(pile);
    }
    let i = TABLEAU_KEYS.iter().position(|&k| k == key)? as u8;
    let pile = if position.choice_pending() {
        Pile::Choice(i)
    } else {
        Pile::Tableau(i)
    };
    position.has_pile(pile).then_some(pile)
}

/// The action of a key press in the game menu.
pub fn menu_action(key: KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Char('w') | KeyCode::Char('W') => Action::ToggleWinnable,
        KeyCode::Char('?') | KeyCode::F(1) => Action::Help,
        KeyCode::Char('S') => Action::Summary,
        KeyCode::Char('k') | KeyCode::Up => Action::Cursor(Direction::Up),
        KeyCode::Char('j') | KeyCode::Down => Action::Cursor(Direction::Down),
        KeyCode::Enter | KeyCode::Char(' ') => Action::Enter,
        KeyCode::Esc => Action::Cancel,
        _ => return None,
    })
}

/// The action of a key press while an overlay (help, summary) is open.
pub fn overlay_action(key: KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Up | KeyCode::Char('k') => Action::Scroll(-1),
        KeyCode::Down | KeyCode::Char('j') => Action::Scroll(1),
        KeyCode::PageUp => Action::Scroll(-10),
        KeyCode::PageDown | KeyCode::Char(' ') => Action::Scroll(10),
        _ => Action::Cancel,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;

    #[test]
    fn keys_and_piles_match_both_ways() {
        for rules in builtin::games() {
            let position = Position::deal(rules, 1).expect("deal 1");
            for pile in position.piles() {
                if let Some(key) = pile_key(pile, &position) {
                    if pile != Pile::Stock {
                        assert_eq!(key_pile(key, &position), Some(pile), "{}", rules.id);
                    }
                }
            }
        }
    }

    #[test]
    fn digits_name_the_choice_row_until_the_choice() {
        let rules = builtin::rules("selective-canfield").expect("selective");
        let position = Position::deal(&rules, 1).expect("deal 1");
        assert_eq!(key_pile('3', &position), Some(Pile::Choice(2)));
        assert_eq!(pile_key(Pile::Tableau(0), &position), None);
    }
}
