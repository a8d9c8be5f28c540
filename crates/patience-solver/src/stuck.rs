//! Positions proved lost because their foundations can never take another card.
//!
//! # The rule
//! Take a position where foundation cards never come back, no redeal is left, the base rank is known and no
//! choice is pending, and where no card the foundations take next is where it could be played up. A line that
//! wins plays such a card up at some point; before that, every move of the line is a move that is not to a
//! foundation. So if no position where a foundation move is legal can be reached from this one by moves that are
//! not to a foundation, the position is lost. This module searches for such a position, in an abstraction small
//! enough to be searched in full.
//!
//! # The abstraction
//! Cards are put in classes: two cards are in one class when they have the same rank, the same cards may be
//! built on them, and they may be built on the same cards (by rank when building is regardless of suit, by rank
//! and colour for alternate colours). The cards the foundations take next are each a class of their own. Whether
//! a move that is not to a foundation is legal depends on the cards it moves and lands on only through what may
//! be built on what, and on where piles are empty; whether a foundation move is legal depends only on where the
//! next cards lie. So two positions that differ only by cards of one class swapped have the same moves, to
//! positions that differ the same way, and the search is made on positions up to such swaps. The waste is a stack
//! with no redeal left: the cards under the highest next card in it can only show once that card has, so they
//! are left out.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use patience_core::rules::MAX_TABLEAU;
use patience_core::{Card, Move, Pile, Position, RuleSet};
use xxhash_rust::xxh3::xxh3_128;

/// The entries of the cache of positions found stuck or free.
const KNOWN: usize = 1 << 18;

/// The most positions one search of the abstraction visits before it gives up (and proves nothing).
const BUDGET: usize = 20_000;

/// What the cache knows of a position up to swaps.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Unknown,
    /// No foundation move can ever be made from it.
    Stuck,
    /// A foundation move can be reached from it, or the search gave up.
    Free,
}

/// The rule for one search.
pub struct Stuck {
    classes: [OnceCell<[u8; 64]>; 13],
    known: RefCell<Box<[(u128, State)]>>,
    sort_tableau: bool,
    /// Positions looked up, searches made, searches that found the position stuck, positions those visited.
    pub looked_up: Cell<u64>,
    /// Searches made.
    pub searched: Cell<u64>,
    /// Searches that found the position stuck.
    pub found_stuck: Cell<u64>,
    /// Positions visited by the searches.
    pub visited: Cell<u64>,
    /// Lookups answered by the cache.
    pub cached: Cell<u64>,
    /// x
    pub gave_up: Cell<u64>,
    /// x
    pub visited_free: Cell<u64>,
}

impl Stuck {
    /// The rule for a search on `rules`, if foundation cards never come back.
    pub fn for_rules(rules: &RuleSet) -> Option<Stuck> {
        (!rules.foundations.cards_go_back).then(|| Stuck {
            classes: Default::default(),
            known: RefCell::new(vec![(0, State::Unknown); KNOWN].into_boxed_slice()),
            sort_tableau: rules.tableau.capacity.is_empty(),
            looked_up: Cell::new(0),
            searched: Cell::new(0),
            found_stuck: Cell::new(0),
            visited: Cell::new(0),
            cached: Cell::new(0),
            gave_up: Cell::new(0),
            visited_free: Cell::new(0),
        })
    }

    /// Whether `position` is lost by the rule in the module documentation.
    pub fn lost(&self, rules: &RuleSet, position: &Position) -> bool {
        if position.choice_pending() || position.redeals_left() != Some(0) {
            return false;
        }
        let Some(base) = position.base_rank() else {
            return false;
        };
        let waste = position.pile(Pile::Waste);
        let Some(w) = waste.iter().rposition(|&c| is_next(position, c)) else {
            return false;
        };
        if w + 1 == waste.len() {
            return false;
        }
        let spent = self.visited.get() + self.visited_free.get();
        if spent > 50_000 && spent > 2 * self.looked_up.get() {
            return false;
        }
        self.looked_up.set(self.looked_up.get() + 1);
        let classes = self.classes[base.index() as usize].get_or_init(|| classes(rules, position));
        let concrete = coming_before(position, w);
        let mut labels = *classes;
        for (c, label) in labels.iter_mut().enumerate() {
            if concrete >> c & 1 == 1 {
                *label = 64 + c as u8;
            }
        }
        let key = key(&labels, self.sort_tableau, w, position);
        match self.get(key) {
            State::Stuck => {
                self.cached.set(self.cached.get() + 1);
                return true;
            }
            State::Free => {
                self.cached.set(self.cached.get() + 1);
                return false;
            }
            State::Unknown => {}
        }
        self.searched.set(self.searched.get() + 1);
        let stuck = self.search(rules, &labels, w, position, key);
        self.found_stuck
            .set(self.found_stuck.get() + u64::from(stuck));
        stuck
    }

