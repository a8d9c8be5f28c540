//! `patience moves --position FILE`: the legal moves, in the notation with the cards they move, or as JSON.

use crate::render::describe_move;
use crate::{input, output, MovesArgs};

/// Runs the command.
pub fn run(args: &MovesArgs, json: bool) -> anyhow::Result<()> {
    let (rules, position) =
        input::position(&args.position.position, args.position.rules.as_deref())?;
    let moves = position.legal_moves(&rules);
    if json {
        return output::print_json(&moves);
    }
    if moves.is_empty() {
        let why = if position.is_won() {
            "the game is won"
        } else {
            "nothing can move"
        };
        return output::print(&format!("no legal move: {why}\n"));
    }
    let notations: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let width = notations.iter().map(String::len).max().unwrap_or(0);
    let mut text = String::new();
    for (mv, notation) in moves.iter().zip(&notations) {
        text.push_str(&format!(
            "{notation:width$}  ({})\n",
            describe_move(&position, *mv)
        ));
    }
    output::print(&text)
}
