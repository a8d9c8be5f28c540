//! Wins looked for beside the exhaustive search: a beam search, which keeps, depth after depth, only the positions
//! that look closest to a win.
//!
//! The depth-first passes go deep into the first moves they try, and where a game's wins are long lines through a
//! large space they may never come back up to the move that mattered: Four Seasons deals won by lines of 130 to
//! 210 moves stayed undecided after 60 s of search. A beam search looks at every move from the positions it keeps,
//! and keeps at each depth the `width` children that score best (cards on the foundations, then cards buried over
//! the foundations' next cards, cards left in the reserve and in a waste that no redeal turns back, and spaces).
//! It proves nothing when it finds no win, but every line it finds is a line of legal moves: the search returns it
//! as it is.
//!
//! One beam is never enough, since which width wins is not monotone (of Four Seasons deals 1..100, one beam 1,000
//! wide won 65 and one 10,000 wide won 67, together 81), nor which weights of the score do, so the beams come one
//! after another: at each width one beam for each set of weights (see [`WEIGHTS`]), then twice as wide, from a few
//! dozen positions up to what the memory they may take holds. The search hands the beam a few nodes at a time
//! (see [`BEAM_SHARE`]), so that a deal the beam cannot win costs a share more, no more.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use patience_core::{Move, Pile, Position, RuleSet};

use crate::dead_end::DeadEnds;
use crate::key::{run_moved_alone, KeyShape};
use crate::prune::Pruning;
use crate::relax::{next_cards, tableau_moves_undo};
use crate::search::{legal_steps, take, Step};
use crate::table::{Table, NOT_MET};

/// The beams take one node in this many of a pass before the full search (but see
/// [`share_before_the_full_search`]): at each check of the limits, every `CHECK_EVERY` nodes counted with theirs,
/// they get this share of a check's nodes.
const BEAM_SHARE: u64 = 8;

/// The beams' share (see [`BEAM_SHARE`]) before the full search where every move between tableau piles can be
/// undone (see [`share_before_the_full_search`]): half the nodes. At 500,000 nodes a deal, Four Seasons deals
/// 1..1000 gave 922 won, 1 lost, 77 unknown, against 897, 1, 102 with one node in eight, 908, 1, 91 with one in
/// four, and 930, 1, 69 with all of them; Simplicity deals 1..10000 all won with one in two, four or eight, and
/// 770 of them left undecided with all of them, its relaxed passes starved of the nodes they win it with.
const BEAM_SHARE_WHERE_MOVES_UNDO: u64 = 2;

/// The beams' share (see [`BEAM_SHARE`]) of the passes before the full search under `rules`, until relaxed passes
/// have run and proved nothing. Where every move between tableau piles can be undone (see
/// [`tableau_moves_undo`]), the relaxed games seldom have a loss to prove, and the beams, which find most of those
/// games' slow wins, get half the nodes ([`BEAM_SHARE_WHERE_MOVES_UNDO`]). Elsewhere the relaxed passes prove the
/// losses, and need the nodes: one node in two for the beams left Chameleon deals 1..400 with 106 proved lost at
/// 500,000 nodes a deal, against 123.
pub(crate) fn share_before_the_full_search(rules: &RuleSet) -> u64 {
    if tableau_moves_undo(rules) {
        BEAM_SHARE_WHERE_MOVES_UNDO
    } else {
        BEAM_SHARE
    }
}

/// Where every move between tableau piles can be undone (see [`tableau_moves_undo`]), the beams take every node of
/// the passes before the full search once a search has made this many (see [`Beam::alone_from`]). Beyond their
/// first nodes the depth-first passes seldom decide such a deal: of the 80 first Four Seasons deals of 1..10000
/// left undecided at 500,000 nodes, 55 were won within 10 million nodes, 54 of them by the beams. So from a million
/// nodes on the beams took them all (session 57): the 80 deals at 20 million nodes a deal, 67 won against 64, the
/// 64 won both ways in 174 million nodes against 264 million. Since their positions are capped by stage (see
/// [`STAGE_SHARE`]), from 100,000 nodes on: Four Seasons deals 1..10000 at 500,000 nodes a deal (two threads)
/// gave 9,400 won, 11 lost, 589 unknown, against 9,327, 11, 662 from 250,000 nodes and 9,278, 12, 710 from a
/// million (deal 9741, lost in 381,000 nodes, then takes 5.5 million). Below it the relaxed passes keep their
/// share, which wins Simplicity (all of its deals of 1..10000 within 500,000 nodes, where 770 were left undecided
/// with every node to the beams; deals 1..4000 all won from 100,000 nodes, and Florentine's) and proves Four Seasons'
/// few losses (deal 324 in 1,984 nodes).
pub(crate) const BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO: u64 = 100_000;