    fn get(&self, key: u128) -> State {
        let (k, state) = self.known.borrow()[key as usize % KNOWN];
        if k == key {
            state
        } else {
            State::Unknown
        }
    }

    fn set(&self, key: u128, state: State) {
        self.known.borrow_mut()[key as usize % KNOWN] = (key, state);
    }

    /// Searches the positions reachable from `root`, up to swaps, for one where the waste card at `w` shows;
    /// records what it learns, and says whether there is none.
    fn search(
        &self,
        rules: &RuleSet,
        labels: &[u8; 64],
        w: usize,
        root: &Position,
        root_key: u128,
    ) -> bool {
        let mut seen: HashSet<u128, BuildHasherDefault<LowBits>> = HashSet::default();
        seen.insert(root_key);
        let mut moves = Vec::new();
        push_moves(rules, root, &mut moves);
        let mut frames = vec![(*root, root_key, 0)];
        let budget = budget();
        while let Some(&(position, _, start)) = frames.last() {
            if moves.len() == start {
                frames.pop();
                continue;
            }
            let Some((mv, draws)) = moves.pop() else {
                break;
            };
            let mut child = position;
            for _ in 0..draws {
                if let Some(stock) = child.stock_move(rules) {
                    child.apply(rules, stock);
                }
            }
            child.apply(rules, mv);
            if child.len(Pile::Waste) == w + 1 {
                self.visited_free
                    .set(self.visited_free.get() + seen.len() as u64);
                for &(_, key, _) in &frames {
                    self.set(key, State::Free);
                }
                return false;
            }
            let child_key = key(labels, self.sort_tableau, w, &child);
            match self.get(child_key) {
                State::Stuck => continue,
                State::Free => {
                    self.visited_free
                        .set(self.visited_free.get() + seen.len() as u64);
                    for &(_, key, _) in &frames {
                        self.set(key, State::Free);
                    }
                    return false;
                }
                State::Unknown => {}
            }
            if !seen.insert(child_key) {
                continue;
            }
            if seen.len() > budget {
                self.gave_up.set(self.gave_up.get() + 1);
                self.visited.set(self.visited.get() + seen.len() as u64);
                if std::env::var_os("GIVEUP_ROOT").is_some() {
                    self.set(root_key, State::Free);
                } else {
                    for key in seen {
                        self.set(key, State::Free);
                    }
                }
                return false;
            }
            let start = moves.len();
            push_moves(rules, &child, &mut moves);
            frames.push((child, child_key, start));
        }
        self.visited.set(self.visited.get() + seen.len() as u64);
        for key in seen {
            self.set(key, State::Stuck);
        }
        true
    }
}

