//! The player driven as a person would: pictures drawn on ratatui's test terminal, keys and clicks through whole
//! deals, the background solver's indicator, hints and post-mortems, and the record in a store.

use std::sync::Arc;
use std::time::Duration;

use patience_core::{builtin, Move, Pile, Position};
use patience_solver::analysis::{Fatal, Outcome};
use patience_solver::{solve, Limits, Verdict};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::style::Color;
use ratatui::Terminal;

use super::analysis::Winnable;
use super::app::{App, Screen, Settings, Start};
use super::board::{column_lines, ColumnLine, Shape};
use super::draw;
use super::play::{State, Tone};
use super::record::Record;

/// Settings for tests: no background solver unless a test turns it on, no auto-play, short post-mortem probes.
fn quiet() -> Settings {
    Settings {
        colour: true,
        auto_play: false,
        winnable_only: false,
        solver: false,
        probe: Duration::from_millis(500),
    }
}

fn with_solver() -> Settings {
    Settings {
        solver: true,
        ..quiet()
    }
}

fn app(id: &str, deal: u64, settings: Settings) -> App {
    let rules = Arc::new(builtin::rules(id).expect("a built-in game"));
    App::new(
        settings,
        Start::Deal {
            rules,
            deal: Some(deal),
        },
        None,
        Record::none(),
    )
}

fn render(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("terminal");
    terminal.draw(|frame| draw::draw(frame, app)).expect("draw");
    terminal.backend().buffer().clone()
}

