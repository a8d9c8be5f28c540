//! The games compiled into the binary: the rule files under `games/` (the default list) and `games/extra/`
//! (other programs' variants).

use std::sync::OnceLock;

use crate::rules::RuleSet;

macro_rules! rule_files {
    ($dir:literal: $($id:literal),* $(,)?) => {
        &[$(($id, include_str!(concat!("../../../games/", $dir, $id, ".toml")))),*]
    };
}

/// The built-in games, in the order the menus list them.
const GAMES: &[(&str, &str)] = rule_files!("":
    "four-seasons", "florentine", "simplicity", "fortunes-favor", "canfield", "canfield-foster",
    "canfield-solo", "selective-canfield", "chameleon", "storehouse", "gate",
);

/// Other programs' variants, outside the default list.
const EXTRAS: &[(&str, &str)] = rule_files!("extra/":
    "canfield-pysol", "canfield-any-run", "chameleon-pysol", "fortunes-favor-no-redeal",
    "florentine-pysol", "gate-pysol", "storehouse-pysol", "rainbow", "superior-canfield",
);

/// The built-in games of the default list.
pub fn games() -> &'static [RuleSet] {
    static GAMES_PARSED: OnceLock<Vec<RuleSet>> = OnceLock::new();
    GAMES_PARSED.get_or_init(|| parse_all("games/", GAMES))
}

/// The variants under `games/extra/`.
pub fn extras() -> &'static [RuleSet] {
    static EXTRAS_PARSED: OnceLock<Vec<RuleSet>> = OnceLock::new();
    EXTRAS_PARSED.get_or_init(|| parse_all("games/extra/", EXTRAS))
}

/// The built-in game or variant with this id.
pub fn rules(id: &str) -> Option<RuleSet> {
    games()
        .iter()
        .chain(extras())
        .find(|rules| rules.id == id)
        .cloned()
}

/// Every id that [`rules`] knows, the default list first.
pub fn ids() -> impl Iterator<Item = &'static str> {
    GAMES.iter().chain(EXTRAS).map(|(id, _)| *id)
}

fn parse_all(dir: &str, files: &[(&str, &str)]) -> Vec<RuleSet> {
    files
        .iter()
        .map(|(id, text)| {
            // A built-in file that does not load is a bug caught by every test run, not an input error.
            RuleSet::from_toml(&format!("{dir}{id}.toml"), text)
                .unwrap_or_else(|e| panic!("built-in rule file: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_file_loads_under_its_own_id() {
        assert_eq!(games().len(), 11);
        assert_eq!(extras().len(), 9);
        for (rules, (id, _)) in games()
            .iter()
            .chain(extras())
            .zip(GAMES.iter().chain(EXTRAS))
        {
            assert_eq!(&rules.id, id);
        }
    }
}
