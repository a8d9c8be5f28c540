//! Drawing a deal in play: the title and the counts above, the piles as the board places them, the post-mortem,
//! the status line and the keys below. Red suits are red on a card-white ground; without colour (`NO_COLOR`) the
//! red suits are drawn hollow (♡ ♢) and the selection in reverse video.

use patience_core::rules::{Redeals, ScoreKind};
use patience_core::{Card, Pile, Suit};
use patience_solver::analysis::{Fatal, Outcome};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::Frame;

use super::analysis::Winnable;
use super::app::{App, Screen};
use super::board::{column_lines, Board, ColumnLine, Shape, Spot, CARD_WIDTH};
use super::keys::pile_key;
use super::play::{clock_text, Play, State, Tone};
use super::postmortem::{Ending, PostMortem};
use super::{help, menu};

/// Lines above the board: the title, the counts and a blank line.
const HEADER: u16 = 3;

/// Colours and marks, with or without colour.
#[derive(Debug, Clone, Copy)]
pub struct Look {
    /// Whether colours are used.
    pub colour: bool,
}

impl Look {
    /// A face-up card.
    pub fn card(self, card: Card) -> Style {
        if !self.colour {
            return Style::default();
        }
        let ink = if card.is_red() {
            Color::Red
        } else {
            Color::Black
        };
        Style::default().fg(ink).bg(Color::White)
    }

    /// A card of the selection.
    pub fn selected(self, style: Style) -> Style {
        if self.colour {
            style.bg(Color::LightYellow)
        } else {
            style.add_modifier(Modifier::REVERSED)
        }
    }

    /// A card of the hint's move.
    pub fn hinted(self, style: Style) -> Style {
        if self.colour {
            style.bg(Color::LightGreen)
        } else {
            style.add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
        }
    }

    /// The back of a card.
    pub fn back(self) -> Style {
        if self.colour {
            Style::default().fg(Color::Blue).bg(Color::Cyan)
        } else {
            Style::default()
        }
    }

    /// Quiet text: empty piles, counts.
    pub fn dim(self) -> Style {
        if self.colour {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
        }
    }

    /// A key on a label.
    pub fn key(self) -> Style {
        if self.colour {
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        }
    }

    /// Text of a tone.
    pub fn tone(self, tone: Tone) -> Style {
        if !self.colour {
            return match tone {
                Tone::Refused | Tone::Good => Style::default().add_modifier(Modifier::BOLD),
                _ => Style::default(),
            };
        }
        match tone {
            Tone::Info => Style::default(),
            Tone::Refused => Style::default().fg(Color::LightRed),
            Tone::Good => Style::default()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
            Tone::Hint => Style::default().fg(Color::LightCyan),
        }
    }

    /// A suit's symbol: red suits hollow without colour, so they still differ from the black ones.
    pub fn suit(self, suit: Suit) -> char {
        match (self.colour, suit) {
            (false, Suit::Hearts) => '♡',
            (false, Suit::Diamonds) => '♢',
            (_, suit) => suit.symbol(),
        }
    }

    /// A card as text, four columns wide: ` J♦ `, `10♣ `.
    pub fn card_text(self, card: Card) -> String {
        let rank = match card.rank().letter() {
            'T' => "10".to_string(),
            r => r.to_string(),
        };
        format!("{:>3} ", format!("{rank}{}", self.suit(card.suit())))
    }
}

/// Draws the whole screen for the app's state.
pub fn draw(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    let look = Look {
        colour: app.settings.colour,
    };
    match app.screen {
        Screen::Menu => menu::draw(frame.buffer_mut(), area, app, look),
        Screen::Finding => menu::draw_finding(frame.buffer_mut(), area, app, look),
        Screen::Play => draw_play(frame.buffer_mut(), area, app, look),
    }
    if let Some(overlay) = app.overlay {
        help::draw(frame.buffer_mut(), area, app, overlay, look);
    }
}