fn lines(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

fn screen_text(app: &mut App) -> String {
    lines(&render(app, 100, 30)).join("\n")
}

/// Where `text` starts on the screen.
fn find(buf: &Buffer, text: &str) -> Option<(u16, u16)> {
    lines(buf).iter().enumerate().find_map(|(y, line)| {
        let at = line.find(text)?;
        Some((line[..at].chars().count() as u16, y as u16))
    })
}

fn key(app: &mut App, c: char) {
    app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
}

fn keys(app: &mut App, code: KeyCode) {
    app.key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn click(app: &mut App, x: u16, y: u16) {
    app.mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
}

fn position(app: &App) -> Position {
    *app.play.as_ref().expect("a deal in play").position()
}

fn winning_line(app: &App) -> Vec<Move> {
    let play = app.play.as_ref().expect("a deal in play");
    match solve(play.rules(), play.position(), &Limits::default()).verdict {
        Verdict::Won(line) => line,
        other => panic!("the deal should be won: {other:?}"),
    }
}

/// Each game's deal 1 on an 80 × 24 terminal: the lines under the title and the counts, down to the status line.
const PICTURES: &[(&str, &[&str])] = &[
    (
        "four-seasons",
        &[
            "  f♣    ▸1      f♠            d      w",
            "  --     2♦     --           ▒▒▒     7♣",
            " 0/13          0/13          45     1",
            "",
            "  2      3      4",
            "  9♥     J♣     5♦",
            "",
            "  f♥     5      f♦",
            "  --     7♥     J♦",
            " 0/13          1/13",
        ],
    ),
    (
        "florentine",
        &[
            "  f♣    ▸1      f♠            d      w",
            "  --     2♦     --           ▒▒▒     7♣",
            " 0/13          0/13          45     1",
            "",
            "  2      3      4",
            "  9♥     J♣     5♦",
            "",
            "  f♥     5      f♦",
            "  --     7♥     J♦",
            " 0/13          1/13",
        ],
    ),
    (
        "simplicity",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     Q♣              --     --     --     J♦",
            " 38     1               0/13   0/13   0/13   1/13",
            "",
            " ▸1      2      3      4      5      6",
            "  2♦     9♥     J♣     5♦     7♥     7♣",
            "",
            "  7      8      9      0      -      =",
            "  5♥     K♦     K♣     9♠     5♠     A♦",
        ],
    ),
    (
        "fortunes-favor",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     Q♣              A♣     A♠     A♥     A♦",
            " 35     1               1/13   1/13   1/13   1/13",
            "",
            " ▸1      2      3      4      5      6",
            "  J♦     2♦     9♥     J♣     5♦     7♥",
            "",
            "  7      8      9      0      -      =",
            "  7♣     5♥     K♦     K♣     9♠     5♠",
        ],
    ),
    (
        "canfield",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     9♦  Q♦  J♠      --     --     --     J♦",
            " 31     3               0/13   0/13   0/13   1/13",
            "",
            "  r       ▸1      2      3      4",
            "  Q♣       K♠     2♠     3♥     K♥",
            " 13",
        ],
    ),
    (
        "canfield-foster",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     9♦  Q♦  J♠      --     --     --     J♦",
            " 31     3               0/13   0/13   0/13   1/13",
            "",
            "  r       ▸1      2      3      4",
            "  Q♣       K♠     2♠     3♥     K♥",
            " 13",
        ],
    ),
    (
        "canfield-solo",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     9♦  Q♦  J♠      --     --     --     A♦",
            " 31     3               0/13   0/13   0/13   1/13",
            "",
            "  r       ▸1      2      3      4",
            "  Q♣       K♠     2♠     3♥     K♥",
            " 13",
        ],
    ),
    (
        "selective-canfield",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     9♦  Q♦  J♠      --     --     --     --",
            " 31     3               0/13   0/13   0/13   0/13",
            "",
            " Choose the base card: its key, then f (or click it, then its foundation)",
            " ▸1      2      3      4      5",
            "  Q♣     K♥     3♥     2♠     K♠",
            "",
            "",
            "  r        ·      ·      ·      ·",
            "  A♦       --     --     --     --",
            " 13",
        ],
    ),
    (
        "chameleon",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     2♠              --     --     --     J♦",
            " 35     1               0/13   0/13   0/13   1/13",
            "",
            "  r       ▸1      2      3",
            "  A♦       3♥     K♥     Q♣",
            " 12",
        ],
    ),
    (
        "storehouse",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     Q♦              2♣     2♠     2♥     2♦",
            " 30     1               1/13   1/13   1/13   1/13",
            "",
            "  r       ▸1      2      3      4",
            "  Q♣       9♦     K♠     3♥     K♥",
            " 13",
        ],
    ),
    (
        "gate",
        &[
            "  d      w               f♣     f♠     f♥     f♦",
            " ▒▒▒     9♦              --     --     --     --",
            " 33     1               0/13   0/13   0/13   0/13",
            "",
            "  r       ▸1      2      3      4       t",
            "  J♦       9♠     5♠     A♦     Q♣      2♦",
            "  9♥                                    J♣",
            "  5♦       5      6      7      8       7♥",
            "  7♣       K♥     3♥     2♠     K♠      5♥",
            "  K♦                                    K♣",
        ],
    ),
];

#[test]
fn every_game_is_drawn_in_the_layout_its_rules_describe() {
    assert_eq!(PICTURES.len(), builtin::games().len());
    for &(id, picture) in PICTURES {
        let mut app = app(id, 1, quiet());
        let buf = render(&mut app, 80, 24);
        let screen = lines(&buf);
        let name = &builtin::rules(id).expect("game").name;
        assert_eq!(screen[0], format!(" {name} · deal 1"), "{id}");
        let mut board: Vec<&str> = screen[3..21].iter().map(String::as_str).collect();
        while board.last() == Some(&"") {
            board.pop();
        }
        assert_eq!(board, picture, "{id}:\n{}", screen.join("\n"));
        assert!(screen[23].contains("q quit"), "{id}: {}", screen[23]);
    }
}

#[test]
fn the_counts_line_has_base_redeals_moves_score_and_time() {
    let mut app = app("canfield", 1, quiet());
    let screen = lines(&render(&mut app, 80, 24));
    assert_eq!(
        screen[1],
        " base J · redeals ∞ · moves 0 · -$47 (1/52 cards) · 0:00"
    );
    let mut app = self::app("florentine", 1, quiet());
    let screen = lines(&render(&mut app, 80, 24));
    assert_eq!(
        screen[1],
        " base J · redeals left 1 · moves 0 · 1/52 cards · 0:00"
    );
}

