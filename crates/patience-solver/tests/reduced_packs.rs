//! The key soundness check: on reduced packs (20 to 32 cards), the pruned search must give exactly the verdicts of
//! the no-pruning oracle, deal by deal, for every built-in game and variant, from each deal and from a position some
//! random moves into it; and every winning line must replay through the rules engine's checked `play`.
//!
//! Each game has a quick sweep that always runs and a long one that is ignored by default. Run the long ones with
//!
//! ```text
//! cargo test -p patience-solver --release --test reduced_packs -- --ignored --nocapture
//! ```
//!
//! `--nocapture` shows the won/lost/unknown counts of each game. `PATIENCE_DEALS=N` changes how many deals the
//! long sweeps take (1000 unless told).

mod common;

use std::time::Duration;

use patience_core::{Position, RuleSet};
use patience_solver::{solve, solve_unpruned, Limits, Verdict};

use common::{check_line, kind, random_walk, reduced, REDUCED};

/// Deals the quick sweeps take.
const QUICK_DEALS: u64 = 30;
/// Deals the long sweeps take unless `PATIENCE_DEALS` says otherwise.
const LONG_DEALS: u64 = 1000;

/// What a sweep found.
#[derive(Debug, Default)]
struct Tally {
    won: u32,
    lost: u32,
    /// Deals where either search hit its limit, so nothing is compared.
    unknown: u32,
    /// Every disagreement and every line that does not replay, with its deal.
    failures: Vec<String>,
}

/// The limits of each search a sweep compares: far above what a reduced deal needs.
const LIMITS: Limits = Limits {
    time: Some(Duration::from_secs(5)),
    memory_bytes: 64 << 20,
    nodes: None,
};

/// Solves deals `1..=deals` of the reduced game `id` with and without pruning and compares them.
fn sweep(id: &str, deals: u64) -> Tally {
    let rules = reduced(id);
    let mut tally = Tally::default();
    for deal in 1..=deals {
        let start = Position::deal(&rules, deal).expect("deal numbers start at 1");
        compare(
            &rules,
            &start,
            &LIMITS,
            &format!("{id} deal {deal}"),
            &mut tally,
        );
        let walk = 3 + (deal % 8) as usize;
        let middle = random_walk(&rules, &start, walk, deal);
        let what = format!("{id} deal {deal} after {walk} random moves (seed {deal})");
        compare(&rules, &middle, &LIMITS, &what, &mut tally);
    }
    println!(
        "{id:>26}: {:>3} won, {:>3} lost, {:>2} unknown of {} positions",
        tally.won,
        tally.lost,
        tally.unknown,
        2 * deals
    );
    tally
}

/// Solves one position both ways and adds what was found to `tally`.
fn compare(rules: &RuleSet, start: &Position, limits: &Limits, what: &str, tally: &mut Tally) {
    let pruned = solve(rules, start, limits);
    let oracle = solve_unpruned(rules, start, limits);
    // Cut off at half its nodes, each pass gets less, and the later ones start from what the relaxed passes
    // proved lost before they were cut: a verdict it still reaches must be the oracle's.
    let cut_limits = Limits {
        nodes: Some(pruned.nodes / 2),
        ..*limits
    };
    let cut = solve(rules, start, &cut_limits);
    if cut.verdict == Verdict::Lost && matches!(oracle.verdict, Verdict::Won(_)) {
        tally.failures.push(format!(
            "{what}: cut off at {} nodes, the pruned search says lost, the unpruned oracle says won",
            pruned.nodes / 2,
        ));
    }
    for (name, report) in [
        ("pruned", &pruned),
        ("unpruned", &oracle),
        ("cut off", &cut),
    ] {
        if let Err(e) = check_line(rules, start, report) {
            tally.failures.push(format!(
                "{what}: the {name} winning line does not replay: {e}"
            ));
        }
    }
    match (&pruned.verdict, &oracle.verdict) {
        (Verdict::Unknown(_), _) | (_, Verdict::Unknown(_)) => tally.unknown += 1,
        (Verdict::Won(_), Verdict::Won(_)) => tally.won += 1,
        (Verdict::Lost, Verdict::Lost) => tally.lost += 1,
        (p, o) => tally.failures.push(format!(
            "{what}: pruned search says {}, the unpruned oracle says {}",
            kind(p),
            kind(o)
        )),
    }
}

/// Asserts a sweep found no failure, few unknowns, and (when `mixed`) both verdicts.
fn assert_sound(id: &str, deals: u64, tally: &Tally, mixed: bool) {
    assert!(
        tally.failures.is_empty(),
        "{id}: {} failures:\n{}",
        tally.failures.len(),
        tally.failures.join("\n")
    );
    assert!(
        u64::from(tally.unknown) * 20 <= 2 * deals,
        "{id}: {} of {} positions undecided within the limits",
        tally.unknown,
        2 * deals
    );
    if mixed {
        assert!(
            tally.won > 0 && tally.lost > 0,
            "{id}: {} won and {} lost: a sweep that is all one verdict proves little",
            tally.won,
            tally.lost
        );
    }
}

