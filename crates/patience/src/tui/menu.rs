//! The game menu (every built-in game with its one-line description) and the screen shown while the solver looks
//! for a winnable deal.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};

use super::app::App;
use super::draw::{put, Look};

/// Draws the menu, and keeps where each game's row went for clicks.
pub fn draw(buf: &mut Buffer, area: Rect, app: &mut App, look: Look) {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let width = area.width.saturating_sub(2);
    let x = area.x + 2;
    put(buf, x, area.y + 1, "patience: choose a game", bold, width);
    let name_width = app
        .menu
        .games
        .iter()
        .map(|g| g.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut rows = Vec::new();
    let top = area.y + 3;
    for (i, rules) in app.menu.games.iter().enumerate() {
        let y = top + i as u16;
        if y + 4 >= area.bottom() {
            break;
        }
        let here = i == app.menu.cursor;
        let marker = if here { "▸ " } else { "  " };
        let ready = if app.settings.winnable_only && app.finder.is_ready(&rules.id) {
            " ✓"
        } else {
            "  "
        };
        let mut text = format!(
            "{marker}{:name_width$}{ready}  {}",
            rules.name, rules.description
        );
        if text.chars().count() > width as usize {
            text = text
                .chars()
                .take(width.saturating_sub(1) as usize)
                .collect();
            text.push('…');
        }
        let style = if here {
            look.selected(Style::default()).add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        put(buf, x, y, &text, style, width);
        rows.push((i, Rect::new(x, y, width, 1)));
    }
    app.menu.rows = rows;
    let mut y = top + app.menu.games.len() as u16 + 1;
    // The game under the cursor in full, wrapped.
    if let Some(rules) = app.menu.games.get(app.menu.cursor) {
        for line in wrap(&rules.description, width.saturating_sub(2) as usize) {
            put(buf, x + 2, y, &line, look.dim(), width);
            y += 1;
        }
        y += 1;
    }
    let winnable = if app.settings.winnable_only {
        match app.finder.searching() {
            Some(id) => format!(
                "on (looking for a winnable deal of {id}: {} tried)",
                app.finder.tried(id)
            ),
            None => "on".to_string(),
        }
    } else {
        "off".to_string()
    };
    put(
        buf,
        x,
        y,
        &format!("w  winnable deals only: {winnable}"),
        Style::default(),
        width,
    );
    y += 1;
    let back = if app.play.is_some() {
        "  ·  Esc back to the game"
    } else {
        ""
    };
    put(
        buf,
        x,
        y,
        &format!("↑↓ choose  ·  Enter or a click plays a new deal  ·  S your results  ·  ? help  ·  q quit{back}"),
        look.dim(),
        width,
    );
    if let Some(note) = &app.note {
        put(
            buf,
            x,
            y + 2,
            note,
            look.tone(super::play::Tone::Refused),
            width,
        );
    }
}

/// Draws the wait for a winnable deal.
pub fn draw_finding(buf: &mut Buffer, area: Rect, app: &mut App, look: Look) {
    let name = app
        .finding
        .as_ref()
        .map_or(String::new(), |rules| rules.name.clone());
    let id = app
        .finding
        .as_ref()
        .map_or(String::new(), |rules| rules.id.clone());
    let y = area.y + area.height / 2;
    let x = area.x + 2;
    let width = area.width.saturating_sub(2);
    put(
        buf,
        x,
        y.saturating_sub(1),
        &format!("Looking for a deal of {name} that the solver proves winnable…"),
        Style::default().add_modifier(Modifier::BOLD),
        width,
    );
    put(
        buf,
        x,
        y + 1,
        &format!(
            "{} deals tried, {:.0} s. Esc goes back to the menu.",
            app.finder.tried(&id),
            app.finder.elapsed().as_secs_f64()
        ),
        look.dim(),
        width,
    );
}

/// Words put into lines of at most `width` characters.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width.max(1) {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
