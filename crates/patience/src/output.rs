//! Writing to standard output: text for people, JSON for programs, and whether to colour red cards.

use std::io::{IsTerminal, Write};

use anyhow::Context;
use indicatif::ProgressDrawTarget;
use serde::Serialize;

/// Prints text to standard output as it is. A closed pipe (`patience list | head -1`) is not an error.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("cannot write to standard output"),
    }
}

/// Prints a value as pretty JSON, with a final newline.
pub fn print_json<T: Serialize + ?Sized>(value: &T) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot write JSON")?;
    text.push('\n');
    print(&text)
}

/// Where a progress line or bar is drawn: on standard error when it is a terminal, else nowhere (a log or a pipe
/// would get every redraw).
pub fn progress_target() -> ProgressDrawTarget {
    if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    }
}

/// Whether text output may colour red cards: standard output is a terminal and `NO_COLOR` is unset or empty
/// (<https://no-color.org>).
pub fn colour() -> bool {
    let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    !no_colour && std::io::stdout().is_terminal()
}
