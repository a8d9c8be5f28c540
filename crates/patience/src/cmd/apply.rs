//! `patience apply --position FILE MOVE...`: the position after the moves, drawn or as JSON.
//!
//! A move that cannot be read or is illegal stops the command with [`MoveRefused`], which exits with status
//! [`crate::EXIT_REFUSED`].

use std::fmt;

use patience_core::Move;

use crate::render::{self, Style};
use crate::{input, output, ApplyArgs};

/// A move of the command line could not be read or is illegal: which one (from 1), as given, and why.
#[derive(Debug)]
pub struct MoveRefused {
    /// The move's place among the MOVE arguments, from 1.
    pub index: usize,
    /// How many moves were given.
    pub of: usize,
    /// The move as given.
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

impl fmt::Display for MoveRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} of {}, `{}`: {}",
            self.index, self.of, self.text, self.reason
        )
    }
}

impl std::error::Error for MoveRefused {}

/// Runs the command.
pub fn run(args: &ApplyArgs, json: bool) -> anyhow::Result<()> {
    let (rules, mut position) =
        input::position(&args.position.position, args.position.rules.as_deref())?;
    let refused = |index: usize, text: &str, reason: String| MoveRefused {
        index: index + 1,
        of: args.moves.len(),
        text: text.to_string(),
        reason,
    };
    let mut made = Vec::with_capacity(args.moves.len());
    for (index, text) in args.moves.iter().enumerate() {
        let mv = Move::parse(text)
            .map_err(|e| refused(index, text, format!("not a move: {}", e.reason)))?;
        let mv = position.complete(&rules, mv);
        position
            .play(&rules, mv)
            .map_err(|e| refused(index, text, format!("illegal: {}", e.reason)))?;
        made.push(mv.to_string());
    }
    if json {
        return output::print_json(&position.to_json(&rules));
    }
    let title = format!(
        "{} ({}), after {} {}: {}",
        rules.name,
        rules.id,
        made.len(),
        if made.len() == 1 { "move" } else { "moves" },
        made.join(" ")
    );
    let style = Style {
        colour: output::colour(),
    };
    output::print(&render::draw(&rules, &position, &title, style))
}
