//! Metamorphic tests: pairs of rule sets where every deal won under the first is won under the second, because
//! the second allows every move of the first (and the moves do the same). The solver must never call such a deal
//! lost under the second; and the first rule set's winning line, translated where needed, must win under the
//! second through the checked `play`.
//!
//! Only implications that hold are here; each pair says why. Some that do not hold, and so are left out:
//! - whole-pile Canfield to Solvitaire's any-run Canfield: that one also changes the rank order (from the base,
//!   no wrap), which forbids builds round the corner;
//! - Four Seasons to the built-in Florentine: the centre pile holding one card takes moves away;
//! - a draw of one to a draw of three, or the reverse: each reaches waste cards the other cannot;
//! - Superior Canfield to Canfield: a forced fill takes away the choice of leaving a space empty.
//!
//! The games are the reduced packs of `tests/fixtures/reduced/`, so that the searches end.

mod common;

use patience_core::{Move, Pile, Position, RuleSet};
use patience_solver::{solve, Limits, Verdict};

use common::{kind, reduced, replay, REDUCED};

/// Deals each pair takes.
const DEALS: u64 = 60;

/// How a line won under the first rule set becomes a line under the second.
#[derive(Clone, Copy)]
enum Translate {
    /// The same moves.
    Same,
    /// After each move, the spaces the first rule set fills by force from the reserve are filled at will, left to
    /// right, from the first reserve pile.
    FillFromReserve,
}

/// The reduced rule file of `id` with each `(from, to)` text replaced, read as a new rule set.
fn changed(id: &str, edits: &[(&str, &str)]) -> RuleSet {
    let (_, text) = REDUCED
        .iter()
        .find(|(name, _)| *name == id)
        .unwrap_or_else(|| panic!("no reduced rule file for {id}"));
    // A name of its own, for the messages.
    let mut text = text.replacen("-reduced\"", "-reduced-changed\"", 1);
    for (from, to) in edits {
        assert!(text.contains(from), "{id}: no {from:?} to change");
        text = text.replacen(from, to, 1);
    }
    RuleSet::from_toml(&format!("{id} changed"), &text)
        .unwrap_or_else(|e| panic!("changed rule file for {id}: {e}"))
}

/// Whether two positions hold the same cards in the same places (redeals left may differ).
fn same_layout(a: &Position, b: &Position) -> bool {
    a.piles().eq(b.piles())
        && a.piles().all(|pile| match pile {
            Pile::Foundation(suit) => {
                a.foundation_len(suit as usize) == b.foundation_len(suit as usize)
            }
            other => a.pile(other) == b.pile(other),
        })
        && a.base_rank() == b.base_rank()
}

/// The line under `to` that does what `line` does under `from`.
fn translate(
    to: &RuleSet,
    start: &Position,
    line: &[Move],
    how: Translate,
) -> Result<Vec<Move>, String> {
    match how {
        Translate::Same => Ok(line.to_vec()),
        Translate::FillFromReserve => {
            let mut position = *start;
            let mut out = Vec::new();
            for &mv in line {
                let mut step = vec![mv];
                position.play(to, mv).map_err(|e| e.to_string())?;
                while position.len(Pile::Reserve(0)) > 0 {
                    let Some(space) = (0..position.tableau_piles() as u8)
                        .map(Pile::Tableau)
                        .find(|&t| position.len(t) == 0)
                    else {
                        break;
                    };
                    let fill = Move::new(Pile::Reserve(0), space, 1);
                    position.play(to, fill).map_err(|e| e.to_string())?;
                    step.push(fill);
                }
                out.extend(step);
            }
            Ok(out)
        }
    }
}