#[test]
fn the_layouts_put_the_piles_where_the_games_texts_say() {
    let spot = |app: &App, pile: Pile| app.board.spot(pile).expect("shown").area;
    // Four Seasons: the cross, foundations in its corners.
    let mut a = app("four-seasons", 1, quiet());
    render(&mut a, 80, 24);
    let (f0, f1, f2, f3) = (
        spot(&a, Pile::Foundation(0)),
        spot(&a, Pile::Foundation(1)),
        spot(&a, Pile::Foundation(2)),
        spot(&a, Pile::Foundation(3)),
    );
    let t: Vec<_> = (0..5).map(|i| spot(&a, Pile::Tableau(i))).collect();
    assert!(f0.y == t[0].y && f1.y == t[0].y && f0.x < t[0].x && t[0].x < f1.x);
    assert!(t[1].y == t[2].y && t[2].y == t[3].y && t[1].x == f0.x && t[3].x == f1.x);
    assert!(t[2].x == t[0].x && t[4].x == t[0].x && t[0].y < t[2].y && t[2].y < t[4].y);
    assert!(f2.y == t[4].y && f3.y == t[4].y && f2.x == f0.x && f3.x == f1.x);
    // Simplicity: two rows of six.
    let mut a = app("simplicity", 1, quiet());
    render(&mut a, 80, 24);
    for i in 0..6 {
        let upper = spot(&a, Pile::Tableau(i));
        let lower = spot(&a, Pile::Tableau(i + 6));
        assert!(upper.x == lower.x && upper.y < lower.y);
        assert_eq!(upper.y, spot(&a, Pile::Tableau(0)).y);
    }
    // Canfield: the reserve beside the four piles.
    let mut a = app("canfield", 1, quiet());
    render(&mut a, 80, 24);
    let reserve = spot(&a, Pile::Reserve(0));
    for i in 0..4 {
        let pile = spot(&a, Pile::Tableau(i));
        assert!(pile.y == reserve.y && pile.x > reserve.x);
    }
    // Gate: the posts left and right of two rows of rails.
    let mut a = app("gate", 1, quiet());
    render(&mut a, 80, 24);
    let (left, right) = (spot(&a, Pile::Reserve(0)), spot(&a, Pile::Reserve(1)));
    for i in 0..8 {
        let rail = spot(&a, Pile::Tableau(i));
        assert!(left.right() <= rail.x && rail.right() <= right.x);
        assert!(rail.y >= left.y && rail.bottom() <= left.bottom());
    }
    assert!(spot(&a, Pile::Tableau(0)).y < spot(&a, Pile::Tableau(4)).y);
    // Selective Canfield: the choice row, until the choice.
    let mut a = app("selective-canfield", 1, quiet());
    let buf = render(&mut a, 80, 24);
    assert!(find(&buf, "Choose the base card").is_some());
    assert_eq!(
        spot(&a, Pile::Choice(0)).y,
        spot(&a, Pile::Choice(4)).y,
        "the five in a row"
    );
    key(&mut a, '5');
    key(&mut a, 'f');
    let buf = render(&mut a, 80, 24);
    assert!(a.board.spot(Pile::Choice(0)).is_none());
    assert!(find(&buf, "Choose the base card").is_none());
    assert!(lines(&buf)[1].starts_with(" base K"), "{}", lines(&buf)[1]);
}

