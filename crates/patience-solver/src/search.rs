//! Depth-first search over positions, with a transposition table and the pruning proved for the rule set.

use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use patience_core::{Card, Move, Pile, Position, RuleSet};

use crate::component::{Component, Components, Exit};
use crate::key::KeyShape;
use crate::prune::Pruning;
use crate::table::{Full, Table};

/// Bounds on one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time, if bounded.
    pub time: Option<Duration>,
    /// The most bytes the transposition table may take.
    pub memory_bytes: usize,
    /// The most positions to expand, if bounded.
    pub nodes: Option<u64>,
}

impl Default for Limits {
    /// No time or node limit; a table of at most 1 GiB.
    fn default() -> Limits {
        Limits {
            time: None,
            memory_bytes: 1 << 30,
            nodes: None,
        }
    }
}

/// The limit that stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// The time limit.
    Time,
    /// The memory limit of the transposition table.
    Memory,
    /// The node limit.
    Nodes,
    /// The caller cancelled the search.
    Cancelled,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Winnable: this line of moves wins from the position.
    Won(Vec<Move>),
    /// Proved unwinnable: no line wins.
    Lost,
    /// Not decided: a limit was reached first.
    Unknown(Limit),
}

/// A verdict and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// What the search found.
    pub verdict: Verdict,
    /// Moves tried (positions generated).
    pub nodes: u64,
    /// Positions stored in the transposition table.
    pub stored: usize,
    /// Wall-clock time taken.
    pub elapsed: Duration,
    /// Bytes the transposition table took at its largest.
    pub table_bytes: usize,
}

/// Decides whether `position` can be won under `rules`, within `limits`.
pub fn solve(rules: &RuleSet, position: &Position, limits: &Limits) -> Report {
    solve_with_cancel(rules, position, limits, &AtomicBool::new(false))
}

/// Decides as [`solve`] does, but with no pruning at all: exact positions as keys, every legal move searched.
/// Slow; it is the oracle that tests check the pruned search against on small packs.
pub fn solve_unpruned(rules: &RuleSet, position: &Position, limits: &Limits) -> Report {
    run(rules, position, limits, &AtomicBool::new(false), false)
}

/// As [`solve`], stopping with [`Limit::Cancelled`] soon after `cancel` becomes true.
pub fn solve_with_cancel(
    rules: &RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Report {
    run(rules, position, limits, cancel, true)
}

fn run(
    rules: &RuleSet,
    position: &Position,
    limits: &Limits,
    cancel: &AtomicBool,
    prune: bool,
) -> Report {
    let start = Instant::now();
    let (shape, pruning) = if prune {
        (KeyShape::new(rules), Pruning::for_rules(rules))
    } else {
        (KeyShape::exact(), Pruning::none())
    };
    let mut first_pass = Spent::default();
    if prune {
        let first_limits = first_pass_limits(limits);
        let mut streamlined = Search::new(rules, shape, pruning.streamlined(), &first_limits, 0);
        let verdict = streamlined.run(position, &first_limits, cancel, start);
        first_pass = streamlined.spent();
        if matches!(
            verdict,
            Verdict::Won(_) | Verdict::Unknown(Limit::Cancelled)
        ) {
            return first_pass.report(verdict, start);
        }
        // The streamlined pass's table is dropped here, before the full search's is made.
    }
    let mut search = Search::new(rules, shape, pruning, limits, first_pass.nodes);
    let verdict = search.run(position, limits, cancel, start);
    let spent = search.spent();
    Spent {
        nodes: spent.nodes,
        stored: spent.stored + first_pass.stored,
        table_bytes: spent.table_bytes.max(first_pass.table_bytes),
    }
    .report(verdict, start)
}

/// What one pass of the search used.
#[derive(Debug, Default, Clone, Copy)]
struct Spent {
    nodes: u64,
    stored: usize,
    table_bytes: usize,
}

impl Spent {
    fn report(self, verdict: Verdict, start: Instant) -> Report {
        Report {
            verdict,
            nodes: self.nodes,
            stored: self.stored,
            elapsed: start.elapsed(),
            table_bytes: self.table_bytes,
        }
    }
}

/// The share of the limits the streamlined first pass gets: half the time or nodes, or
/// [`FIRST_PASS_NODES`] when neither is bounded. Its wins come fast where there are any (Selective Canfield
/// deals 1..100 at 1 s: 86 won, 14 unknown with it; 62 won, 38 unknown without), and a first pass that finds none
/// often ends well before its share, handing the rest to the full search.
fn first_pass_limits(limits: &Limits) -> Limits {
    let bounded = limits.time.is_some() || limits.nodes.is_some();
    Limits {
        time: limits.time.map(|t| t / 2),
        memory_bytes: limits.memory_bytes,
        nodes: if bounded {
            limits.nodes.map(|n| n / 2)
        } else {
            Some(FIRST_PASS_NODES)
        },
    }
}

/// The first pass's nodes when the search has no time or node limit: a few seconds' work.
const FIRST_PASS_NODES: u64 = 5_000_000;

/// How often, in nodes, the limits are looked at.
const CHECK_EVERY: u64 = 4096;

struct Search<'a> {
    rules: &'a RuleSet,
    shape: KeyShape,
    pruning: Pruning,
    table: Table,
    /// The tableau components met, when the search goes by components.
    components: Option<Components>,
    nodes: u64,
}