/// Checks that every deal won under `from` is won under `to`; returns how many deals were won under `from`.
fn implies(from: &RuleSet, to: &RuleSet, how: Translate) -> u32 {
    let limits = Limits {
        time: Some(std::time::Duration::from_secs(5)),
        memory_bytes: 64 << 20,
        nodes: None,
    };
    let mut won = 0;
    let mut failures = Vec::new();
    for deal in 1..=DEALS {
        let start = Position::deal(from, deal).expect("deal numbers start at 1");
        let target = Position::deal(to, deal).expect("deal numbers start at 1");
        assert!(
            same_layout(&start, &target),
            "deal {deal}: the two rule sets deal differently"
        );
        let Verdict::Won(line) = solve(from, &start, &limits).verdict else {
            continue;
        };
        won += 1;
        let what = format!("deal {deal} won under {}", from.id);
        match translate(to, &target, &line, how).and_then(|line| replay(to, &target, &line)) {
            Ok(end) if end.is_won() => {}
            Ok(_) => failures.push(format!("{what}: its line does not win under {}", to.id)),
            Err(e) => failures.push(format!("{what}: its line is refused under {}: {e}", to.id)),
        }
        let report = solve(to, &target, &limits);
        if report.verdict == Verdict::Lost {
            failures.push(format!(
                "{what}: the solver says {} under {}",
                kind(&report.verdict),
                to.id
            ));
        }
        if let Err(e) = common::check_line(to, &target, &report) {
            failures.push(format!(
                "{what}: the line found under {} does not replay: {e}",
                to.id
            ));
        }
    }
    println!(
        "{} => {}: {won} of {DEALS} deals won under the first",
        from.id, to.id
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    won
}

/// Asserts that a pair was tested on a fair number of won deals.
fn assert_tested(won: u32) {
    assert!(won >= 10, "only {won} won deals to test the implication on");
}

#[test]
fn whole_pile_canfield_won_is_won_when_any_run_moves() {
    // Any run includes the whole pile (always a run: piles start with one card and grow by building), and the
    // order stays circular, so every move of whole-pile Canfield is a move of the any-run game.
    let from = reduced("canfield");
    let to = changed(
        "canfield",
        &[("moves = \"whole-pile\"", "moves = \"any-run\"")],
    );
    assert_tested(implies(&from, &to, Translate::Same));
}

#[test]
fn canfield_won_is_won_under_pysol_rules() {
    // PySolFC's Canfield adds the top card alone, and tableau cards into spaces once the reserve is out.
    assert_tested(implies(
        &reduced("canfield"),
        &reduced("canfield-pysol"),
        Translate::Same,
    ));
}

#[test]
fn canfield_won_is_won_when_spaces_fill_at_will() {
    // Superior Canfield fills a space from the reserve when the player likes: filling it at once does what
    // Canfield's forced fill does.
    assert_tested(implies(
        &reduced("canfield"),
        &reduced("superior-canfield"),
        Translate::FillFromReserve,
    ));
}

#[test]
fn canfield_won_is_won_under_fosters_rules() {
    // Foster's Canfield: spaces from the reserve at will, and the top card of a two-card pile may move alone.
    assert_tested(implies(
        &reduced("canfield"),
        &reduced("canfield-foster"),
        Translate::FillFromReserve,
    ));
}

#[test]
fn chameleon_won_with_top_or_whole_is_won_when_any_run_moves() {
    // The top card and the whole pile are both runs.
    assert_tested(implies(
        &reduced("chameleon-pysol"),
        &reduced("chameleon"),
        Translate::Same,
    ));
}

#[test]
fn storehouse_won_is_won_when_the_top_card_may_move_alone() {
    assert_tested(implies(
        &reduced("storehouse"),
        &reduced("storehouse-pysol"),
        Translate::Same,
    ));
}

#[test]
fn fortunes_favor_won_without_a_redeal_is_won_with_one() {
    // A redeal is only a move more; nothing else in the rules looks at the redeals left.
    let from = reduced("fortunes-favor-no-redeal");
    let to = changed(
        "fortunes-favor-no-redeal",
        &[("redeals = 0", "redeals = 1")],
    );
    assert_tested(implies(&from, &to, Translate::Same));
}

#[test]
fn four_seasons_won_is_won_with_one_redeal() {
    // Four Seasons with one redeal is PySolFC's Florentine Patience.
    let from = reduced("four-seasons");
    let to = changed("four-seasons", &[("redeals = 0", "redeals = 1")]);
    assert_tested(implies(&from, &to, Translate::Same));
}

#[test]
fn storehouse_won_with_two_redeals_is_won_with_three() {
    let from = reduced("storehouse");
    let to = changed("storehouse", &[("redeals = 2", "redeals = 3")]);
    assert_tested(implies(&from, &to, Translate::Same));
}

#[test]
fn rainbow_won_without_a_redeal_is_won_with_unlimited_redeals() {
    let from = reduced("rainbow");
    let to = changed("rainbow", &[("redeals = 0", "redeals = \"unlimited\"")]);
    assert_tested(implies(&from, &to, Translate::Same));
}

#[test]
fn won_building_in_alternate_colours_is_won_building_regardless_of_suit() {
    // Every alternate-colour build is an any-suit build; with whole-pile moves the runs do not matter.
    let from = changed(
        "rainbow",
        &[("build = \"any-suit\"", "build = \"alternate-colours\"")],
    );
    assert_tested(implies(&from, &reduced("rainbow"), Translate::Same));
}