#[test]
fn red_suits_are_red_and_without_colour_drawn_hollow() {
    let mut a = app("canfield", 1, quiet());
    let buf = render(&mut a, 80, 24);
    let (x, y) = find(&buf, "J♦").expect("the base card");
    assert_eq!(buf[(x, y)].fg, Color::Red);
    assert_eq!(buf[(x, y)].bg, Color::White);
    let (x, y) = find(&buf, "Q♣").expect("the reserve's card");
    assert_eq!(buf[(x, y)].fg, Color::Black);
    let mut a = app(
        "canfield",
        1,
        Settings {
            colour: false,
            ..quiet()
        },
    );
    let buf = render(&mut a, 80, 24);
    assert!(find(&buf, "J♢").is_some(), "{}", lines(&buf).join("\n"));
    assert!(find(&buf, "J♦").is_none());
    assert!(buf
        .content()
        .iter()
        .all(|cell| cell.fg == Color::Reset && cell.bg == Color::Reset));
}

#[test]
fn any_terminal_size_is_drawn_without_panic() {
    for rules in builtin::games() {
        let mut a = app(&rules.id, 7, quiet());
        for (w, h) in [(1, 1), (20, 5), (40, 12), (60, 16), (80, 24), (200, 60)] {
            render(&mut a, w, h);
        }
        key(&mut a, '?');
        render(&mut a, 10, 4);
        render(&mut a, 80, 24);
    }
}

#[test]
fn keys_play_a_whole_deal_to_a_win() {
    let mut a = app("fortunes-favor", 1, quiet());
    let line = winning_line(&a);
    for (i, &mv) in line.iter().enumerate() {
        let play = a.play.as_ref().expect("play");
        let presses = play.keys_for(mv).expect("every pile has a key");
        for c in presses {
            key(&mut a, c);
        }
        let play = a.play.as_ref().expect("play");
        assert_eq!(
            play.game.move_count(),
            i + 1,
            "move {i} {mv}: {}",
            play.message.text
        );
        render(&mut a, 80, 24);
    }
    let play = a.play.as_ref().expect("play");
    assert_eq!(play.state, State::Won);
    assert!(
        play.message.text.starts_with("Won in 92 moves"),
        "{}",
        play.message.text
    );
    let buf = render(&mut a, 80, 24);
    assert!(find(&buf, "★ won").is_some());
    assert!(find(&buf, "52/52 cards").is_some());
    // After the win the player can still look back.
    key(&mut a, 'u');
    assert_eq!(a.play.as_ref().map(|p| p.state), Some(State::Playing));
}

/// Clicks the card `count` from the top of a pile's column, or the pile's label for a single card.
fn click_pile(a: &mut App, pile: Pile, count: u8) {
    render(a, 80, 30);
    let pos = position(a);
    let spot = *a.board.spot(pile).expect("shown");
    let y = match spot.shape {
        Shape::Column if pos.len(pile) > 0 => {
            let len = pos.len(pile);
            let rows = column_lines(len, spot.area.height as usize - 1);
            let row = rows
                .iter()
                .position(|l| *l == ColumnLine::Card(len - count as usize))
                .expect("the card is shown");
            spot.area.y + 1 + row as u16
        }
        _ => spot.area.y + 1,
    };
    click(a, spot.area.x + 1, y);
}

#[test]
fn clicks_play_a_whole_deal_to_a_win() {
    let mut a = app("gate", 1, quiet());
    let line = winning_line(&a);
    for (i, &mv) in line.iter().enumerate() {
        if mv.is_stock_move() {
            click_pile(&mut a, Pile::Stock, 1);
        } else {
            click_pile(&mut a, mv.from, mv.count);
            click_pile(&mut a, mv.to, 1);
        }
        let play = a.play.as_ref().expect("play");
        assert_eq!(
            play.game.move_count(),
            i + 1,
            "move {i} {mv}: {}",
            play.message.text
        );
    }
    assert_eq!(a.play.as_ref().map(|p| p.state), Some(State::Won));
}