/// The key of `position` with each card replaced by its label, the waste under `w` left out.
fn key(labels: &[u8; 64], sort_tableau: bool, w: usize, position: &Position) -> u128 {
    let mut bytes = [0u8; 192];
    let mut len = 6;
    bytes[0] = position.base_rank().map_or(0xFF, |b| b.index());
    for s in 0..4 {
        bytes[1 + s] = position.foundation_len(s) as u8;
    }
    bytes[5] = w as u8;
    let put = |pile: &[u8], bytes: &mut [u8; 192], len: &mut usize| {
        bytes[*len] = 0xFF;
        *len += 1;
        for &c in pile {
            bytes[*len] = labels[c as usize];
            *len += 1;
        }
    };
    put(position.pile(Pile::Stock), &mut bytes, &mut len);
    put(&position.pile(Pile::Waste)[w + 1..], &mut bytes, &mut len);
    for r in 0..position.reserve_piles() as u8 {
        put(position.pile(Pile::Reserve(r)), &mut bytes, &mut len);
    }
    let piles = position.tableau_piles();
    let mut order = [0u8; MAX_TABLEAU];
    for (t, slot) in order.iter_mut().enumerate().take(piles) {
        *slot = t as u8;
    }
    let label = |t: u8, i: usize| labels[position.pile(Pile::Tableau(t))[i] as usize];
    if sort_tableau {
        order[..piles].sort_unstable_by(|&a, &b| {
            let (la, lb) = (
                position.len(Pile::Tableau(a)),
                position.len(Pile::Tableau(b)),
            );
            (0..la.min(lb))
                .map(|i| label(a, i).cmp(&label(b, i)))
                .find(|o| o.is_ne())
                .unwrap_or(la.cmp(&lb))
        });
    }
    for &t in &order[..piles] {
        put(position.pile(Pile::Tableau(t)), &mut bytes, &mut len);
    }
    xxh3_128(&bytes[..len])
}

/// A hasher for keys that are hashes already: their low bits.
#[derive(Default)]
struct LowBits(u64);

impl Hasher for LowBits {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

/// The moves from `position` that are not to a foundation, the last tried first: tableau moves, then the stock,
/// then plays from the waste and the reserve.
fn push_moves(rules: &RuleSet, position: &Position, moves: &mut Vec<(Move, u16)>) {
    let start = moves.len();
    let macros = crate::prune::Pruning::for_rules(rules).stock_macros;
    position.for_each_legal_move(rules, |mv| {
        if !macros || !mv.is_stock_move() {
            moves.push((mv, 0))
        }
    });
    if macros {
        let targets = position.targets(rules);
        let mut turns = position.stock_turns(rules);
        let mut draws = 0u16;
        while turns.turn().is_some() {
            draws += 1;
            if let Some(card) = turns.waste_top() {
                position.for_each_move_of_top_card(rules, Pile::Waste, card, &targets, |mv| {
                    moves.push((mv, draws))
                });
            }
        }
    }
    let moves = &mut moves[start..];
    moves.sort_by_key(|(mv, draws)| match (mv.from, mv.to) {
        _ if *draws > 0 => 1,
        (_, Pile::Foundation(_)) => 3,
        (Pile::Waste, _) => 2,
        (Pile::Tableau(_), _) => 0,
        _ => 1,
    });
}

/// Whether a foundation takes card index `c` next.
fn is_next(position: &Position, c: u8) -> bool {
    Card::from_index(c).is_some_and(|card| position.foundation_next(card.suit()) == Some(card))
}

/// The cards the foundations may take before the waste card at `w` shows: each suit's coming cards up to the
/// first that lies in the waste at `w` or under it.
fn coming_before(position: &Position, w: usize) -> u64 {
    let waste = position.pile(Pile::Waste);
    let mut deep = 0u64;
    for &c in &waste[..=w] {
        deep |= 1 << c;
    }
    let mut cards = 0u64;
    for s in 0..4 {
        for i in position.foundation_len(s)..position.ranks() as usize {
            match position.foundation_card(s, i) {
                Some(card) if deep >> card.index() & 1 == 0 => cards |= 1 << card.index(),
                _ => break,
            }
        }
    }
    cards
}

/// The class of each card under `position`'s base rank, named by its first card: cards of one rank that take the
/// same cards and are taken by the same cards.
fn classes(rules: &RuleSet, position: &Position) -> [u8; 64] {
    let mut builders = [0u64; 64];
    let mut bases = [0u64; 64];
    for under in Card::pack() {
        let on_it = position.cards_built_on(rules, under);
        builders[under.index() as usize] = on_it;
        for over in Card::pack().filter(|c| on_it >> c.index() & 1 == 1) {
            bases[over.index() as usize] |= 1 << under.index();
        }
    }
    let mut class = [0u8; 64];
    for card in Card::pack() {
        let c = card.index() as usize;
        class[c] = Card::pack()
            .find(|o| {
                let i = o.index() as usize;
                o.rank() == card.rank() && builders[i] == builders[c] && bases[i] == bases[c]
            })
            .map_or(card.index(), |o| o.index());
    }
    class
}

fn budget() -> usize {
    std::env::var("BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(BUDGET)
}