/// From how many nodes searched the beams take every node of the passes before the full search under `rules`:
/// [`BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO`] where every move between tableau piles can be undone, and never
/// elsewhere, where the relaxed passes prove the losses.
pub(crate) fn alone_before_the_full_search_from(rules: &RuleSet) -> u64 {
    if tableau_moves_undo(rules) {
        BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO
    } else {
        u64::MAX
    }
}

/// The beams' share (see [`BEAM_SHARE`]) beside a streamlined pass once relaxed passes have run and proved nothing
/// (see `crate::search`): all of it, so that such a pass searches only up to its first check, which wins the
/// deals it wins at once, and the beams take the rest of its share of the limits. Half and half (2) won 74 of the
/// 102 Four Seasons deals of 1..1000 left undecided at 500,000 nodes, at 20 million nodes a deal, against 77.
pub(crate) const BEAM_SHARE_AFTER_RELAXED_PASSES: u64 = 1;

/// The beams' share (see [`BEAM_SHARE`]) beside the full search, where it has no limit (see `crate::search`).
pub(crate) const BEAM_SHARE_BESIDE_FULL_SEARCH: u64 = 32;

/// The beams' share (see [`BEAM_SHARE`]) beside the full search where the laxer relaxed game was won (see
/// `crate::search`): half the nodes, until the beams are done. The deal is then likelier won, and the streamlined
/// passes, which give the beams the rest of their share of the limits otherwise, may end at once: on Chameleon
/// deal 159 both streamlined games were lost within 3,000 nodes, and the full search found the win alone after
/// 185 million nodes (50.9 s); with the beams beside it, in 6.3 s.
pub(crate) const BEAM_SHARE_AFTER_RELAXED_WIN: u64 = 2;

/// The beam's table and positions may take this share of the memory limit.
pub(crate) const BEAM_MEMORY_SHARE: usize = 8;

/// The first beam's width.
const FIRST_WIDTH: usize = 64;

/// A beam deeper than this many steps is dropped for the next: no line of the built-in games is half as long.
const MOST_STEPS: usize = 2048;

/// A beam keeps, at each depth, at most one position in this many of its width (one at least) at any one stage
/// (see [`stage`]), so that positions that differ only in how the tableau lies do not fill it. Without it the
/// beams of a Four Seasons deal that is hard to win keep, depth after depth, the tableau's arrangements of a few
/// stages, and die out when those are all dead ends. Of the 113 Four Seasons deals of 1..1500 left undecided at
/// 500,000 nodes, the solver at 10 million nodes a deal won 83 without the cap; 85 with a quarter of the width, 90
/// with a sixteenth, 91 with a thirty-second (the 82 won both ways in 132 million nodes against 172 million), 91
/// with a sixty-fourth and 88 with a 256th. On deals 1501..2500 at 2 million nodes a deal, which the choice had not
/// seen, 977 won against 972, and at 500,000 nodes the other games' verdicts are the same or better (Chameleon
/// deals 1..300: 67 won against 66), their wins in as many nodes or fewer.
const STAGE_SHARE: usize = 32;