/// One level of the depth-first search: a position, its steps in the order they are tried, and the step that
/// led to it from the level below.
struct Frame {
    position: Position,
    steps: Vec<Step>,
    next: usize,
    via: Option<Step>,
    /// The position after each number of stock turns the steps use (`turned[0]` is `position`), kept so that
    /// a step need not turn the stock again.
    turned: Vec<Position>,
    /// The component of the position's tableau, when the search goes by components.
    component: Option<Rc<Component>>,
}

/// One edge of the search: turn the stock `draws` times (draws and redeals), then make `mv` from the
/// component's tableau `member` (or from the position's own tableau). Without stock macro-moves `draws` is
/// always 0 and `mv` may itself be a draw or a redeal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    draws: u16,
    member: u32,
    mv: Move,
}

/// The `member` of a step made from the position's own tableau.
const OWN_TABLEAU: u32 = u32::MAX;

impl Step {
    fn own(draws: u16, mv: Move) -> Step {
        Step {
            draws,
            member: OWN_TABLEAU,
            mv,
        }
    }

    fn exit(draws: u16, exit: Exit) -> Step {
        Step {
            draws,
            member: exit.member,
            mv: exit.mv,
        }
    }
}

impl<'a> Search<'a> {
    /// A search whose table may take `limits`' memory, having spent `nodes` in an earlier pass (so that a node
    /// limit bounds both passes together).
    fn new(
        rules: &'a RuleSet,
        shape: KeyShape,
        pruning: Pruning,
        limits: &Limits,
        nodes: u64,
    ) -> Search<'a> {
        // Components, when used, get a quarter of the memory: they are a cache, emptied when full.
        let (table_bytes, components) = if pruning.components {
            let share = limits.memory_bytes / 4;
            let sort = shape.sorts_tableau();
            (
                limits.memory_bytes - share,
                Some(Components::new(share, sort)),
            )
        } else {
            (limits.memory_bytes, None)
        };
        Search {
            rules,
            shape,
            pruning,
            table: Table::new(table_bytes),
            components,
            nodes,
        }
    }

    fn spent(&self) -> Spent {
        Spent {
            nodes: self.nodes,
            stored: self.table.len(),
            table_bytes: self.table.bytes()
                + self.components.as_ref().map_or(0, Components::peak_bytes),
        }
    }

    /// The key of `position`, and the component of its tableau when the search goes by components (keyed by
    /// the component's representative tableau).
    fn key(&mut self, position: &Position) -> Result<(u128, Option<Rc<Component>>), Full> {
        Ok(match &mut self.components {
            Some(components) if !position.choice_pending() => {
                match components.of(self.rules, position)? {
                    Some(component) => {
                        let key = self.shape.key(&component.representative_under(position));
                        (key, Some(component))
                    }
                    None => (self.shape.key(position), None),
                }
            }
            _ => (self.shape.key(position), None),
        })
    }

    fn run(
        &mut self,
        root: &Position,
        limits: &Limits,
        cancel: &AtomicBool,
        start: Instant,
    ) -> Verdict {
        if root.is_won() {
            return Verdict::Won(Vec::new());
        }
        if let Some(limit) = self.limit_reached(limits, cancel, start) {
            return Verdict::Unknown(limit);
        }
        let Ok((key, component)) = self.key(root) else {
            return Verdict::Unknown(Limit::Memory);
        };
        if self.table.insert(key).is_err() {
            return Verdict::Unknown(Limit::Memory);
        }
        // Frames above `depth` keep their step lists' allocations for reuse.
        let mut frames: Vec<Frame> = Vec::new();
        let mut depth = 0;
        if self
            .enter(&mut frames, depth, *root, None, component)
            .is_err()
        {
            return Verdict::Unknown(Limit::Memory);
        }
        loop {
            let frame = &mut frames[depth];
            if frame.next == frame.steps.len() {
                if depth == 0 {
                    return Verdict::Lost;
                }
                depth -= 1;
                continue;
            }
            let step = frame.steps[frame.next];
            frame.next += 1;
            let turned = &frame.turned[step.draws as usize];
            let mut child = match &frame.component {
                Some(component) if step.member != OWN_TABLEAU => {
                    component.member_under(turned, step.member)
                }
                _ => *turned,
            };
            child.apply(self.rules, step.mv);
            if limits.nodes.is_some_and(|n| self.nodes >= n) {
                return Verdict::Unknown(Limit::Nodes);
            }
            self.nodes += 1;
            if self.nodes % CHECK_EVERY == 0 {
                if let Some(limit) = self.limit_reached(limits, cancel, start) {
                    return Verdict::Unknown(limit);
                }
            }
            if child.is_won() {
                let mut line = Vec::new();
                for level in 1..=depth {
                    if let Some(via) = frames[level].via {
                        self.take(&frames[level - 1], via, &mut line);
                    }
                }
                self.take(&frames[depth], step, &mut line);
                return Verdict::Won(line);
            }
            let Ok((key, component)) = self.key(&child) else {
                return Verdict::Unknown(Limit::Memory);
            };
            match self.table.insert(key) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => return Verdict::Unknown(Limit::Memory),
            }
            depth += 1;
            if self
                .enter(&mut frames, depth, child, Some(step), component)
                .is_err()
            {
                return Verdict::Unknown(Limit::Memory);
            }
        }
    }

    /// Makes a step from a frame's position, adding each move it makes to `line`: the reversible tableau moves
    /// to the member it leaves from, the draws, and its move.
    fn take(&self, frame: &Frame, step: Step, line: &mut Vec<Move>) {
        let mut position = frame.position;
        if let (Some(component), true) = (&frame.component, step.member != OWN_TABLEAU) {
            for mv in component.path(self.rules, &position, step.member) {
                position.apply(self.rules, mv);
                line.push(mv);
            }
        }
        for _ in 0..step.draws {
            if let Some(stock) = position.stock_move(self.rules) {
                position.apply(self.rules, stock);
                line.push(stock);
            }
        }
        line.push(step.mv);
    }

    /// Puts `position` at `depth`, with its steps in search order: a safe move alone if there is one; otherwise
    /// moves to the foundations and steps that turn the stock least first.
    fn enter(
        &mut self,
        frames: &mut Vec<Frame>,
        depth: usize,
        position: Position,
        via: Option<Step>,
        component: Option<Rc<Component>>,
    ) -> Result<(), Full> {
        if frames.len() == depth {
            frames.push(Frame {
                position,
                steps: Vec::new(),
                next: 0,
                via,
                turned: Vec::new(),
                component: None,
            });
        }
        let frame = &mut frames[depth];
        frame.position = position;
        frame.next = 0;
        frame.via = via;
        frame.steps.clear();
        frame.turned.clear();
        frame.turned.push(position);
        frame.component = component;
        if let Some(mv) = self.pruning.safe_move(self.rules, &position) {
            frame.steps.push(Step::own(0, mv));
            return Ok(());
        }
        let steps = &mut frame.steps;
        let macros = self.pruning.stock_macros && !position.choice_pending();
        // A component of one tableau has no moves within it: its steps are its position's own.
        let component = frame.component.as_ref().filter(|c| !c.is_single());
        if let Some(exit) =
            component.and_then(|c| c.safe_exit(&self.pruning, self.rules, &position))
        {
            frame.steps.push(Step::exit(0, exit));
            return Ok(());
        }
        if let Some(component) = component {
            self.component_steps(position, component, macros, steps, &mut frame.turned)?;
        } else if macros {
            position.for_each_legal_move(self.rules, |mv| {
                if !mv.is_stock_move() {
                    steps.push(Step::own(0, mv));
                }
            });
            let targets = position.targets(self.rules);
            turn_stock(self.rules, position, &mut frame.turned, |draws, turned| {
                turned.for_each_legal_move_from_with(self.rules, Pile::Waste, &targets, |mv| {
                    if !mv.is_stock_move() {
                        steps.push(Step::own(draws, mv));
                    }
                });
            });
        } else {
            position.for_each_legal_move(self.rules, |mv| steps.push(Step::own(0, mv)));
        }
        // The streamliner leaves a pending choice open: each choice is a different game.
        if self.pruning.every_foundation_move_first && !position.choice_pending() {
            let now = |step: &&Step| step.draws == 0 && matches!(step.mv.to, Pile::Foundation(_));
            if let Some(&first) = steps.iter().find(now) {
                steps.clear();
                steps.push(first);
                return Ok(());
            }
        }
        // With unlimited redeals no card is lost by turning past it, so foundation moves lead wherever the
        // stock stands; otherwise the nearest stock cards lead.
        let cycling = position.redeals_left().is_none();
        steps.sort_by_key(|step| {
            let rank = match (step.mv.from, step.mv.to) {
                (_, Pile::Foundation(_)) => 0,
                (Pile::Stock, _) | (_, Pile::Stock) => 2,
                _ => 1,
            };
            if cycling {
                (rank, step.draws)
            } else {
                (step.draws, rank)
            }
        });
        Ok(())
    }

    /// The steps out of `position`'s component: the moves that touch no tableau pile, made from `position`;
    /// tableau cards to the foundations, tableau moves that cannot be undone, and plays onto the tableau, each
    /// from the members it is made from; with stock macro-moves, the waste's top card at every state the stock
    /// turns to.
    fn component_steps(
        &mut self,
        position: Position,
        component: &Component,
        macros: bool,
        steps: &mut Vec<Step>,
        turned_to: &mut Vec<Position>,
    ) -> Result<(), Full> {
        let rules = self.rules;
        position.for_each_legal_move(rules, |mv| {
            let tableau = matches!(mv.from, Pile::Tableau(_)) || matches!(mv.to, Pile::Tableau(_));
            let turned_by_macros = macros && mv.is_stock_move();
            if !(tableau || turned_by_macros) {
                steps.push(Step::own(0, mv));
            }
        });
        let Some(components) = &mut self.components else {
            return Ok(());
        };
        let mut tops = component.tops;
        while tops != 0 {
            let card = Card::from_index(tops.trailing_zeros() as u8);
            tops &= tops - 1;
            if let Some(card) = card.filter(|&c| position.foundation_next(c.suit()) == Some(c)) {
                let exits = component.to_foundation(components, rules, &position, card)?;
                steps.extend(exits.iter().map(|&exit| Step::exit(0, exit)));
            }
        }
        steps.extend(component.leaving.iter().map(|&exit| Step::exit(0, exit)));
        let reserve = (0..position.reserve_piles() as u8).map(Pile::Reserve);
        let foundations = (0..4u8)
            .filter(|_| rules.foundations.cards_go_back)
            .map(Pile::Foundation);
        for from in std::iter::once(Pile::Waste)
            .chain(reserve)
            .chain(foundations)
        {
            let exits = component.onto_tableau(components, rules, &position, from)?;
            steps.extend(exits.iter().map(|&exit| Step::exit(0, exit)));
        }
        let mut full = Ok(());
        if macros {
            turn_stock(rules, position, turned_to, |draws, turned| {
                if let Some(card) = turned.top(Pile::Waste) {
                    if turned.foundation_next(card.suit()) == Some(card) {
                        let up = Move::new(Pile::Waste, Pile::Foundation(card.suit() as u8), 1);
                        steps.push(Step::own(draws, up));
                    }
                }
                match component.onto_tableau(components, rules, turned, Pile::Waste) {
                    Ok(exits) => steps.extend(exits.iter().map(|&exit| Step::exit(draws, exit))),
                    Err(e) => full = Err(e),
                }
            });
        }
        full
    }

    fn limit_reached(&self, limits: &Limits, cancel: &AtomicBool, start: Instant) -> Option<Limit> {
        if cancel.load(Ordering::Relaxed) {
            return Some(Limit::Cancelled);
        }
        if limits.time.is_some_and(|t| start.elapsed() >= t) {
            return Some(Limit::Time);
        }
        None
    }
}

