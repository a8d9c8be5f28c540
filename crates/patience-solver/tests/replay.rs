//! Every winning line the solver gives for the full built-in games replays through the rules engine's checked
//! `play` and ends won: from the first deals, and from positions some random moves into a deal.
//!
//! The searches have a short time limit, so many deals end undecided; the tests check the lines they do give. A
//! longer run: `PATIENCE_DEALS=100 cargo test -p patience-solver --release --test replay -- --nocapture`.

mod common;

use std::time::Duration;

use patience_core::{Position, RuleSet};
use patience_solver::{solve, Limits, Verdict};

use common::{check_line, random_walk};

/// Deals each game takes unless `PATIENCE_DEALS` says otherwise.
const DEALS: u64 = 8;
/// Deals each game takes positions some random moves into.
const MIDDLE_DEALS: u64 = 3;

/// Solves the first deals of a game, and positions a few random moves into some of them, and replays every win.
fn replay_wins(rules: &RuleSet) {
    let limits = Limits {
        time: Some(Duration::from_millis(150)),
        ..Limits::default()
    };
    let deals = std::env::var("PATIENCE_DEALS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEALS);
    let mut counts = [0u32; 3];
    let mut failures = Vec::new();
    let mut check = |position: &Position, what: String| {
        let report = solve(rules, position, &limits);
        counts[match report.verdict {
            Verdict::Won(_) => 0,
            Verdict::Lost => 1,
            Verdict::Unknown(_) => 2,
        }] += 1;
        if let Err(e) = check_line(rules, position, &report) {
            failures.push(format!("{} {what}: {e}", rules.id));
        }
    };
    for deal in 1..=deals {
        let start = Position::deal(rules, deal).expect("deal numbers start at 1");
        check(&start, format!("deal {deal}"));
        if deal <= MIDDLE_DEALS {
            for walk in [5, 20] {
                let middle = random_walk(rules, &start, walk, deal * 100 + walk as u64);
                check(&middle, format!("deal {deal} after {walk} random moves"));
            }
        }
    }
    println!(
        "{:>26}: {} won (replayed), {} lost, {} unknown",
        rules.id, counts[0], counts[1], counts[2]
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn game(id: &str) -> RuleSet {
    patience_core::builtin::rules(id).unwrap_or_else(|| panic!("no built-in game {id}"))
}

macro_rules! replays {
    ($($test:ident: $id:literal;)*) => {
        $(
            #[test]
            fn $test() {
                replay_wins(&game($id));
            }
        )*

        const REPLAYED: &[&str] = &[$($id),*];
    };
}

replays! {
    four_seasons: "four-seasons";
    florentine: "florentine";
    simplicity: "simplicity";
    fortunes_favor: "fortunes-favor";
    canfield: "canfield";
    canfield_foster: "canfield-foster";
    canfield_solo: "canfield-solo";
    selective_canfield: "selective-canfield";
    chameleon: "chameleon";
    storehouse: "storehouse";
    gate: "gate";
    canfield_pysol: "canfield-pysol";
    canfield_any_run: "canfield-any-run";
    chameleon_pysol: "chameleon-pysol";
    fortunes_favor_no_redeal: "fortunes-favor-no-redeal";
    florentine_pysol: "florentine-pysol";
    gate_pysol: "gate-pysol";
    storehouse_pysol: "storehouse-pysol";
    rainbow: "rainbow";
    superior_canfield: "superior-canfield";
}

#[test]
fn every_built_in_game_and_variant_is_replayed() {
    let games = patience_core::builtin::games();
    let extras = patience_core::builtin::extras();
    let ids: Vec<&str> = games.iter().chain(extras).map(|r| r.id.as_str()).collect();
    assert_eq!(REPLAYED, ids.as_slice());
}

#[test]
fn a_won_position_is_won_with_no_moves() {
    // The end of a winning line is won, and from there the line is empty.
    let rules = common::reduced("four-seasons");
    let (start, line) = (1..=20)
        .find_map(|deal| {
            let start = Position::deal(&rules, deal).expect("deal numbers start at 1");
            match solve(&rules, &start, &Limits::default()).verdict {
                Verdict::Won(line) => Some((start, line)),
                _ => None,
            }
        })
        .expect("a won deal among the first twenty of reduced Four Seasons");
    let end = common::replay(&rules, &start, &line).expect("the line replays");
    assert!(end.is_won());
    assert_eq!(
        solve(&rules, &end, &Limits::default()).verdict,
        Verdict::Won(Vec::new())
    );
}

#[test]
fn a_position_met_again_deeper_is_searched_there() {
    // A child is claimed when the search steps into it, not when its parent is entered: claimed early, a position
    // met again deeper in an earlier sibling's search waits for its parent, and this deal, won in under 200,000
    // nodes, stayed undecided after 100 million.
    let rules = game("florentine");
    let start = Position::deal(&rules, 130).expect("deal numbers start at 1");
    let limits = Limits {
        nodes: Some(1_000_000),
        ..Limits::default()
    };
    let report = solve(&rules, &start, &limits);
    assert!(
        matches!(report.verdict, Verdict::Won(_)),
        "{:?} after {} nodes",
        report.verdict,
        report.nodes
    );
    check_line(&rules, &start, &report).expect("the line replays");
}