/// The beams, one after another, and where the current one stands.
pub(crate) struct Beam<'a> {
    rules: &'a RuleSet,
    shape: KeyShape,
    pruning: Pruning,
    root: Position,
    memory_bytes: usize,
    /// The beams take one node in this many of the search beside them (see [`BEAM_SHARE`]).
    pub(crate) share: u64,
    /// From how many nodes searched, the search's and the beams', the beams take every node instead (see
    /// [`BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO`]); `u64::MAX` for never.
    pub(crate) alone_from: u64,
    width: usize,
    /// Every position the current beam has kept: none is kept twice.
    seen: Table,
    /// How each position kept was reached: from which one, by which step.
    links: Vec<Link>,
    /// The positions kept at the current depth, and the next one to expand.
    level: Vec<Kept>,
    next: usize,
    depth: usize,
    /// The best children of the current depth so far, the worst first out, and their positions and links: the
    /// heap moves small entries, not positions.
    best: BinaryHeap<Reverse<Ranked>>,
    children: Vec<(Position, Link)>,
    nodes: u64,
    peak_bytes: usize,
    /// Whether no wider beam fits in the memory the beams may take.
    done: bool,
    /// The dead-end rule, where `pruning` has it: no position it buries is kept (see [`Beam::descend`]).
    dead_ends: Option<DeadEnds>,
    /// The weights of the current beam's score, by their index in [`WEIGHTS`].
    weights: usize,
    /// How many positions of each stage (see [`stage`]) the depth being kept holds.
    stages: HashMap<u64, usize>,
}

/// A position kept at the current depth: the index of its link, and its key and score, from which the keys and
/// scores of the children a move of a run between piles leads to are made (see [`KeyShape::key_after_run_moved`]
/// and [`Weights::score_after_run_moved`]).
#[derive(Clone, Copy)]
struct Kept {
    position: Position,
    link: u32,
    key: u128,
    score: i64,
}

/// How a kept position was reached.
#[derive(Clone, Copy)]
struct Link {
    /// The link of the position it was reached from; `u32::MAX` for the root.
    from: u32,
    step: Step,
}

/// A child met at the current depth, ranked by its score, and by its key between equal scores so that a beam keeps
/// the same positions from run to run; its position waits in the beam's `children` at `slot`.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Ranked {
    score: i64,
    key: u128,
    slot: u32,
}