/// Turns the stock from `position` to every state it can reach, keeping each in `turned_to` and handing it to
/// `visit` with the number of turns: to the end of the stock and through every redeal allowed; with unlimited
/// redeals, through one whole pass after the first redeal, after which the passes repeat.
fn turn_stock(
    rules: &RuleSet,
    position: Position,
    turned_to: &mut Vec<Position>,
    mut visit: impl FnMut(u16, &Position),
) {
    let mut turned = position;
    let mut draws = 0u16;
    let mut unlimited_redeals = 0;
    while let Some(stock) = turned.stock_move(rules) {
        if stock.is_redeal() && turned.redeals_left().is_none() {
            unlimited_redeals += 1;
            if unlimited_redeals == 2 {
                break;
            }
        }
        turned.apply(rules, stock);
        turned_to.push(turned);
        draws += 1;
        visit(draws, &turned);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reduced Canfield (ranks A–6): small enough that every deal is decided at once.
    fn reduced_canfield() -> RuleSet {
        RuleSet::from_toml(
            "fixtures/reduced/canfield.toml",
            include_str!("../tests/fixtures/reduced/canfield.toml"),
        )
        .expect("the reduced Canfield fixture")
    }

    /// The verdict of the streamlined pass alone, with no time limit.
    fn streamlined_alone(rules: &RuleSet, position: &Position) -> Verdict {
        let limits = Limits::default();
        let mut search = Search::new(
            rules,
            KeyShape::new(rules),
            Pruning::for_rules(rules).streamlined(),
            &limits,
            0,
        );
        search.run(position, &limits, &AtomicBool::new(false), Instant::now())
    }

    /// The verdict of the full pass alone, with no time limit.
    fn full_pass_alone(rules: &RuleSet, position: &Position) -> Verdict {
        let limits = Limits::default();
        let mut search = Search::new(
            rules,
            KeyShape::new(rules),
            Pruning::for_rules(rules),
            &limits,
            0,
        );
        search.run(position, &limits, &AtomicBool::new(false), Instant::now())
    }

    /// Lines won by components are rebuilt with the tableau moves within each component, so they replay move by
    /// move through the rules, and some of them need those moves.
    #[test]
    fn lines_won_through_components_replay() {
        let fixtures = [
            include_str!("../tests/fixtures/reduced/four-seasons.toml"),
            include_str!("../tests/fixtures/reduced/chameleon.toml"),
            include_str!("../tests/fixtures/reduced/canfield-any-run.toml"),
        ];
        for text in fixtures {
            let rules = RuleSet::from_toml("fixture", text).expect("a reduced fixture");
            assert!(Pruning::for_rules(&rules).components, "{}", rules.id);
            let (mut won, mut rearranged) = (0, 0);
            for deal in 1..=150 {
                let position = Position::deal(&rules, deal).expect("a deal");
                let Verdict::Won(line) = full_pass_alone(&rules, &position) else {
                    continue;
                };
                let mut replay = position;
                for &mv in &line {
                    replay.play(&rules, mv).expect("a legal move");
                }
                assert!(replay.is_won(), "{} deal {deal}", rules.id);
                won += 1;
                let mut search = Search::new(
                    &rules,
                    KeyShape::new(&rules),
                    Pruning::for_rules(&rules),
                    &Limits::default(),
                    0,
                );
                let mut at = position;
                for &mv in &line {
                    let component = search.key(&at).expect("room").1;
                    let within = component.is_some_and(|c| !c.is_single())
                        && matches!((mv.from, mv.to), (Pile::Tableau(_), Pile::Tableau(_)));
                    rearranged += usize::from(within);
                    at.apply(&rules, mv);
                }
            }
            assert!(
                won > 0 && rearranged > 0,
                "{}: {won} won, {rearranged} moves within components",
                rules.id
            );
        }
    }

    #[test]
    fn a_deal_the_streamlined_pass_cannot_win_is_still_won_by_the_full_search() {
        let rules = reduced_canfield();
        let mut missed = 0;
        for deal in 1..=300 {
            let position = Position::deal(&rules, deal).expect("a deal");
            let full = solve(&rules, &position, &Limits::default()).verdict;
            let exact = solve_unpruned(&rules, &position, &Limits::default()).verdict;
            assert_eq!(
                matches!(full, Verdict::Won(_)),
                matches!(exact, Verdict::Won(_)),
                "deal {deal}"
            );
            if matches!(full, Verdict::Won(_))
                && streamlined_alone(&rules, &position) == Verdict::Lost
            {
                missed += 1;
            }
        }
        assert!(
            missed > 0,
            "some won deal is lost to the streamliner, so its failure must prove nothing"
        );
    }
}
