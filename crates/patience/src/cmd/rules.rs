//! `patience rules GAME`: the rules in plain words, generated from the rule set by `patience_core::describe`.

use patience_core::describe;
use serde::Serialize;

use crate::{input, output, RulesArgs};

/// The rules as `patience rules --json` writes them.
#[derive(Debug, Serialize)]
struct RulesJson<'a> {
    id: &'a str,
    name: &'a str,
    source: &'a str,
    description: &'a str,
    sections: Vec<Section>,
}

/// One topic of the rules.
#[derive(Debug, Serialize)]
struct Section {
    heading: &'static str,
    text: String,
}

/// Runs the command.
pub fn run(args: &RulesArgs, json: bool) -> anyhow::Result<()> {
    let rules = input::rules(&args.game)?;
    if json {
        return output::print_json(&RulesJson {
            id: &rules.id,
            name: &rules.name,
            source: &rules.source,
            description: &rules.description,
            sections: describe::describe(&rules)
                .into_iter()
                .map(|(heading, text)| Section { heading, text })
                .collect(),
        });
    }
    output::print(&describe::describe_text(&rules))
}
