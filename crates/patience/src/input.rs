//! Reading what the user points at: games by id or rule file, positions from JSON files, deal numbers.

use std::io::Read;
use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use patience_core::json::PositionJson;
use patience_core::{builtin, shuffle, Position, RuleSet};

use crate::{DealOrPosition, GameArgs};

/// The rules of a game named by id (built-in games and variants) or read from `--rules FILE`.
pub fn rules(game: &GameArgs) -> anyhow::Result<RuleSet> {
    match (&game.rules, &game.game) {
        (Some(file), _) => rules_file(file),
        (None, Some(id)) => builtin_rules(id),
        (None, None) => bail!("name a game, or give its rule file with --rules FILE.toml"),
    }
}

/// Reads and checks a rule file; the error names the file, the field and the value.
pub fn rules_file(file: &Path) -> anyhow::Result<RuleSet> {
    Ok(RuleSet::from_file(file)?)
}

/// A built-in game or variant by id; an unknown id is refused with the list of ids.
pub fn builtin_rules(id: &str) -> anyhow::Result<RuleSet> {
    builtin::rules(id).ok_or_else(|| {
        let ids: Vec<&str> = builtin::ids().collect();
        anyhow!(
            "`{id}` is not a built-in game: expected one of {} (or a rule file with --rules FILE.toml)",
            ids.join(", ")
        )
    })
}

/// A deal or a position, as `solve` and `export` take them: its rules, the position, and the deal number when it
/// is a deal.
pub fn deal_or_position(what: &DealOrPosition) -> anyhow::Result<(RuleSet, Position, Option<u64>)> {
    if let Some(file) = &what.position {
        let (rules, position) = self::position(file, what.rules.as_deref())?;
        return Ok((rules, position, None));
    }
    let rules = match (&what.rules, &what.game) {
        (Some(file), _) => rules_file(file)?,
        (None, Some(id)) => builtin_rules(id)?,
        (None, None) => match &what.number {
            Some(alone) => bail!(
                "`{alone}` alone is not enough: give a game and a deal number (GAME NUMBER), or a position with --position FILE"
            ),
            None => bail!("give a game and a deal number (GAME NUMBER), or a position with --position FILE"),
        },
    };
    let number = what
        .number
        .as_deref()
        .ok_or_else(|| anyhow!("give a deal number after the game"))?;
    let number = deal_number(number)?;
    let position = Position::deal(&rules, number)?;
    Ok((rules, position, Some(number)))
}

/// The time limit of `--time-limit SECONDS`: a number of seconds, 0 or more, with a fraction if wanted.
pub fn time_limit(seconds: Option<f64>) -> anyhow::Result<Option<Duration>> {
    time_limit_of("--time-limit", seconds)
}

/// The time limit of the option `flag` (`--time-limit` and its like), given `seconds`.
pub fn time_limit_of(flag: &str, seconds: Option<f64>) -> anyhow::Result<Option<Duration>> {
    seconds
        .map(|s| {
            Duration::try_from_secs_f64(s).map_err(|_| {
                anyhow!("{flag} {s}: expected a number of seconds, 0 or more, such as 2.5")
            })
        })
        .transpose()
}

/// The node limit of `--node-limit NODES`, which must be 1 or more.
pub fn node_limit(nodes: Option<u64>) -> anyhow::Result<Option<u64>> {
    node_limit_of("--node-limit", nodes)
}

/// The node limit of the option `flag` (`--node-limit` and its like), which must be 1 or more.
pub fn node_limit_of(flag: &str, nodes: Option<u64>) -> anyhow::Result<Option<u64>> {
    if nodes == Some(0) {
        bail!("{flag} 0: give 1 node or more (no limit without {flag})");
    }
    Ok(nodes)
}

/// The bytes of `--memory MIB`, which must be 1 or more.
pub fn memory_bytes(mib: u64) -> anyhow::Result<usize> {
    if mib == 0 {
        bail!("--memory 0: the solver needs 1 MiB at least");
    }
    usize::try_from(mib)
        .ok()
        .and_then(|mib| mib.checked_mul(1 << 20))
        .ok_or_else(|| anyhow!("--memory {mib}: more memory than this machine can address"))
}

/// Reads a deal number (`123`, `ms123`); 0 is refused.
pub fn deal_number(text: &str) -> anyhow::Result<u64> {
    Ok(shuffle::parse_deal_number(text)?)
}

/// Reads a position's JSON file (`-` for standard input) and checks it against its rules: those of `rules_file`
/// when given, else those of the built-in game its `game` key names. Every error names the file.
pub fn position(file: &Path, rules_file: Option<&Path>) -> anyhow::Result<(RuleSet, Position)> {
    let (name, text) = read_text(file)?;
    let json = PositionJson::parse(&text).with_context(|| name.clone())?;
    let rules = match rules_file {
        Some(rules_file) => self::rules_file(rules_file)?,
        None => builtin::rules(&json.game).ok_or_else(|| {
            anyhow!(
                "{name}: the position is of game `{}`, which is not built in: give its rule file with --rules FILE.toml",
                json.game
            )
        })?,
    };
    let position = Position::from_json(&rules, &json).with_context(|| name.clone())?;
    Ok((rules, position))
}

/// The text of a file, or of standard input for `-`, with the name to use in messages.
fn read_text(file: &Path) -> anyhow::Result<(String, String)> {
    if file == Path::new("-") {
        let name = "standard input".to_string();
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .with_context(|| format!("cannot read the position from {name}"))?;
        Ok((name, text))
    } else {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read the position file {name}"))?;
        Ok((name, text))
    }
}
