//! `patience list`: the built-in games, and with `--all` the variants under `games/extra`.

use patience_core::{builtin, RuleSet};
use serde::Serialize;

use crate::output;
use crate::ListArgs;

/// One game as `patience list --json` writes it.
#[derive(Debug, Serialize)]
struct Entry<'a> {
    id: &'a str,
    name: &'a str,
    source: &'a str,
    description: &'a str,
    /// Whether the game is a variant under `games/extra` rather than one of the default list.
    extra: bool,
}

/// Runs the command.
pub fn run(args: &ListArgs, json: bool) -> anyhow::Result<()> {
    let extras: &[RuleSet] = if args.all { builtin::extras() } else { &[] };
    if json {
        let entries: Vec<Entry> = builtin::games()
            .iter()
            .map(|rules| entry(rules, false))
            .chain(extras.iter().map(|rules| entry(rules, true)))
            .collect();
        return output::print_json(&entries);
    }
    let all: Vec<&RuleSet> = builtin::games().iter().chain(extras).collect();
    let id_width = all.iter().map(|r| r.id.chars().count()).max().unwrap_or(0);
    let name_width = all
        .iter()
        .map(|r| r.name.chars().count())
        .max()
        .unwrap_or(0);
    let source_width = all
        .iter()
        .map(|r| r.source.chars().count())
        .max()
        .unwrap_or(0);
    let table = |title: String, games: &[RuleSet]| {
        let mut text = format!("{title}\n");
        for rules in games {
            let line = format!(
                "  {:id_width$}  {:name_width$}  {:source_width$}  {}",
                rules.id, rules.name, rules.source, rules.description
            );
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    };
    let games = builtin::games();
    let mut text = table(format!("{} games:", games.len()), games);
    if args.all {
        text.push('\n');
        text.push_str(&table(
            format!("{} variants of other programs (games/extra):", extras.len()),
            extras,
        ));
    }
    output::print(&text)
}

fn entry(rules: &RuleSet, extra: bool) -> Entry<'_> {
    Entry {
        id: &rules.id,
        name: &rules.name,
        source: &rules.source,
        description: &rules.description,
        extra,
    }
}