fn draw_play(buf: &mut Buffer, area: Rect, app: &mut App, look: Look) {
    let Some(play) = app.play.as_ref() else {
        return;
    };
    let postmortem_lines = app.postmortem.as_ref().map_or(Vec::new(), |pm| {
        postmortem_text(pm, play, look, app.settings.probe)
    });
    let footer = 2 + postmortem_lines.len() as u16 + u16::from(!postmortem_lines.is_empty());
    header(buf, area, app, play, look);
    let board_area = Rect::new(
        area.x + 1,
        area.y + HEADER,
        area.width.saturating_sub(1),
        area.height.saturating_sub(HEADER + footer),
    );
    let board = Board::arrange(play.rules(), play.position(), board_area);
    for spot in &board.spots {
        draw_spot(buf, spot, play, look);
    }
    if let Some(caption) = board.choice_caption {
        put(
            buf,
            caption.x,
            caption.y,
            "Choose the base card: its key, then f (or click it, then its foundation)",
            look.key(),
            caption.width,
        );
    }
    let mut y = area.bottom().saturating_sub(footer);
    if !postmortem_lines.is_empty() {
        y += 1;
        for (text, style) in &postmortem_lines {
            put(
                buf,
                area.x + 1,
                y,
                text,
                *style,
                area.width.saturating_sub(1),
            );
            y += 1;
        }
    }
    let message = &play.message;
    put(
        buf,
        area.x + 1,
        area.bottom().saturating_sub(2),
        &message.text,
        look.tone(message.tone),
        area.width.saturating_sub(1),
    );
    put(
        buf,
        area.x + 1,
        area.bottom().saturating_sub(1),
        &key_bar(play),
        look.dim(),
        area.width.saturating_sub(1),
    );
    app.board = board;
}

/// The title (game, deal, indicator) and the counts line.
fn header(buf: &mut Buffer, area: Rect, app: &App, play: &Play, look: Look) {
    let rules = play.rules();
    let position = play.position();
    let deal = match play.game.deal_number() {
        Some(n) => format!("deal {n}"),
        None => "a position of its own".to_string(),
    };
    let title = format!("{} · {deal}", rules.name);
    put(
        buf,
        area.x + 1,
        area.y,
        &title,
        Style::default().add_modifier(Modifier::BOLD),
        area.width.saturating_sub(1),
    );
    let (indicator, style) = indicator(app.winnable(), play, look);
    let width = indicator.chars().count() as u16;
    let x = area
        .right()
        .saturating_sub(width + 1)
        .max(area.x + title.chars().count() as u16 + 3);
    put(
        buf,
        x,
        area.y,
        &indicator,
        style,
        area.right().saturating_sub(x),
    );

    let mut parts = vec![match position.base_rank() {
        Some(rank) => format!("base {}", rank_text(rank.letter())),
        None => "base not chosen".to_string(),
    }];
    parts.push(match (rules.stock.redeals, position.redeals_left()) {
        (_, None) => "redeals ∞".to_string(),
        (Redeals::Limited(0), _) => "no redeal".to_string(),
        (_, Some(n)) => format!("redeals left {n}"),
    });
    parts.push(format!("moves {}", play.game.move_count()));
    let score = play.game.score();
    let cards = format!("{}/{} cards", score.cards, rules.pack_size());
    parts.push(match rules.score.default {
        ScoreKind::Casino => format!("{} ({cards})", dollars(score.casino_dollars)),
        ScoreKind::Cards => cards,
    });
    parts.push(clock_text(play.clock.elapsed()));
    if app.settings.auto_play {
        parts.push("auto-play".to_string());
    }
    if app.settings.winnable_only {
        parts.push("winnable deals".to_string());
    }
    put(
        buf,
        area.x + 1,
        area.y + 1,
        &parts.join(" · "),
        Style::default(),
        area.width.saturating_sub(1),
    );
}

