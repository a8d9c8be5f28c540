//! `patience history`: the player's finished games from the store, oldest first, then what they add up to game by
//! game. Text for people, `--json` for programs, `--csv` for spreadsheets (the games only).

use std::path::Path;

use serde::Serialize;

use crate::output;
use crate::store::{self, FinishedGame, GameSummary, Store};
use crate::HistoryArgs;

/// What `patience history --json` writes.
#[derive(Debug, Serialize)]
struct History<'a> {
    /// The store's file.
    store: String,
    games: &'a [FinishedGame],
    summaries: &'a [GameSummary],
}

/// Runs the command. A store that does not exist yet is read as empty and not made.
pub fn run(args: &HistoryArgs, json: bool, data_dir: Option<&Path>) -> anyhow::Result<()> {
    let dir = Store::data_dir(data_dir)?;
    let file = Store::file(&dir);
    let game = args.game.as_deref();
    let (games, summaries) = if file.exists() {
        let (store, notes) = Store::open(&dir)?;
        for note in notes {
            eprintln!("note: {note}");
        }
        let games = store.history(game)?;
        let summaries = store::summarize(&games);
        (games, summaries)
    } else {
        (Vec::new(), Vec::new())
    };
    if json {
        return output::print_json(&History {
            store: file.display().to_string(),
            games: &games,
            summaries: &summaries,
        });
    }
    if args.csv {
        return output::print(&csv(&games));
    }
    if games.is_empty() {
        let what = match game {
            Some(id) => format!("of `{id}` "),
            None => String::new(),
        };
        return output::print(&format!(
            "No finished games {what}yet (the store is {}).\n",
            file.display()
        ));
    }
    let mut text = format!("Finished games ({}):\n", file.display());
    text.push_str(&games_table(&games));
    text.push_str("\nBy game:\n");
    text.push_str(&summary_table(&summaries));
    output::print(&text)
}

/// How a cell lines up in its column.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Left,
    Right,
}

fn games_table(games: &[FinishedGame]) -> String {
    use Align::{Left, Right};
    let head = [
        ("#", Right),
        ("finished (UTC)", Left),
        ("game", Left),
        ("deal", Right),
        ("result", Left),
        ("moves", Right),
        ("time", Right),
        ("cards", Right),
        ("dollars", Right),
        ("help", Left),
    ];
    let rows = games.iter().map(|g| {
        let help: Vec<&str> = [(g.hints_used, "hints"), (g.undo_used, "undo")]
            .into_iter()
            .filter_map(|(used, what)| used.then_some(what))
            .collect();
        vec![
            g.id.map_or_else(String::new, |id| id.to_string()),
            store::for_people(&g.finished_at),
            label(&g.game, g.rules_hash.as_deref()),
            g.deal.map_or_else(|| "-".to_string(), |d| d.to_string()),
            g.outcome.to_string(),
            g.moves.to_string(),
            duration(g.seconds),
            g.cards.to_string(),
            dollars(g.casino_dollars),
            help.join(", "),
        ]
    });
    table(&head, rows)
}

fn summary_table(summaries: &[GameSummary]) -> String {
    use Align::{Left, Right};
    let head = [
        ("game", Left),
        ("played", Right),
        ("won", Right),
        ("win rate", Right),
        ("streak", Right),
        ("best streak", Right),
        ("best time", Right),
        ("fewest moves", Right),
        ("bankroll", Right),
    ];
    let rows = summaries.iter().map(|s| {
        vec![
            label(&s.game, s.rules_hash.as_deref()),
            s.played.to_string(),
            s.won.to_string(),
            format!("{:.1} %", s.win_rate * 100.0),
            s.current_streak.to_string(),
            s.best_streak.to_string(),
            s.best_seconds.map_or_else(|| "-".to_string(), duration),
            s.fewest_moves
                .map_or_else(|| "-".to_string(), |m| m.to_string()),
            dollars(s.bankroll),
        ]
    });
    table(&head, rows)
}

/// Lines up `rows` under `head`, two spaces between columns, each line indented by two.
fn table(head: &[(&str, Align)], rows: impl Iterator<Item = Vec<String>>) -> String {
    let mut lines: Vec<Vec<String>> = vec![head.iter().map(|(h, _)| h.to_string()).collect()];
    lines.extend(rows);
    let widths: Vec<usize> = (0..head.len())
        .map(|c| {
            lines
                .iter()
                .map(|row| row[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut text = String::new();
    for row in &lines {
        let mut line = String::from(" ");
        for ((cell, width), (_, align)) in row.iter().zip(&widths).zip(head) {
            line.push(' ');
            match align {
                Align::Left => line.push_str(&format!("{cell:<width$} ")),
                Align::Right => line.push_str(&format!("{cell:>width$} ")),
            }
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

/// A game's name in the tables: its id, and for a rule file the first 8 digits of the file's hash
/// (`canfield@1f0e3dad`).
fn label(game: &str, rules_hash: Option<&str>) -> String {
    match rules_hash {
        Some(hash) => format!("{game}@{}", hash.get(..8).unwrap_or(hash)),
        None => game.to_string(),
    }
}

/// Seconds as `m:ss`, or `h:mm:ss` from an hour on.
fn duration(seconds: f64) -> String {
    let whole = seconds.max(0.0) as u64;
    let (h, m, s) = (whole / 3600, whole / 60 % 60, whole % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Dollars with their sign: `+$208`, `-$47`, `$0`.
fn dollars(amount: i64) -> String {
    match amount {
        0 => "$0".to_string(),
        a if a > 0 => format!("+${a}"),
        a => format!("-${}", a.unsigned_abs()),
    }
}

/// The games as CSV (RFC 4180): a header row, then one row a game.
fn csv(games: &[FinishedGame]) -> String {
    let mut text = String::from(
        "id,finished_at,game,rules_name,rules_hash,deal,outcome,moves,seconds,cards,casino_dollars,hints_used,undo_used\n",
    );
    for g in games {
        let cells = [
            g.id.map_or_else(String::new, |id| id.to_string()),
            g.finished_at.clone(),
            g.game.clone(),
            g.rules_name.clone(),
            g.rules_hash.clone().unwrap_or_default(),
            g.deal.map_or_else(String::new, |d| d.to_string()),
            g.outcome.to_string(),
            g.moves.to_string(),
            g.seconds.to_string(),
            g.cards.to_string(),
            g.casino_dollars.to_string(),
            g.hints_used.to_string(),
            g.undo_used.to_string(),
        ];
        let cells: Vec<String> = cells.iter().map(|cell| csv_cell(cell)).collect();
        text.push_str(&cells.join(","));
        text.push('\n');
    }
    text
}

/// A CSV cell, quoted when it holds a comma, a quote or a line break.
fn csv_cell(cell: &str) -> String {
    if cell.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", cell.replace('"', "\"\""))
    } else {
        cell.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_as_people_expect() {
        assert_eq!(duration(0.0), "0:00");
        assert_eq!(duration(65.9), "1:05");
        assert_eq!(duration(3725.0), "1:02:05");
        assert_eq!(dollars(208), "+$208");
        assert_eq!(dollars(-47), "-$47");
        assert_eq!(dollars(0), "$0");
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a, \"b\""), "\"a, \"\"b\"\"\"");
        assert_eq!(
            label("canfield", Some("0123456789abcdef")),
            "canfield@01234567"
        );
        assert_eq!(label("canfield", None), "canfield");
    }
}