impl<'a> Beam<'a> {
    /// The beams from `root`, keying positions by `shape` and making the safe moves of `pruning`, in at most
    /// `memory_bytes`.
    pub(crate) fn new(
        rules: &'a RuleSet,
        root: &Position,
        shape: KeyShape,
        pruning: Pruning,
        memory_bytes: usize,
    ) -> Beam<'a> {
        let mut beam = Beam {
            rules,
            shape,
            pruning,
            root: *root,
            memory_bytes,
            share: BEAM_SHARE,
            alone_from: u64::MAX,
            width: FIRST_WIDTH / 2,
            seen: Table::new(0),
            links: Vec::new(),
            level: Vec::new(),
            next: 0,
            depth: 0,
            best: BinaryHeap::new(),
            children: Vec::new(),
            nodes: 0,
            peak_bytes: 0,
            done: false,
            // Kept whatever its trial: the search drops the rule where few of the layers it works out are lost,
            // which on Four Seasons is every search, but a beam heads for the positions that look best, buried
            // or not.
            dead_ends: pruning
                .dead_ends
                .then(|| DeadEnds::for_root(rules, root))
                .flatten()
                .map(DeadEnds::kept_whatever_the_trial),
            // The last weights, so that the first beam is `FIRST_WIDTH` wide with the first.
            weights: WEIGHTS.len() - 1,
            stages: HashMap::new(),
        };
        beam.next_beam();
        beam
    }

    /// The children made so far.
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether no wider beam fits in the beams' memory: they have nothing more to search.
    pub(crate) fn done(&self) -> bool {
        self.done
    }

    /// The most bytes the beams held at once.
    pub(crate) fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// The bytes the beam holds now.
    fn bytes(&self) -> usize {
        self.seen.bytes()
            + self.links.capacity() * size_of::<Link>()
            + self.level.capacity() * size_of::<Kept>()
            + self.best.capacity() * size_of::<Ranked>()
            + self.children.capacity() * size_of::<(Position, Link)>()
    }

    /// The beams' nodes at a check of the limits where the search beside them made `nodes`, `spent` nodes made so
    /// far in all: their share, or as many as the search's from [`Beam::alone_from`] on, which makes every check
    /// come at once, so that the search makes no more nodes and the beams take them all (as with a share of 1).
    pub(crate) fn nodes_beside(&self, nodes: u64, spent: u64) -> u64 {
        if spent >= self.alone_from {
            nodes
        } else {
            nodes / self.share
        }
    }

    /// Makes about `nodes` more children, and returns the line that wins if one of them is won.
    pub(crate) fn advance(&mut self, nodes: u64) -> Option<Vec<Move>> {
        let stop = self.nodes + nodes;
        let mut steps = Vec::new();
        let mut turned = Vec::new();
        let mut candidates = Vec::new();
        while self.nodes < stop && !self.done {
            let Some(&Kept {
                position,
                link,
                key: parent_key,
                score: parent_score,
            }) = self.level.get(self.next)
            else {
                self.descend();
                continue;
            };
            self.next += 1;
            self.steps_from(position, &mut steps, &mut turned);
            // The children that may get into the beam are keyed and their slots in the table of positions seen
            // fetched first, and only then looked up: each lookup is a cache miss, and they wait for memory
            // together (they were a third of the beam's own time on any-run Canfield deal 812 one by one).
            candidates.clear();
            let worst = (self.best.len() == self.width)
                .then(|| self.best.peek().map(|worst| worst.0.score))
                .flatten();
            let weights = &WEIGHTS[self.weights];
            let next = next_cards(&position);
            // A space filled by force changes more than the two piles a run moved between.
            let forced_fills = !self.rules.tableau.spaces.forced.is_empty();
            for &step in &steps {
                self.nodes += 1;
                let mut child = turned[usize::from(step.turned)];
                child.apply(self.rules, step.mv);
                let link = Link { from: link, step };
                if child.is_won() {
                    return Some(self.line(link));
                }
                // Once the beam is full, a child scoring below its worst cannot get in, whatever its key. A run moved
                // between piles changes the score by their two piles alone.
                let score = (step.draws == 0)
                    .then(|| {
                        weights.score_after_run_moved(
                            &position,
                            parent_score,
                            next,
                            &child,
                            step.mv,
                            forced_fills,
                        )
                    })
                    .flatten()
                    .unwrap_or_else(|| weights.score(&child));
                if worst.is_some_and(|worst| score < worst) {
                    continue;
                }
                // The order-of-play rule (see `crate::play_order`) is not worked out here: a beam searches too few
                // positions for the lost ones it would keep out to matter, and worked out for every child it cost
                // the proof of Canfield deal 399, lost, 5 % of its time (9.9 s against 9.4 s), for the 2 % of the
                // nodes the beams took beside its streamlined pass.

                // A run moved between piles changes their two terms of the key alone.
                let key = (step.draws == 0)
                    .then(|| {
                        self.shape
                            .key_after_run_moved(&position, parent_key, step.mv)
                    })
                    .flatten()
                    .unwrap_or_else(|| self.shape.key(&child));
                self.seen.prefetch(key);
                candidates.push((score, key, child, link));
            }
            for (score, key, child, link) in candidates.drain(..) {
                if self.seen.contains(key) {
                    continue;
                }
                if self.best.len() < self.width {
                    let slot = self.children.len() as u32;
                    self.children.push((child, link));
                    self.best.push(Reverse(Ranked { score, key, slot }));
                } else if let Some(Reverse(worst)) = self.best.peek() {
                    if (score, key) > (worst.score, worst.key) {
                        let slot = worst.slot;
                        self.best.pop();
                        self.children[slot as usize] = (child, link);
                        self.best.push(Reverse(Ranked { score, key, slot }));
                    }
                }
            }
        }
        None
    }

    /// The steps from `position`: a safe move alone if there is one, else every move.
    fn steps_from(&self, position: Position, steps: &mut Vec<Step>, turned: &mut Vec<Position>) {
        steps.clear();
        turned.clear();
        turned.push(position);
        if let Some(mv) = self.pruning.safe_move(self.rules, &position) {
            steps.push(Step::now(mv));
            return;
        }
        // A draw is a step of its own, scored as the waste grows, so that the beam turns the stock when nothing
        // else does better: Four Seasons deals 13, 23 and 38, undecided at 10 s a deal with the stock turned to
        // each card that has a play, are won in 0.08, 0.07 and 3.2 s this way. With unlimited redeals a draw keeps
        // the position's key (see `crate::key`), and the stock is turned to each card that has a play.
        let macros = self.pruning.stock_macros
            && position.redeals_left().is_none()
            && !position.choice_pending();
        legal_steps(self.rules, position, macros, NOT_MET, steps, turned);
    }

    /// Goes one depth down, keeping the best children met, or to a wider beam when none is left or the beam is too
    /// deep or too big. A child the dead-end rule buries is lost, and kept it would take the place of one that may
    /// win: it is left out, the rule worked out here for the children kept alone rather than for every child that
    /// gets among the best for a while. Four Seasons deals 1..2000 at 2 million nodes a deal, one thread: 1,929
    /// won and 70 unknown against 1,920 and 79 without the rule (11 gained, 2 lost), the deals won by both in 8 %
    /// fewer nodes; worked out for every child that gets among the best, the same but one deal, at a tenth more
    /// time a node. Chameleon deals 1..300 at 500,000 nodes: 66 won against 64, the same 153 lost.
    fn descend(&mut self) {
        self.level.clear();
        self.next = 0;
        self.depth += 1;
        // Best first; the slots make every entry differ, so an unstable sort (quicker than the heap's own) keeps
        // the same order from run to run.
        let mut best = std::mem::take(&mut self.best).into_vec();
        best.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let per_stage = (self.width / STAGE_SHARE).max(1);
        self.stages.clear();
        for Reverse(ranked) in best {
            let kept = self
                .stages
                .entry(stage(&self.children[ranked.slot as usize].0))
                .or_insert(0);
            if *kept == per_stage {
                continue;
            }
            *kept += 1;
            match self.seen.insert(ranked.key) {
                Ok(true) => {}
                Ok(false) => continue,
                Err(_) => {
                    self.level.clear();
                    break;
                }
            }
            let (position, link) = self.children[ranked.slot as usize];
            if self
                .dead_ends
                .as_ref()
                .is_some_and(|rule| rule.lost(self.rules, &position))
            {
                continue;
            }
            self.links.push(link);
            self.level.push(Kept {
                position,
                link: (self.links.len() - 1) as u32,
                key: ranked.key,
                score: ranked.score,
            });
        }
        self.children.clear();
        self.peak_bytes = self.peak_bytes.max(self.bytes());
        if self.level.is_empty() || self.depth > MOST_STEPS || self.bytes() > self.memory_bytes {
            self.next_beam();
        }
    }

    /// Starts the next beam from the root: as wide as the last with the next weights, or, after the last weights,
    /// twice as wide with the first, if it may fit in the memory.
    fn next_beam(&mut self) {
        self.weights = (self.weights + 1) % WEIGHTS.len();
        if self.weights == 0 {
            self.width *= 2;
        }
        let positions = 2 * self.width * (size_of::<Ranked>() + size_of::<(Position, Link)>());
        if positions >= self.memory_bytes / 2 {
            self.done = true;
            self.seen = Table::new(0);
            self.links = Vec::new();
            self.level = Vec::new();
            self.children = Vec::new();
            return;
        }
        self.seen = Table::new(self.memory_bytes / 2);
        self.links.clear();
        self.level.clear();
        self.level.push(Kept {
            position: self.root,
            link: u32::MAX,
            key: self.shape.key(&self.root),
            score: WEIGHTS[self.weights].score(&self.root),
        });
        self.next = 0;
        self.depth = 0;
    }

    /// The moves from the root through `last`.
    fn line(&self, last: Link) -> Vec<Move> {
        let mut links = vec![last];
        let mut from = last.from;
        while let Some(link) = self.links.get(from as usize) {
            links.push(*link);
            from = link.from;
        }
        let mut position = self.root;
        let mut line = Vec::new();
        for link in links.iter().rev() {
            take(self.rules, &mut position, link.step, |mv| line.push(mv));
        }
        line
    }
}