#[test]
fn a_click_inside_a_run_takes_that_card_and_those_above() {
    let rules = Arc::new(builtin::rules("chameleon").expect("game"));
    for deal in 1..300 {
        let mut a = App::new(
            quiet(),
            Start::Deal {
                rules: Arc::clone(&rules),
                deal: Some(deal),
            },
            None,
            Record::none(),
        );
        let pos = position(&a);
        let Some(mv) = pos.legal_moves(&rules).into_iter().find(|m| {
            matches!((m.from, m.to), (Pile::Tableau(_), Pile::Tableau(_))) && m.count == 1
        }) else {
            continue;
        };
        a.play.as_mut().expect("play").make(mv);
        // Now mv.to holds a run of two: clicking its lower card selects both.
        let Some(run) = a
            .play
            .as_ref()
            .expect("play")
            .legal_counts(mv.to)
            .first()
            .copied()
        else {
            continue;
        };
        if run < 2 {
            continue;
        }
        click_pile(&mut a, mv.to, 2);
        let sel = a.play.as_ref().and_then(|p| p.selection).expect("selected");
        assert_eq!((sel.pile, sel.count, sel.explicit), (mv.to, 2, true));
        click_pile(&mut a, mv.to, 1);
        let sel = a.play.as_ref().and_then(|p| p.selection).expect("selected");
        assert_eq!(sel.count, 1);
        return;
    }
    panic!("no deal gave a run of two");
}

#[test]
fn an_illegal_move_is_refused_with_the_engines_reason() {
    let mut a = app("canfield", 1, quiet());
    key(&mut a, '1');
    key(&mut a, '4');
    let play = a.play.as_ref().expect("play");
    assert_eq!(play.game.move_count(), 0);
    assert_eq!(play.message.tone, Tone::Refused);
    let buf = render(&mut a, 100, 24);
    assert!(
        find(
            &buf,
            "t0-t3: KS does not go on KH: the tableau builds down in alternate colours"
        )
        .is_some(),
        "{}",
        lines(&buf).join("\n")
    );
    // A key that names nothing here says so.
    key(&mut a, '9');
    assert!(a
        .play
        .as_ref()
        .expect("play")
        .message
        .text
        .starts_with("`9` names no pile"));
    // A drawing refused says why too.
    let mut a = app("selective-canfield", 1, quiet());
    key(&mut a, 'd');
    assert!(a
        .play
        .as_ref()
        .expect("play")
        .message
        .text
        .contains("the base card must be chosen first"));
}

#[test]
fn undo_redo_and_restart_by_keys() {
    let mut a = app("canfield", 1, quiet());
    let start = position(&a);
    key(&mut a, 'r');
    key(&mut a, '4');
    key(&mut a, 'd');
    let after = position(&a);
    assert_eq!(a.play.as_ref().map(|p| p.game.move_count()), Some(2));
    keys(&mut a, KeyCode::Backspace);
    key(&mut a, 'u');
    assert_eq!(position(&a), start);
    key(&mut a, 'U');
    a.key(KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL));
    assert_eq!(position(&a), after);
    key(&mut a, 'R');
    assert_eq!(position(&a), start);
    key(&mut a, 'U');
    key(&mut a, 'U');
    assert_eq!(position(&a), after);
    let buf = render(&mut a, 80, 24);
    assert!(lines(&buf)[1].contains("moves 2"));
}

#[test]
fn arrows_and_enter_work_as_the_pile_keys() {
    let mut a = app("canfield", 1, quiet());
    render(&mut a, 80, 24);
    // The cursor starts on the first tableau pile; left is the reserve.
    keys(&mut a, KeyCode::Left);
    assert_eq!(a.play.as_ref().map(|p| p.cursor), Some(Pile::Reserve(0)));
    keys(&mut a, KeyCode::Enter);
    for _ in 0..4 {
        keys(&mut a, KeyCode::Right);
    }
    assert_eq!(a.play.as_ref().map(|p| p.cursor), Some(Pile::Tableau(3)));
    keys(&mut a, KeyCode::Enter);
    assert_eq!(
        a.play.as_ref().map(|p| p.message.text.clone()),
        Some("QC onto KH".to_string())
    );
    keys(&mut a, KeyCode::Up);
    assert!(matches!(
        a.play.as_ref().map(|p| p.cursor),
        Some(Pile::Foundation(_))
    ));
}