/// A deal that caught a rule wrong beyond the quick sweeps' reach, checked on every run: Foster's deal 2616, lost
/// when a card laid on a pile's bottom card was taken to be held there (it moves alone again from a pile of two).
#[test]
fn a_deal_that_caught_a_rule_wrong() {
    let (id, deal) = ("canfield-foster", 2616);
    let rules = reduced(id);
    let start = Position::deal(&rules, deal).expect("a deal");
    let mut tally = Tally::default();
    compare(
        &rules,
        &start,
        &LIMITS,
        &format!("{id} deal {deal}"),
        &mut tally,
    );
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    assert_eq!(tally.won, 1, "the deal is won");
}

fn long_deals() -> u64 {
    std::env::var("PATIENCE_DEALS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(LONG_DEALS)
}

/// A quick sweep and a long (ignored) sweep for each game. The flag says whether the long sweep must find both
/// verdicts: the reduced Florentines are won on every deal tried (a pile that takes any card of the next rank
/// down, round the corner, and a redeal make small packs easy), so for them the sweep checks only that pruning
/// never loses a won deal.
macro_rules! sweeps {
    ($($quick:ident, $long:ident: $id:literal, $mixed:literal;)*) => {
        $(
            #[test]
            fn $quick() {
                let tally = sweep($id, QUICK_DEALS);
                assert_sound($id, QUICK_DEALS, &tally, false);
            }

            #[test]
            #[ignore = "long sweep: run with --release -- --ignored"]
            fn $long() {
                let deals = long_deals();
                let tally = sweep($id, deals);
                assert_sound($id, deals, &tally, $mixed);
            }
        )*

        /// Every reduced rule file has its sweeps.
        const SWEPT: &[&str] = &[$($id),*];
    };
}

sweeps! {
    four_seasons, four_seasons_long: "four-seasons", true;
    florentine, florentine_long: "florentine", false;
    simplicity, simplicity_long: "simplicity", true;
    fortunes_favor, fortunes_favor_long: "fortunes-favor", true;
    canfield, canfield_long: "canfield", true;
    canfield_foster, canfield_foster_long: "canfield-foster", true;
    canfield_solo, canfield_solo_long: "canfield-solo", true;
    selective_canfield, selective_canfield_long: "selective-canfield", true;
    chameleon, chameleon_long: "chameleon", true;
    storehouse, storehouse_long: "storehouse", true;
    gate, gate_long: "gate", true;
    canfield_pysol, canfield_pysol_long: "canfield-pysol", true;
    canfield_any_run, canfield_any_run_long: "canfield-any-run", true;
    chameleon_pysol, chameleon_pysol_long: "chameleon-pysol", true;
    fortunes_favor_no_redeal, fortunes_favor_no_redeal_long: "fortunes-favor-no-redeal", true;
    florentine_pysol, florentine_pysol_long: "florentine-pysol", false;
    gate_pysol, gate_pysol_long: "gate-pysol", true;
    storehouse_pysol, storehouse_pysol_long: "storehouse-pysol", true;
    rainbow, rainbow_long: "rainbow", true;
    superior_canfield, superior_canfield_long: "superior-canfield", true;
}

#[test]
fn every_built_in_game_and_variant_has_a_reduced_rule_file_and_a_sweep() {
    let ids: Vec<&str> = patience_core::builtin::ids().collect();
    let files: Vec<&str> = REDUCED.iter().map(|(id, _)| *id).collect();
    assert_eq!(files, ids);
    assert_eq!(SWEPT, ids.as_slice());
    for id in ids {
        let rules = reduced(id);
        let full = patience_core::builtin::rules(id).expect("a built-in id");
        assert!(rules.pack.ranks < 13, "{id}");
        // The same rules of play; only the pack and the layout shrink.
        assert_eq!(rules.foundations, full.foundations, "{id}");
        assert_eq!(rules.tableau.build, full.tableau.build, "{id}");
        assert_eq!(rules.tableau.order, full.tableau.order, "{id}");
        assert_eq!(rules.tableau.moves, full.tableau.moves, "{id}");
        assert_eq!(rules.tableau.capacity, full.tableau.capacity, "{id}");
        assert_eq!(rules.tableau.spaces, full.tableau.spaces, "{id}");
        assert_eq!(
            rules.tableau.top_card_from_piles_of, full.tableau.top_card_from_piles_of,
            "{id}"
        );
        assert_eq!(rules.stock, full.stock, "{id}");
    }
}