/// The weights of a beam's score, against a card on the foundations weighed 100.
struct Weights {
    /// Against, each card lying over a foundation's next card.
    buried: i64,
    /// Against, each card left in the reserve.
    reserve: i64,
    /// Against, each card of a waste that no redeal turns back into the stock.
    waste: i64,
    /// For, each space.
    spaces: i64,
}

/// The weights of the beams of each width, one beam after another: beams that weigh the cards differently win
/// different deals, and three beams of each width win more than one beam of each width (session 21, the beams
/// alone for 1 s a deal: 78 won of 134 Four Seasons deals left undecided at 0.5 s, against 68; 13 of 115 such
/// Chameleon deals, against 7; through the whole solver at 0.5 s, 27 and 4 against 11 and 2). The first are those
/// of session 20, the second those of session 13, the third weigh the waste twice as much.
const WEIGHTS: [Weights; 3] = [
    Weights {
        buried: 12,
        reserve: 50,
        waste: 45,
        spaces: 2,
    },
    Weights {
        buried: 5,
        reserve: 5,
        waste: 3,
        spaces: 2,
    },
    Weights {
        buried: 20,
        reserve: 50,
        waste: 90,
        spaces: 0,
    },
];

impl Weights {
    /// How close `position` looks to a win: cards on the foundations first; then, against it, the cards lying
    /// over each foundation's next card, the cards left in the reserve, and, where no redeal turns the waste back
    /// into the stock, the cards of the waste; and for it, spaces. The weights were first chosen on Four Seasons
    /// deals 1..100 with beams 1,000 wide: 65 won with cards on the foundations, the waste and the reserve, 76
    /// with the cards over the next cards too (weights 2, 10 and 20 for them: 67, 72, 72), 38 with spaces weighed
    /// 30. Session 20 weighed the waste and the buried cards more (45 and 12, from 3 and 5), on Four Seasons deals
    /// left undecided at 0.5 s (see `docs/solver.md`): a card left in a waste no redeal turns back is nearly a
    /// card lost to the foundations. With them, the reserve weighed 50 (from 5) won Chameleon more deals.
    fn score(&self, position: &Position) -> i64 {
        let waste_stays = position.redeals_left() == Some(0);
        let next = next_cards(position);
        let piles = (0..position.tableau_piles() as u8)
            .map(Pile::Tableau)
            .chain((0..position.reserve_piles() as u8).map(Pile::Reserve))
            .chain(waste_stays.then_some(Pile::Waste));
        let buried: i64 = piles.map(|pile| buried(position.pile(pile), next)).sum();
        let reserve: usize = (0..position.reserve_piles() as u8)
            .map(|r| position.len(Pile::Reserve(r)))
            .sum();
        let waste = if waste_stays {
            position.len(Pile::Waste)
        } else {
            0
        };
        let spaces = (0..position.tableau_piles() as u8)
            .filter(|&t| position.len(Pile::Tableau(t)) == 0)
            .count();
        100 * position.foundation_cards() as i64
            - self.buried * buried
            - self.reserve * reserve as i64
            - self.waste * waste as i64
            + self.spaces * spaces as i64
    }

