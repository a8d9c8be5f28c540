//! The overlays: help (every key, then the game's rules in words, generated from its rule set) and the player's
//! results per game.

use patience_core::describe::describe_text;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use super::app::{App, Overlay};
use super::draw::Look;
use super::menu::wrap;

/// Every key of the player, as the help shows them.
pub const KEYS: &[(&str, &str)] = &[
    ("1-9 0 - =", "tableau piles, left to right (upper row first); the choice row before the base card is chosen"),
    ("w", "the waste"),
    ("r t", "the reserve piles (Gate's posts: r left, t right)"),
    ("f", "the selected card to its foundation; with nothing selected, a foundation (again: the next one)"),
    ("d, space", "draw from the stock (or turn the waste over when the stock is empty)"),
    ("", "A move: the source's key, then the target's. The source's key again takes fewer cards of a run."),
    ("arrows, Enter", "move the cursor (▸) over the piles; Enter works as the pile's key"),
    ("mouse", "click a card (inside a run: that card and those above it), then where it goes; click the stock to draw"),
    ("u, Backspace", "undo (without limit)"),
    ("U, Ctrl-R", "redo"),
    ("R", "restart: back to the deal's first position (U brings the moves back)"),
    ("h", "hint: the next move of a winning line, from the solver"),
    ("a", "auto-play of safe cards to the foundations, on or off"),
    ("G", "give up, and see the post-mortem"),
    ("b", "after a post-mortem: back to the position before the move that lost the game"),
    ("n", "a new deal of this game"),
    ("m", "the game menu"),
    ("W", "winnable deals only, on or off"),
    ("S", "your results per game"),
    ("?, F1", "this help"),
    ("Esc", "drop the selection or the hint; close the post-mortem or this window"),
    ("q, Ctrl-C", "quit (the game is kept and resumed next time)"),
];

/// The indicator's words, as the help explains them.
const INDICATOR: &str = "Top right, the solver says in the background whether the position can still be won: \
● winnable, ✗ no longer winnable, ? unknown (it could not decide in time), … checking. The solver is thoughtful: \
it knows the order of the stock and of the face-down reserve cards.";

/// Draws an overlay over the middle of the screen.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App, overlay: Overlay, look: Look) {
    let (title, text, scroll) = match overlay {
        Overlay::Help(scroll) => (
            " Help: keys and rules (Esc closes, ↑↓ scroll) ",
            help_text(app, area.width.saturating_sub(6).min(98) as usize),
            scroll,
        ),
        Overlay::Summary(scroll) => (" Your results (Esc closes) ", summary_text(app), scroll),
    };
    let width = area.width.saturating_sub(4).min(100);
    let height = area.height.saturating_sub(2);
    let window = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    Clear.render(window, buf);
    let lines = text.lines().count() as u16;
    let scroll = scroll.min(lines.saturating_sub(height.saturating_sub(2)));
    Paragraph::new(text)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .title(title)
                .title_style(Style::default().add_modifier(Modifier::BOLD))
                .border_style(look.dim()),
        )
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .render(window, buf);
}

/// The help, in lines of `width` characters at most: the keys, the indicator, then the rules of the game in play
/// (or of the game under the menu's cursor).
pub fn help_text(app: &App, width: usize) -> String {
    let mut text = String::from("Keys\n");
    for (key, what) in KEYS {
        let indent = if key.is_empty() { 2 } else { 17 };
        for (i, line) in wrap(what, width.saturating_sub(indent))
            .into_iter()
            .enumerate()
        {
            if i == 0 && !key.is_empty() {
                text.push_str(&format!("  {key:<14} {line}\n"));
            } else {
                text.push_str(&format!("{:indent$}{line}\n", ""));
            }
        }
    }
    text.push('\n');
    text.push_str(INDICATOR);
    text.push_str("\n\n");
    let rules = match &app.play {
        Some(play) => play.rules().clone(),
        None => (*app.menu.games[app.menu.cursor]).clone(),
    };
    text.push_str("The rules of ");
    text.push_str(&describe_text(&rules));
    text
}

fn summary_text(app: &App) -> String {
    if app.summary.is_empty() {
        return "No finished games recorded yet.".to_string();
    }
    app.summary.join("\n")
}