#[test]
fn the_help_shows_the_keys_and_the_games_rules() {
    let mut a = app("gate", 1, quiet());
    key(&mut a, '?');
    let text = screen_text(&mut a);
    assert!(text.contains("Help: keys and rules"), "{text}");
    assert!(text.contains("hint: the next move of a winning line"));
    for _ in 0..6 {
        keys(&mut a, KeyCode::PageDown);
    }
    let text = screen_text(&mut a);
    assert!(text.contains("built down in alternate colours"), "{text}");
    keys(&mut a, KeyCode::Esc);
    assert!(!screen_text(&mut a).contains("Help: keys"));
}

#[test]
fn the_menu_lists_every_game_and_a_click_starts_one() {
    let mut a = App::new(quiet(), Start::Menu { deal: Some(5) }, None, Record::none());
    let buf = render(&mut a, 120, 30);
    for rules in builtin::games() {
        let (_, y) = find(&buf, &rules.name).expect("listed");
        assert!(lines(&buf)[y as usize].contains(&rules.description[..20]));
    }
    let (x, y) = find(&buf, "Gate").expect("Gate listed");
    click(&mut a, x, y);
    assert_eq!(a.screen, Screen::Play);
    let play = a.play.as_ref().expect("play");
    assert_eq!(
        (play.rules().id.as_str(), play.game.deal_number()),
        ("gate", Some(5))
    );
    key(&mut a, 'm');
    assert_eq!(a.screen, Screen::Menu);
    keys(&mut a, KeyCode::Esc);
    assert_eq!(a.screen, Screen::Play);
    key(&mut a, 'n');
    let play = a.play.as_ref().expect("play");
    assert_eq!(play.rules().id, "gate");
    assert_ne!(play.game.deal_number(), Some(5));
}

#[test]
fn the_indicator_and_the_hint_come_from_the_background_solver() {
    let mut a = app("fortunes-favor", 1, with_solver());
    assert!(a.wait_until(Duration::from_secs(60), |a| matches!(
        a.winnable(),
        Winnable::Yes(_)
    )));
    assert!(screen_text(&mut a).contains("● winnable"));
    key(&mut a, 'h');
    let play = a.play.as_ref().expect("play");
    let hint = play.hint.expect("a hint");
    assert!(
        play.message.text.starts_with(&format!("Hint: {hint} (")),
        "{}",
        play.message.text
    );
    // Following the hint keeps the indicator at once: every position of the winning line is known.
    for c in play.keys_for(hint).expect("keys") {
        key(&mut a, c);
    }
    assert!(matches!(a.winnable(), Winnable::Yes(Some(_))));
}

/// Plays carelessly until stuck or won: the first legal move that leads somewhere new, cards to the foundations
/// only when nothing else is left, the stock last.
fn play_carelessly(a: &mut App) {
    let mut seen = std::collections::HashSet::new();
    for _ in 0..3000 {
        let play = a.play.as_mut().expect("play");
        if play.state != State::Playing {
            return;
        }
        seen.insert(*play.position());
        let rules = play.shared_rules();
        let here = *play.position();
        let mut moves = play.game.legal_moves();
        moves.sort_by_key(|m| (m.is_stock_move(), matches!(m.to, Pile::Foundation(_))));
        let fresh = moves.iter().find(|m| {
            let mut next = here;
            next.apply(&rules, **m);
            !seen.contains(&next)
        });
        let Some(&mv) = fresh.or_else(|| moves.iter().find(|m| m.is_stock_move())) else {
            return;
        };
        for c in play.keys_for(mv).expect("keys") {
            key(a, c);
        }
    }
}