    /// The score of `child`, which `mv` leads to from `position`, of score `score` and whose foundations' next
    /// cards are `next`, where `mv` moves a run from one tableau pile to another and no space it makes is filled
    /// by force (`forced_fills` says whether spaces are): such a move changes the cards buried and the spaces in
    /// those two piles alone, and the score by them. `None` for any other move, whose child is scored whole. Such
    /// moves are most of the children of Four Seasons' beams, whose waste the whole score walks every time.
    fn score_after_run_moved(
        &self,
        position: &Position,
        score: i64,
        next: u64,
        child: &Position,
        mv: Move,
        forced_fills: bool,
    ) -> Option<i64> {
        run_moved_alone(position, mv, forced_fills)?;
        let (mut buried_change, mut spaces_change) = (0, 0);
        for pile in [mv.from, mv.to] {
            let (before, after) = (position.pile(pile), child.pile(pile));
            buried_change += buried(after, next) - buried(before, next);
            spaces_change += i64::from(after.is_empty()) - i64::from(before.is_empty());
        }
        Some(score - self.buried * buried_change + self.spaces * spaces_change)
    }
}

/// How far `position` has come: the cards left in the stock and in the waste, and on each foundation. Positions of
/// one stage differ in how the tableau and the reserve lie, and in which cards of the waste went to the tableau.
fn stage(position: &Position) -> u64 {
    let outside = [Pile::Stock, Pile::Waste]
        .into_iter()
        .chain((0..4).map(Pile::Foundation));
    outside.fold(0, |stage, pile| stage << 8 | position.len(pile) as u64)
}

