//! `patience deal GAME NUMBER`: the starting position of a deal, drawn or as JSON.

use patience_core::Position;

use crate::render::{self, Style};
use crate::{input, output, DealArgs};

/// Runs the command.
pub fn run(args: &DealArgs, json: bool) -> anyhow::Result<()> {
    let rules = input::rules(&args.game)?;
    let number = input::deal_number(&args.number)?;
    let position = Position::deal(&rules, number)?;
    if json {
        return output::print_json(&position.to_json(&rules));
    }
    let title = format!("{} ({}), deal {number}", rules.name, rules.id);
    let style = Style {
        colour: output::colour(),
    };
    output::print(&render::draw(&rules, &position, &title, style))
}