/// A winnable deal of `id`, the number of moves of its winning line to play first, and a move there after which
/// the game is lost.
fn deal_with_a_losing_move(id: &str) -> (u64, Vec<Move>, usize, Move) {
    let rules = builtin::rules(id).expect("game");
    let limits = Limits {
        time: Some(Duration::from_secs(2)),
        ..Limits::default()
    };
    for deal in 1..50 {
        let start = Position::deal(&rules, deal).expect("deal");
        let Verdict::Won(line) = solve(&rules, &start, &limits).verdict else {
            continue;
        };
        let mut here = start;
        for (k, &good) in line.iter().enumerate() {
            for mv in here.legal_moves(&rules) {
                let mut next = here;
                next.apply(&rules, mv);
                if solve(&rules, &next, &limits).verdict == Verdict::Lost {
                    return (deal, line, k, mv);
                }
            }
            here.apply(&rules, good);
        }
    }
    panic!("no losing move found in {id}");
}

#[test]
fn the_post_mortem_finds_the_losing_move_and_b_goes_back_before_it() {
    let (deal, line, k, losing) = deal_with_a_losing_move("gate");
    let mut a = app("gate", deal, with_solver());
    for &mv in line[..k].iter().chain([&losing]) {
        for c in a.play.as_ref().and_then(|p| p.keys_for(mv)).expect("keys") {
            key(&mut a, c);
        }
    }
    assert!(a.wait_until(Duration::from_secs(60), |a| a.winnable() == Winnable::No));
    assert!(screen_text(&mut a).contains("✗ no longer winnable"));
    // Play on until stuck, which starts the post-mortem by itself; or give up.
    play_carelessly(&mut a);
    let stuck = a.play.as_ref().map(|p| p.state) == Some(State::Stuck);
    if !stuck {
        key(&mut a, 'G');
    }
    assert!(a.wait_until(Duration::from_secs(120), |a| a
        .postmortem
        .as_ref()
        .is_some_and(|pm| pm.done)));
    let pm = a.postmortem.as_ref().expect("a post-mortem");
    assert_eq!(pm.deal, Some(Outcome::Winnable));
    assert_eq!(
        pm.fatal,
        Some(Fatal::Found {
            before: k,
            mv: losing
        })
    );
    let text = screen_text(&mut a);
    let ending = if stuck {
        "the game is stuck"
    } else {
        "you gave up"
    };
    assert!(text.contains(&format!("Post-mortem: {ending}")), "{text}");
    assert!(text.contains("The deal was winnable."), "{text}");
    assert!(
        text.contains(&format!("It was lost by move {}, {losing}", k + 1)),
        "{text}"
    );
    key(&mut a, 'b');
    let play = a.play.as_ref().expect("play");
    assert_eq!(play.game.move_count(), k);
    assert_eq!(play.state, State::Playing);
    assert!(a.wait_until(Duration::from_secs(60), |a| matches!(
        a.winnable(),
        Winnable::Yes(_)
    )));
    // The losing move again: no longer winnable, said at once since the solver proved it before.
    for c in a
        .play
        .as_ref()
        .and_then(|p| p.keys_for(losing))
        .expect("keys")
    {
        key(&mut a, c);
    }
    assert_eq!(a.winnable(), Winnable::No);
}

#[test]
fn giving_up_in_selective_canfield_says_which_choices_could_win() {
    let mut a = app("selective-canfield", 1, with_solver());
    key(&mut a, '2');
    key(&mut a, 'f');
    key(&mut a, 'G');
    assert!(a.wait_until(Duration::from_secs(120), |a| a
        .postmortem
        .as_ref()
        .is_some_and(|pm| pm.done)));
    let pm = a.postmortem.as_ref().expect("post-mortem");
    assert_eq!(pm.choices.len(), 5);
    assert!(pm.choices.iter().all(|c| c.outcome.is_some()));
    let text = screen_text(&mut a);
    assert!(text.contains("Post-mortem: you gave up"), "{text}");
    assert!(text.contains("The choices: Q♣ "), "{text}");
    assert!(text.contains("K♥ ") && text.contains("(yours)"), "{text}");
}