/// How many cards lie over the cards of `next` in `cards`, a pile from its bottom up.
fn buried(cards: &[u8], next: u64) -> i64 {
    let mut buried = 0;
    for (i, &card) in cards.iter().enumerate() {
        if next >> card & 1 == 1 {
            buried += (cards.len() - 1 - i) as i64;
        }
    }
    buried
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relax::{NextCard, Relaxation};
    use patience_core::builtin;
    use patience_core::rules::Moves;

    fn beam_for(rules: &RuleSet, position: &Position, memory_bytes: usize) -> Beam<'static> {
        let rules: &'static RuleSet = Box::leak(Box::new(rules.clone()));
        Beam::new(
            rules,
            position,
            KeyShape::new(rules),
            Pruning::for_rules(rules),
            memory_bytes,
        )
    }

    #[test]
    fn the_beams_get_half_the_nodes_where_every_tableau_move_can_be_undone() {
        for (game, share) in [
            ("four-seasons", BEAM_SHARE_WHERE_MOVES_UNDO),
            ("florentine", BEAM_SHARE_WHERE_MOVES_UNDO),
            ("simplicity", BEAM_SHARE_WHERE_MOVES_UNDO),
            // A reserve, spaces filled by force, only whole piles moving, spaces filled from the waste alone.
            ("gate", BEAM_SHARE),
            ("chameleon", BEAM_SHARE),
            ("canfield", BEAM_SHARE),
            ("fortunes-favor", BEAM_SHARE),
        ] {
            let rules = builtin::rules(game).expect("a built-in game");
            assert_eq!(share_before_the_full_search(&rules), share, "{game}");
        }
        let mut rules = builtin::rules("four-seasons").expect("a built-in game");
        rules.tableau.moves = Moves::WholePile;
        assert_eq!(share_before_the_full_search(&rules), BEAM_SHARE);
    }

    /// Where every tableau move can be undone, the beams take every node before the full search past
    /// [`BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO`] nodes; elsewhere they keep their share.
    #[test]
    fn the_beams_take_every_node_past_their_start_where_every_tableau_move_can_be_undone() {
        for (game, from) in [
            ("four-seasons", BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO),
            ("simplicity", BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO),
            ("gate", u64::MAX),
            ("chameleon", u64::MAX),
        ] {
            let rules = builtin::rules(game).expect("a built-in game");
            assert_eq!(alone_before_the_full_search_from(&rules), from, "{game}");
            let deal = Position::deal(&rules, 1).expect("a deal");
            let mut beam = beam_for(&rules, &deal, 1 << 20);
            beam.share = share_before_the_full_search(&rules);
            beam.alone_from = from;
            let share = 4096 / beam.share;
            let start = BEAMS_ALONE_AFTER_WHERE_MOVES_UNDO;
            assert_eq!(beam.nodes_beside(4096, start - 1), share, "{game}");
            let past = if from == u64::MAX { share } else { 4096 };
            assert_eq!(beam.nodes_beside(4096, start), past, "{game}");
        }
    }

    /// Four Seasons deal 13 stayed undecided after 60 s of the depth-first passes; the beams win it, by a line the
    /// rules engine replays.
    #[test]
    fn the_beams_win_a_deal_the_depth_first_passes_left_open() {
        let rules = builtin::rules("four-seasons").expect("a built-in game");
        let deal = Position::deal(&rules, 13).expect("a deal");
        let mut beam = beam_for(&rules, &deal, 64 << 20);
        let line = (0..1000)
            .find_map(|_| beam.advance(1000))
            .expect("a win within a million nodes");
        let mut position = deal;
        for &mv in &line {
            position.play(&rules, mv).expect("a legal move");
        }
        assert!(position.is_won());
    }

    /// No position a beam keeps is buried by the dead-end rule, where the search has the rule; without it, the
    /// beams of Four Seasons deal 1 keep some.
    #[test]
    fn the_beams_keep_no_position_the_dead_end_rule_buries() {
        let rules: &'static RuleSet = Box::leak(Box::new(
            builtin::rules("four-seasons").expect("a built-in game"),
        ));
        let deal = Position::deal(rules, 1).expect("a deal");
        let rule = DeadEnds::for_root(rules, &deal)
            .expect("the rule applies")
            .kept_whatever_the_trial();
        let buried_kept = |pruning: Pruning| {
            let mut beam = Beam::new(rules, &deal, KeyShape::new(rules), pruning, 64 << 20);
            let mut buried = 0;
            for _ in 0..300 {
                if beam.advance(1000).is_some() {
                    break;
                }
                buried += beam
                    .level
                    .iter()
                    .filter(|kept| rule.lost(rules, &kept.position))
                    .count();
            }
            buried
        };
        let pruning = Pruning::for_rules(rules);
        assert!(pruning.dead_ends);
        assert_eq!(buried_kept(pruning), 0);
        let without = buried_kept(Pruning {
            dead_ends: false,
            ..pruning
        });
        assert!(without > 0, "{without}");
    }

    /// The keys and scores of the children that a move of a run between piles leads to are made from their
    /// parent's: each kept position's key and score are those made whole, keyed by positions and by the placing
    /// game's states, in games where runs move, single cards move, and whole piles move (and the reserve fills
    /// spaces by force).
    #[test]
    fn a_kept_positions_key_and_score_are_those_made_whole() {
        for game in ["four-seasons", "chameleon", "canfield", "gate"] {
            let rules: &'static RuleSet =
                Box::leak(Box::new(builtin::rules(game).expect("a built-in game")));
            for deal in 1..=3 {
                let position = Position::deal(rules, deal).expect("a deal");
                let placing = Relaxation::for_root(rules, &position).map(|laxer| {
                    KeyShape::relaxed(rules, laxer.with_next(NextCard::PlacedWhenNext))
                });
                for shape in [Some(KeyShape::new(rules)), placing].into_iter().flatten() {
                    let pruning = Pruning::for_rules(rules);
                    let mut beam = Beam::new(rules, &position, shape, pruning, 16 << 20);
                    let mut kept = 0;
                    while kept < 2000 && beam.advance(200).is_none() && !beam.done {
                        for level in &beam.level {
                            assert_eq!(level.key, shape.key(&level.position), "{game} deal {deal}");
                            let score = WEIGHTS[beam.weights].score(&level.position);
                            assert_eq!(level.score, score, "{game} deal {deal}");
                        }
                        kept += beam.level.len();
                    }
                }
            }
        }
    }

    /// A beam keeps no more than its share of its width of the positions of one stage at any depth, and on a Four
    /// Seasons deal whose beams would keep the tableau's arrangements of a few stages (deal 178), the share is
    /// reached.
    #[test]
    fn a_beam_keeps_a_share_of_its_width_at_each_stage() {
        let rules = builtin::rules("four-seasons").expect("a built-in game");
        let deal = Position::deal(&rules, 178).expect("a deal");
        let mut beam = beam_for(&rules, &deal, 16 << 20);
        let mut most_at_the_share = 0;
        while beam.width <= 1024 && beam.advance(500).is_none() && !beam.done {
            let mut stages = HashMap::new();
            for kept in &beam.level {
                *stages.entry(stage(&kept.position)).or_insert(0) += 1;
            }
            let share = (beam.width / STAGE_SHARE).max(1);
            let most = stages.values().copied().max().unwrap_or(0);
            assert!(
                most <= share,
                "{most} positions of a stage, {share} at most"
            );
            most_at_the_share += usize::from(most == share);
        }
        assert!(most_at_the_share > 10, "{most_at_the_share}");
    }

    /// A lost deal: the beams find no line, one for each set of weights at each width, each width twice the
    /// last, and stop once the next would not fit.
    #[test]
    fn the_beams_widen_until_the_memory_is_spent() {
        let rules = builtin::rules("canfield").expect("a built-in game");
        let deal = Position::deal(&rules, 14).expect("a deal");
        let mut beam = beam_for(&rules, &deal, 1 << 20);
        let mut beams = vec![(beam.width, beam.weights)];
        while !beam.done {
            // A beam expands its root at least, so one position at a time sees every beam.
            assert_eq!(beam.advance(1), None);
            if (beam.width, beam.weights) != *beams.last().expect("a beam") && !beam.done {
                beams.push((beam.width, beam.weights));
            }
        }
        assert_eq!(beams[0], (FIRST_WIDTH, 0));
        let weights = WEIGHTS.len();
        assert_eq!(beams.len() % weights, 0, "{beams:?}");
        for (i, &(width, set)) in beams.iter().enumerate() {
            assert_eq!(
                (width, set),
                (FIRST_WIDTH << (i / weights), i % weights),
                "{beams:?}"
            );
        }
        assert!(beams.len() > 3 * weights, "{beams:?}");
        assert!(beam.peak_bytes() <= 1 << 20, "{} bytes", beam.peak_bytes());
        assert_eq!(beam.advance(1000), None);
    }
}