/// The "still winnable?" indicator's text and style.
fn indicator(winnable: Winnable, play: &Play, look: Look) -> (String, Style) {
    let colour = |c: Color| {
        if look.colour {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    };
    if play.state == State::Won {
        return ("★ won".to_string(), look.tone(Tone::Good));
    }
    match winnable {
        Winnable::Yes(_) => ("● winnable".to_string(), colour(Color::LightGreen)),
        Winnable::No => (
            "✗ no longer winnable".to_string(),
            colour(Color::LightRed).add_modifier(Modifier::BOLD),
        ),
        Winnable::Unknown => ("? winnable: unknown".to_string(), colour(Color::Yellow)),
        Winnable::Checking => ("… checking".to_string(), look.dim()),
        Winnable::Off => (String::new(), Style::default()),
    }
}

/// Draws one pile.
fn draw_spot(buf: &mut Buffer, spot: &Spot, play: &Play, look: Look) {
    let position = play.position();
    let area = spot.area;
    if area.height == 0 {
        return;
    }
    let selected = play
        .selection
        .filter(|s| s.pile == spot.pile)
        .map(|s| s.count as usize);
    let hinted = play.hint.and_then(|mv| {
        if mv.from == spot.pile && !mv.is_stock_move() {
            Some(mv.count.max(1) as usize)
        } else if mv.is_draw() && spot.pile == Pile::Stock {
            Some(1)
        } else if mv.to == spot.pile {
            Some(0)
        } else {
            None
        }
    });
    label(buf, spot, play, look, hinted == Some(0));
    let len = position.len(spot.pile);
    // How a card at index `i` of the pile is styled: selected and hinted cards are the top ones.
    let style_of = |i: usize, base: Style| {
        let from_top = len - i;
        match (selected, hinted) {
            (Some(n), _) if from_top <= n => look.selected(base),
            (_, Some(n)) if from_top <= n => look.hinted(base),
            _ => base,
        }
    };
    let x = area.x;
    let y = area.y + 1;
    match spot.shape {
        Shape::Column => {
            if len == 0 {
                put(buf, x, y, " -- ", look.dim(), area.width);
                return;
            }
            let cards = position.cards(spot.pile);
            let lines = column_lines(len, area.height.saturating_sub(1) as usize);
            for (row, line) in lines.iter().enumerate() {
                let y = y + row as u16;
                match *line {
                    ColumnLine::Card(i) => {
                        let card = cards[i];
                        put(
                            buf,
                            x,
                            y,
                            &look.card_text(card),
                            style_of(i, look.card(card)),
                            area.width,
                        );
                    }
                    ColumnLine::Hidden(n) => {
                        put(buf, x, y, &format!(" +{n}"), look.dim(), area.width);
                    }
                }
            }
        }
        Shape::Single => {
            let face_down = spot.pile == Pile::Stock;
            match position.top(spot.pile) {
                Some(_) if face_down => put(buf, x, y, "▒▒▒ ", look.back(), area.width),
                Some(card) => put(
                    buf,
                    x,
                    y,
                    &look.card_text(card),
                    style_of(len - 1, look.card(card)),
                    area.width,
                ),
                None => {
                    let empty = match spot.pile {
                        Pile::Stock if stock_turns(play) => " ↺  ",
                        _ => " -- ",
                    };
                    put(buf, x, y, empty, look.dim(), area.width);
                }
            }
            let under = match spot.pile {
                Pile::Foundation(_) => format!("{}/{}", len, position.ranks()),
                Pile::Choice(_) => String::new(),
                _ => format!("{len}"),
            };
            if area.height > 2 {
                put(buf, x, y + 1, &under, look.dim(), area.width);
            }
        }
        Shape::Fan(shown) => {
            if len == 0 {
                put(buf, x, y, " -- ", look.dim(), area.width);
            } else {
                let cards = position.cards(spot.pile);
                let first = len.saturating_sub(shown);
                for (k, i) in (first..len).enumerate() {
                    // Only the top card is available: the ones under it are dimmed.
                    let card = cards[i];
                    let style = if i + 1 == len {
                        style_of(i, look.card(card))
                    } else {
                        look.card(card).add_modifier(Modifier::DIM)
                    };
                    put(
                        buf,
                        x + k as u16 * CARD_WIDTH,
                        y,
                        &look.card_text(card),
                        style,
                        area.width.saturating_sub(k as u16 * CARD_WIDTH),
                    );
                }
            }
            if area.height > 2 {
                put(buf, x, y + 1, &format!("{len}"), look.dim(), area.width);
            }
        }
    }
}

/// A pile's label: its key (and a foundation's suit), marked when the cursor is on it or a hint goes to it.
fn label(buf: &mut Buffer, spot: &Spot, play: &Play, look: Look, hint_target: bool) {
    let position = play.position();
    let key = pile_key(spot.pile, position).map_or(String::from("·"), String::from);
    let text = match spot.pile {
        Pile::Foundation(s) => format!("{key}{}", look.suit(Suit::from_index(s as usize))),
        _ => key,
    };
    let cursor = play.cursor == spot.pile;
    let mut style = look.key();
    if hint_target {
        style = look.hinted(style);
    }
    if cursor {
        style = style.add_modifier(Modifier::UNDERLINED);
        put(buf, spot.area.x, spot.area.y, "▸", look.key(), 1);
    }
    put(
        buf,
        spot.area.x + 1,
        spot.area.y,
        &text,
        style,
        spot.area.width.saturating_sub(1),
    );
}

/// Whether a draw now turns the waste over (the stock is empty and a redeal is left).
fn stock_turns(play: &Play) -> bool {
    play.position()
        .stock_move(play.rules())
        .is_some_and(|mv| mv.is_redeal())
}

/// The keys line: the commands (each pile shows its own key above it).
fn key_bar(play: &Play) -> String {
    let mut parts = vec!["d draw", "u undo", "U redo", "h hint"];
    if play.state == State::Playing && !play.gave_up {
        parts.push("G give up");
    } else {
        parts.push("b back");
    }
    parts.extend(["n new deal", "m menu", "? help", "q quit"]);
    parts.join("  ")
}

/// The post-mortem's lines.
fn postmortem_text(
    pm: &PostMortem,
    play: &Play,
    look: Look,
    probe: std::time::Duration,
) -> Vec<(String, Style)> {
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![(
        match pm.ending {
            Ending::Stuck => "Post-mortem: the game is stuck".to_string(),
            Ending::GaveUp => "Post-mortem: you gave up".to_string(),
        } + if pm.done {
            ""
        } else {
            " (the solver is at work…)"
        },
        bold,
    )];
    let plain = Style::default();
    if pm.now == Some(Outcome::Winnable) {
        lines.push((
            "This position can still be won: h shows the next move of a winning line.".to_string(),
            look.tone(Tone::Good),
        ));
    } else {
        match pm.deal {
            Some(Outcome::Winnable) => lines.push(("The deal was winnable.".to_string(), plain)),
            Some(Outcome::Lost) => lines.push((
                "The deal was never winnable: no line of moves wins it, so no play could have."
                    .to_string(),
                plain,
            )),
            Some(Outcome::Unknown) => lines.push((
                format!(
                    "Whether the deal was winnable the solver could not decide in {} s.",
                    probe.as_secs_f64()
                ),
                plain,
            )),
            None => lines.push(("Was the deal winnable? Checking…".to_string(), look.dim())),
        }
        match pm.fatal {
            None if pm.deal != Some(Outcome::Lost) => lines.push((
                "Looking for the move after which it was no longer winnable…".to_string(),
                look.dim(),
            )),
            Some(Fatal::Found { before, mv }) => {
                let mut at = *play.game.start();
                for mv in play.game.history().take(before) {
                    at.apply(play.rules(), mv);
                }
                let words = crate::render::describe_move(&at, mv);
                lines.push((
                    format!(
                        "It was lost by move {}, {mv} ({words}): winnable before it, not after. b goes back to before it.",
                        before + 1
                    ),
                    look.tone(Tone::Hint),
                ));
            }
            Some(Fatal::Between { after, by }) => {
                let from = after.map_or("the deal".to_string(), |n| format!("move {n}"));
                let to = by.map_or("the end".to_string(), |n| format!("move {n}"));
                lines.push((
                    format!(
                        "It was lost somewhere between {from} and {to}: the solver could not decide the positions between."
                    ),
                    plain,
                ));
            }
            _ => {}
        }
    }
    if !pm.choices.is_empty() {
        let chosen = play.game.history().next();
        let words: Vec<String> = pm
            .choices
            .iter()
            .map(|c| {
                let verdict = match c.outcome {
                    Some(Outcome::Winnable) => "could win",
                    Some(Outcome::Lost) => "lost",
                    Some(Outcome::Unknown) => "unknown",
                    None => "…",
                };
                let yours = if chosen == Some(c.mv) { " (yours)" } else { "" };
                format!("{} {verdict}{yours}", look.card_text(c.card).trim())
            })
            .collect();
        lines.push((format!("The choices: {}", words.join(" · ")), plain));
    }
    lines
}

/// Writes `text` at (x, y) in at most `width` columns, clipped to the buffer: never past its edge.
pub fn put(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style, width: u16) {
    let area = buf.area;
    if y < area.y || y >= area.bottom() || x < area.x || x >= area.right() {
        return;
    }
    let width = width.min(area.right() - x);
    buf.set_stringn(x, y, text, width as usize, style);
}

fn rank_text(letter: char) -> String {
    if letter == 'T' {
        "10".to_string()
    } else {
        letter.to_string()
    }
}

fn dollars(amount: i64) -> String {
    if amount < 0 {
        format!("-${}", -amount)
    } else {
        format!("${amount}")
    }
}