#[test]
fn winnable_deals_only_gives_a_deal_the_solver_proved() {
    let settings = Settings {
        winnable_only: true,
        ..with_solver()
    };
    let mut a = App::new(settings, Start::Menu { deal: None }, None, Record::none());
    // The menu's search starts with the game under the cursor; move to Fortune's Favor.
    for _ in 0..3 {
        keys(&mut a, KeyCode::Down);
    }
    assert_eq!(a.finder.searching(), Some("fortunes-favor"));
    keys(&mut a, KeyCode::Enter);
    assert!(a.wait_until(Duration::from_secs(60), |a| a.screen == Screen::Play));
    let play = a.play.as_ref().expect("play");
    assert_eq!(play.rules().id, "fortunes-favor");
    assert!(matches!(
        solve(play.rules(), play.game.start(), &Limits::default()).verdict,
        Verdict::Won(_)
    ));
    assert!(screen_text(&mut a).contains("winnable deals"));
}

#[test]
fn auto_play_sends_the_safe_cards_home() {
    let settings = Settings {
        auto_play: true,
        ..quiet()
    };
    let mut a = app("gate", 1, settings);
    let line = winning_line(&a);
    for &mv in line.iter().take(20) {
        let Some(presses) = a.play.as_ref().and_then(|p| p.keys_for(mv)) else {
            break;
        };
        for c in presses {
            key(&mut a, c);
        }
    }
    let play = a.play.as_ref().expect("play");
    let pruning = patience_solver::prune::Pruning::for_rules(play.rules());
    assert_eq!(pruning.safe_move(play.rules(), play.position()), None);
    assert!(play.game.score().cards > 0);
    key(&mut a, 'a');
    assert!(!a.settings.auto_play);
}

#[test]
fn the_record_resumes_the_game_and_counts_the_win() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let open = || Record::open(Some(dir.path())).0;
    let rules = Arc::new(builtin::rules("fortunes-favor").expect("game"));
    let mut a = App::new(
        quiet(),
        Start::Deal {
            rules: Arc::clone(&rules),
            deal: Some(1),
        },
        None,
        open(),
    );
    let line = winning_line(&a);
    for &mv in &line[..10] {
        for c in a.play.as_ref().and_then(|p| p.keys_for(mv)).expect("keys") {
            key(&mut a, c);
        }
    }
    key(&mut a, 'u');
    key(&mut a, 'q');
    assert!(a.quit);
    drop(a);
    let record = open();
    let resumed = record.resume().expect("readable").expect("a saved game");
    assert_eq!(resumed.game.move_count(), 9);
    assert_eq!(resumed.game.redo_stack().len(), 1);
    assert!(resumed.undo_used);
    let mut a = App::new(quiet(), Start::Resume(Box::new(resumed)), None, record);
    assert!(a
        .play
        .as_ref()
        .is_some_and(|p| p.message.text.starts_with("Resumed")));
    key(&mut a, 'U');
    for &mv in &line[10..] {
        for c in a.play.as_ref().and_then(|p| p.keys_for(mv)).expect("keys") {
            key(&mut a, c);
        }
    }
    assert_eq!(a.play.as_ref().map(|p| p.state), Some(State::Won));
    key(&mut a, 'S');
    let text = screen_text(&mut a);
    assert!(text.contains("Fortune's Favor (fortunes-favor)"), "{text}");
    assert!(text.contains("played 1, won 1 (100 %)"), "{text}");
    keys(&mut a, KeyCode::Esc);
    // A new deal left untouched is not recorded; one with moves is recorded as abandoned.
    key(&mut a, 'n');
    key(&mut a, 'd');
    key(&mut a, 'n');
    key(&mut a, 'q');
    drop(a);
    let (store, _) = crate::store::Store::open(dir.path()).expect("store");
    let history = store.history(None).expect("history");
    let outcomes: Vec<&str> = history.iter().map(|g| g.outcome.as_str()).collect();
    assert_eq!(outcomes, ["won", "abandoned"]);
}
