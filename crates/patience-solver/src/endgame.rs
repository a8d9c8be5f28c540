//! The laxer relaxed game's endgame, keyed and searched on a few numbers: once the reserve is empty and no
//! redeal is left.
//!
//! # Why
//! Chameleon's long proofs are proofs of the laxer relaxed game (see [`crate::relax`]), and most of their states
//! lie late in the game: of the 21.1 million states of deal 19's, 61 % have one card or none left in the stock,
//! most with the reserve empty. The search of positions pays about 1.2 µs for each state it enters there (its
//! steps listed and ordered, its children keyed as the search's key shape says, the table's and the marking's
//! entries, the beams' share). Once the reserve is empty, this module searches the rest of the game in a search
//! of its own that does less for each state; the search of positions hands it each position of that endgame it
//! enters, and takes a loss back as it takes the dead-end rule's.
//!
//! # The numbers
//! With the reserve empty, a card off the foundations lies in the stock, the waste or the tableau. In the laxer
//! game a pile is its bottom card's class and its length: the cards that may be built on a card are one class,
//! and every pile is a run. So a state is the cards left in the stock and the waste, the foundations' heights,
//! and each pile's bottom class and length. Its key is the set of cards left, with a sum of one term for each
//! foundation's height and each pile (the piles are interchangeable: no pile has a capacity of its own). Where
//! the stock turns one card at a time and no redeal is left, the stock and the waste keep the order of the
//! deal's stock, and every step that takes a card from the stock plays it at once (a stock macro-move): so the
//! cut between the stock and the waste follows from the cards left, and the key needs no place for it.
//!
//! The moves are worked out on those numbers: a child is keyed without making its position, which is made only
//! for a child the search enters, from a position of its parent's state (a relaxed move first changes places of
//! the two cards of one class, as the search of positions does).
//! - To the foundations: a card next on its foundation that lies in the tableau, from the top of any pile a card
//!   of its class tops (the relaxed game's own move, and the real one); the waste's top card, and each card of the
//!   stock by a macro-move (turn until it is on top, then play it), where it is next on its foundation.
//! - To the tableau, the waste's top card and each card of the stock by a macro-move, onto a pile whose top card
//!   takes its class, or into a space where the waste may fill one.
//! - Runs between piles, of the lengths the rules move, onto a pile whose top takes the run's bottom class, or
//!   into a space where a tableau card may fill one.
//!
//! These are the steps of the search of positions in that game (its stock macro-moves included, which it makes
//! where no space is filled by force from the stock or the waste, as here). Of its other rules, the dead-end
//! rule is kept: without it the endgame of Chameleon deal 19 had some twice the states the search of positions
//! met there, and the endgame was no faster. It is worked out outside the rule's trial, whose counts would
//! otherwise drop the rule in the search of positions or keep it where it does not pay (Gate deal 1149, won,
//! took 5.8 s against 3.2 s that way); the two share the rule's cache of layers, since they meet the same
//! positions. Safe moves and one-way moves tried
//! before are left out (they cut less than 5 % of deal 19's nodes): leaving a rule out only searches more.
//! `the_endgame_on_numbers_loses_what_the_laxer_relaxed_game_loses` (in `crate::search`) checks the endgame's
//! verdicts against the search of positions on reduced packs.
//!
//! # Why a loss is a loss
//! Only losses are handed back. A search from a state that meets no win has proved every state it met lost: a
//! state met that could win would have a first step of its shortest win, whose child the search met too, or
//! found proved lost before. So the search needs no order of finishing, and keeps no verdict but its losses, in
//! a table that holds them for the whole pass. Where it meets a win it stops, and the search of positions goes
//! on from the position it was handed; the states on the way to that win are kept as won, so that the searches
//! handed the positions after it stop as soon as they meet one.
//!
//! # Limits
//! - A search stops, unfinished, once it has met a sixteenth of the nodes the search of positions has searched
//!   so far (at least 4,096 states, at most [`MOST_STATES_A_SEARCH`]); after that no position with as many cards
//!   in the stock or more is handed here. A large endgame is so left to the search of positions, whose children
//!   hand smaller ones, and where the relaxed game is won (and its endgames with it) the searches stop early.
//! - The losses, the states one search meets and the states on the way to wins share a part of the pass's memory
//!   (see `ENDGAME_SHARE` in `crate::search`). Once the losses fill theirs, each new one takes the place of an
//!   old one, which is searched again if it is met again. Searching no endgame any more once the table was full
//!   (the search of positions doing the rest, as it would without this module) was slower where memory is short:
//!   Chameleon deal 75 with 512 MiB took 53 s that way, against 28 to 32 s, and 36 to 37 s without the endgame.
//! - Where every move between tableau piles can be undone (Four Seasons, Simplicity), the relaxed games seldom
//!   have a loss to prove, and their endgames are large and mostly won: Four Seasons deal 1, won in 2.5 s, took
//!   8.5 s with its endgames searched. There the search of positions has no endgame (see
//!   [`crate::relax::tableau_moves_undo`]).

use patience_core::rules::{Moves, Source};
use patience_core::{Card, Move, Pile, Position, RuleSet, Suit};
use rustc_hash::FxHashSet;
use xxhash_rust::xxh3::xxh3_64;

use crate::dead_end::DeadEnds;
use crate::layouts::Layouts;
use crate::relax::{NextCard, Relaxation};
use crate::table::Table;

/// No class: past the end of a pile's run, or on a card nothing is built on.
const NONE: u8 = u8::MAX;

/// The most tableau piles a state holds.
const MOST_PILES: usize = patience_core::rules::MAX_TABLEAU;

/// A search of the endgame may meet this share of the nodes the search of positions has searched, and at least
/// [`LEAST_BUDGET`] states, before it stops, unfinished.
const BUDGET_SHARE: u64 = 16;

/// The fewest states a search of the endgame may meet before it stops, unfinished, as long as the memory allows.
const LEAST_BUDGET: u64 = 1 << 12;

/// The most states one search of an endgame meets before it stops, unfinished.
const MOST_STATES_A_SEARCH: usize = 1 << 20;

/// The bytes a state met takes in a set of them, about: its key (16 bytes), its control byte, and the set's spare
/// room (it is filled up to seven eighths before it doubles).
const BYTES_A_STATE: usize = 24;

/// A step from a state's own position, not another layout of it.
const OWN_LAYOUT: u32 = u32::MAX;

/// A state of the endgame: a position of it, and its numbers.
#[derive(Debug, Clone, Copy)]
struct State {
    position: Position,
    /// The cards of the stock and the waste, as a set of card indices.
    cards: u64,
    /// Each pile's bottom class and length; a space is `(0, 0)`.
    piles: [(u8, u8); MOST_PILES],
    /// The sum of the terms of the foundations and the piles.
    terms: u64,
}

/// A step from a state, worked out on its numbers: the position is made only where the child is entered.
#[derive(Debug, Clone, Copy)]
struct Child {
    /// The position the step starts from: the state's own ([`OWN_LAYOUT`]), or another layout of its tableau, by
    /// its index in the search's list of them (see [`crate::layouts`]).
    from: u32,
    /// The turns of the stock before the move, and the cards of a relaxed move to change places first.
    draws: u8,
    exchange: Option<(Card, Card)>,
    mv: Move,
    /// The child's numbers.
    cards: u64,
    piles: [(u8, u8); MOST_PILES],
    terms: u64,
}

/// A state the search has entered, and its children still to try.
struct Frame {
    state: State,
    /// Its children, at `start..end` in the search's list of children, those from `next` on still to try.
    start: usize,
    next: usize,
    end: usize,
}

/// The endgame of one search of the laxer relaxed game: the game's rules as numbers, and the losses proved so far.
pub(crate) struct Endgame {
    /// The class of each card, by card index.
    class: [u8; 64],
    /// The class of the cards that may be built on a card of each class, or [`NONE`].
    on: [u8; 64],
    /// The class of the `i`-th card from the bottom of a pile whose bottom card is of class `b`, at `b * 64 + i`.
    class_at: Box<[u8; 64 * 64]>,
    /// Which runs may move from a pile.
    moves: Moves,
    /// Where the tableau is laid out afresh (see [`crate::layouts`]), its layouts, and those a search has met.
    layouts: Option<Layouts>,
    laid_out: Vec<Position>,
    /// Whether the waste's top card may fill a space, and whether a tableau card or run may.
    waste_to_space: bool,
    tableau_to_space: bool,
    piles: usize,
    /// The term of a pile of each bottom class and length (0 for a space), at `class * 64 + length`.
    pile_terms: Box<[u64; 64 * 64]>,
    /// The term of each foundation at each height.
    foundation_terms: [[u64; 16]; 4],
    /// The states proved lost; once the table is full, a new loss takes the place of an old one (see
    /// [`Table::insert_evicting`]).
    lost: Table,
    /// The most cards in the stock of a position whose endgame is searched: one fewer than at the last search
    /// cut off by its budget.
    most_stock: usize,
    /// States met on the way to a win: they win too, so a search that meets one stops at once.
    won: FxHashSet<u128>,
    /// The states one search met.
    met: FxHashSet<u128>,
    /// The most states one search meets before it stops, unfinished.
    most_met: usize,
    /// The frames of one search, and the children they have still to try.
    frames: Vec<Frame>,
    children: Vec<Child>,
    /// The children keyed, by every search so far.
    nodes: u64,
}

impl Endgame {
    /// The endgame of the search of `relaxation` from `root`, its losses kept in `memory_bytes`, if the rules give
    /// one: the laxer relaxed game with piles keyed by their bottoms, a stock that turns one card at a time, no pile
    /// of a capacity of its own, no foundation card going back, spaces filled by force from the reserve alone, and
    /// no choice pending.
    pub(crate) fn for_root(
        rules: &RuleSet,
        root: &Position,
        relaxation: Relaxation,
        memory_bytes: usize,
    ) -> Option<Endgame> {
        let tableau = &rules.tableau;
        let spaces = rules.at_will_sources(true);
        let fits = relaxation.next() == NextCard::AnyOfItsClass
            && relaxation.piles_by_bottom()
            && rules.stock.draw == 1
            && tableau.capacity.is_empty()
            && tableau.top_card_from_piles_of.is_none()
            && !rules.foundations.cards_go_back
            && tableau.spaces.forced.iter().all(|&s| s == Source::Reserve)
            && root.tableau_piles() <= MOST_PILES
            && !root.choice_pending();
        if !fits {
            return None;
        }
        root.base_rank()?;
        let (class, on) = relaxation.classes_built_on(rules, root);
        let mut class_at = Box::new([NONE; 64 * 64]);
        for bottom in 0..64 {
            let mut at = bottom as u8;
            for i in 0..64 {
                class_at[bottom * 64 + i] = at;
                at = if at == NONE {
                    NONE
                } else {
                    on[usize::from(at)]
                };
            }
        }
        let term = |i: usize| xxh3_64(&i.to_le_bytes());
        // Where the tableau is laid out afresh, a pile is keyed by its bottom card's class alone.
        let layouts = relaxation
            .lays_out_afresh()
            .then(|| Layouts::for_root(rules, root, &relaxation))
            .flatten();
        let mut pile_terms = Box::new([0u64; 64 * 64]);
        for (i, pile_term) in pile_terms.iter_mut().enumerate() {
            if i % 64 != 0 {
                *pile_term = term(if layouts.is_some() { i - i % 64 + 1 } else { i });
            }
        }
        // The states one search meets, and those on the way to wins, each at most a sixteenth of the memory (an
        // eighth while its set grows), the rest for the losses.
        let most_met = (memory_bytes / BYTES_A_STATE / 16).min(MOST_STATES_A_SEARCH);
        let foundation_terms: [[u64; 16]; 4] = std::array::from_fn(|suit| {
            std::array::from_fn(|height| term(64 * 64 + suit * 16 + height))
        });
        Some(Endgame {
            class,
            on,
            class_at,
            moves: tableau.moves,
            layouts,
            laid_out: Vec::new(),
            waste_to_space: spaces.contains(&Source::Waste),
            tableau_to_space: spaces.contains(&Source::Tableau),
            piles: root.tableau_piles(),
            pile_terms,
            foundation_terms,
            lost: Table::new(memory_bytes - 4 * most_met * BYTES_A_STATE),
            most_stock: usize::MAX,
            won: FxHashSet::default(),
            met: FxHashSet::default(),
            most_met,
            frames: Vec::new(),
            children: Vec::new(),
            nodes: 0,
        })
    }

    /// Whether `position`, a position of the laxer game, is in the endgame and lost there: searched, if it is not
    /// known, within a budget of states that grows with `searched`, the nodes the search of positions has searched.
    pub(crate) fn lost(
        &mut self,
        rules: &RuleSet,
        dead_ends: Option<&DeadEnds>,
        position: &Position,
        searched: u64,
    ) -> bool {
        let stock = position.len(Pile::Stock);
        if !position.reserve_empty() || position.redeals_left() != Some(0) {
            return false;
        }
        let root = self.state_of(position);
        let root_key = key_of(root.cards, root.terms);
        if self.lost.contains(root_key) {
            return true;
        }
        if stock > self.most_stock || self.won.contains(&root_key) {
            return false;
        }
        let budget = (searched / BUDGET_SHARE)
            .max(LEAST_BUDGET)
            .min(self.most_met as u64) as usize;
        if self.met.capacity() > 1 << 12 {
            self.met = FxHashSet::default();
        }
        self.met.clear();
        self.met.insert(root_key);
        self.nodes += 1;
        self.frames.clear();
        self.children.clear();
        self.laid_out.clear();
        self.enter(rules, root);
        while let Some(frame) = self.frames.last_mut() {
            if frame.next == frame.end {
                self.children.truncate(frame.start);
                self.frames.pop();
                continue;
            }
            let child = self.children[frame.next];
            frame.next += 1;
            // A child keyed is a node, as in the search of positions.
            self.nodes += 1;
            let from = match child.from {
                OWN_LAYOUT => frame.state.position,
                other => self.laid_out[other as usize],
            };
            let key = key_of(child.cards, child.terms);
            if self.won.contains(&key) {
                self.won_on_the_way();
                return false;
            }
            if self.lost.contains(key) || !self.met.insert(key) {
                continue;
            }
            let mut position = from;
            if let Some((a, b)) = child.exchange {
                position.exchange(a, b);
            }
            if child.draws > 0 {
                let mut turns = position.stock_turns(rules);
                for _ in 0..child.draws {
                    turns.turn();
                }
                position.turn_to(&turns);
            }
            position.apply(rules, child.mv);
            if position.is_won() {
                self.won_on_the_way();
                return false;
            }
            if self.met.len() > budget {
                self.most_stock = stock.saturating_sub(1);
                return false;
            }
            if dead_ends.is_some_and(|rule| rule.lost_whatever_the_trial(rules, &position)) {
                continue;
            }
            let state = State {
                position,
                cards: child.cards,
                piles: child.piles,
                terms: child.terms,
            };
            self.enter(rules, state);
        }
        for &key in &self.met {
            self.lost.insert_evicting(key);
        }
        true
    }

    /// Keeps the states on the way to the win just met, those of the search's frames, as won, while there is room.
    fn won_on_the_way(&mut self) {
        if self.won.len() + self.frames.len() <= self.most_met {
            self.won.extend(
                self.frames
                    .iter()
                    .map(|frame| key_of(frame.state.cards, frame.state.terms)),
            );
        }
    }

    /// The children keyed by every search so far, taken: the search of positions counts them as its nodes.
    pub(crate) fn take_nodes(&mut self) -> u64 {
        std::mem::take(&mut self.nodes)
    }

    /// The bytes the tables of states take.
    pub(crate) fn bytes(&self) -> usize {
        self.lost.bytes() + (self.won.capacity() + self.met.capacity()) * BYTES_A_STATE
    }

    /// The numbers of `position`.
    fn state_of(&self, position: &Position) -> State {
        let cards = position
            .pile(Pile::Waste)
            .iter()
            .chain(position.pile(Pile::Stock))
            .fold(0, |set, &card| set | 1 << card);
        let mut state = State {
            position: *position,
            cards,
            piles: [(0, 0); MOST_PILES],
            terms: 0,
        };
        for suit in 0..4 {
            state.terms = state
                .terms
                .wrapping_add(self.foundation_terms[suit][position.foundation_len(suit)]);
        }
        for t in 0..self.piles {
            let pile = position.pile(Pile::Tableau(t as u8));
            if let Some(&bottom) = pile.first() {
                state.piles[t] = (self.class[usize::from(bottom)], pile.len() as u8);
                state.terms = state.terms.wrapping_add(self.pile_term(state.piles[t]));
            }
        }
        state
    }

    fn pile_term(&self, (bottom, len): (u8, u8)) -> u64 {
        self.pile_terms[usize::from(bottom) * 64 + usize::from(len)]
    }

    /// The class of the top card of a pile that is not a space.
    fn top(&self, (bottom, len): (u8, u8)) -> u8 {
        self.class_at[usize::from(bottom) * 64 + usize::from(len) - 1]
    }

    /// `child` with pile `t` made `pile`.
    fn with_pile(&self, mut child: Child, t: usize, pile: (u8, u8)) -> Child {
        let pile = if pile.1 == 0 { (0, 0) } else { pile };
        child.terms = child
            .terms
            .wrapping_sub(self.pile_term(child.piles[t]))
            .wrapping_add(self.pile_term(pile));
        child.piles[t] = pile;
        child
    }

    /// `child` with one more card on the foundation of `suit`, which holds `height` cards.
    fn raised(&self, mut child: Child, suit: usize, height: usize) -> Child {
        child.terms = child
            .terms
            .wrapping_sub(self.foundation_terms[suit][height])
            .wrapping_add(self.foundation_terms[suit][height + 1]);
        child
    }

    /// Whether pile `t` is the same as an earlier pile of `state` other than `but`: its moves are theirs.
    fn repeats(state: &State, t: usize, but: usize) -> bool {
        (0..t).any(|u| u != but && state.piles[u] == state.piles[t])
    }

    /// Enters `state`: a frame for it, with its children, those to the foundations first, so that a win, where
    /// there is one, is met sooner.
    fn enter(&mut self, rules: &RuleSet, state: State) {
        let start = self.children.len();
        let position = &state.position;
        let same = Child {
            from: OWN_LAYOUT,
            draws: 0,
            exchange: None,
            mv: Move::new(Pile::Stock, Pile::Stock, 0),
            cards: state.cards,
            piles: state.piles,
            terms: state.terms,
        };
        self.raises(&state, same);
        // The waste's top card, and each card of the stock turned up, to the foundations and the tableau.
        let mut turns = position.stock_turns(rules);
        let mut draws = 0u8;
        let mut card = position.top(Pile::Waste);
        loop {
            if let Some(card) = card {
                let taken = Child {
                    draws,
                    cards: state.cards & !(1 << card.index()),
                    ..same
                };
                self.plays_of(&state, card, taken);
            }
            if turns.turn().is_none() {
                break;
            }
            draws += 1;
            card = turns.waste_top();
        }
        self.runs(&state, same, self.layouts.is_some());
        // The steps that leave a space, or send up a card, from the other layouts of the tableau, where it is
        // laid out afresh (see `crate::layouts`).
        let wanted = self
            .layouts
            .as_ref()
            .map(|layouts| (layouts, layouts.wanted(position)));
        if let Some((layouts, wanted)) = wanted.filter(|(_, wanted)| !wanted.is_empty()) {
            let from = self.laid_out.len();
            layouts.others(position, wanted, &mut self.laid_out);
            for at in from..self.laid_out.len() {
                let other = self.state_of(&self.laid_out[at]);
                let same = Child {
                    from: at as u32,
                    piles: other.piles,
                    ..same
                };
                self.raises(&other, same);
                self.runs(&other, same, true);
            }
        }
        let end = self.children.len();
        // Each child's slot in the table of losses is a cache miss: fetched now, they wait for memory together.
        for child in &self.children[start..end] {
            self.lost.prefetch(key_of(child.cards, child.terms));
        }
        self.frames.push(Frame {
            state,
            start,
            next: start,
            end,
        });
    }

    /// Pushes the steps to the foundations from the tableau of `state`, as `same` starts them: a card next on its
    /// foundation that lies there, from the top of a pile a card of its class tops.
    fn raises(&mut self, state: &State, same: Child) {
        let position = &state.position;
        for suit in Suit::ALL {
            let Some(card) = position.foundation_next(suit) else {
                continue;
            };
            if state.cards >> card.index() & 1 == 1 {
                continue;
            }
            let class = self.class[usize::from(card.index())];
            for t in 0..self.piles {
                let (bottom, len) = state.piles[t];
                if len == 0
                    || self.top((bottom, len)) != class
                    || Self::repeats(state, t, usize::MAX)
                {
                    continue;
                }
                let top = position
                    .top(Pile::Tableau(t as u8))
                    .expect("a pile's top card");
                let child = Child {
                    exchange: (top != card).then_some((card, top)),
                    mv: Move::new(Pile::Tableau(t as u8), Pile::Foundation(suit as u8), 1),
                    ..same
                };
                let child = self.with_pile(child, t, (bottom, len - 1));
                let height = position.foundation_len(suit as usize);
                self.children
                    .push(self.raised(child, suit as usize, height));
            }
        }
    }

    /// Pushes the steps that move runs between the piles of `state`, as `same` starts them; only those that
    /// leave a space or fill one if `spaces_only`.
    fn runs(&mut self, state: &State, same: Child, spaces_only: bool) {
        for from in 0..self.piles {
            let (bottom, len) = state.piles[from];
            if len == 0 || Self::repeats(state, from, usize::MAX) {
                continue;
            }
            let (least, most) = match self.moves {
                Moves::Top => (1, 1),
                Moves::WholePile => (len, len),
                Moves::TopOrWhole | Moves::AnyRun => (1, len),
            };
            // Where only the steps that leave a space or fill one are wanted, and no tableau card fills one, only
            // a whole pile moves: the shorter runs need not be gone through.
            let least = if spaces_only && !self.tableau_to_space {
                most
            } else {
                least
            };
            for run in least..=most {
                if self.moves == Moves::TopOrWhole && run != 1 && run != len {
                    continue;
                }
                let run_bottom = self.class_at[usize::from(bottom) * 64 + usize::from(len - run)];
                let mut space_tried = false;
                for to in (0..self.piles).filter(|&to| to != from) {
                    let target = state.piles[to];
                    if Self::repeats(state, to, from) {
                        continue;
                    }
                    let onto = if target.1 == 0 {
                        if space_tried || !self.tableau_to_space || run == len {
                            continue;
                        }
                        space_tried = true;
                        (run_bottom, run)
                    } else if self.on[usize::from(self.top(target))] == run_bottom
                        && (run == len || !spaces_only)
                    {
                        (target.0, target.1 + run)
                    } else {
                        continue;
                    };
                    let child = Child {
                        mv: Move::new(Pile::Tableau(from as u8), Pile::Tableau(to as u8), run),
                        ..same
                    };
                    let child = self.with_pile(child, from, (bottom, len - run));
                    self.children.push(self.with_pile(child, to, onto));
                }
            }
        }
    }

    /// Pushes the plays of `card`, on top of the waste once the stock is turned as `taken` says, to its
    /// foundation and onto the tableau.
    fn plays_of(&mut self, state: &State, card: Card, taken: Child) {
        let position = &state.position;
        let suit = card.suit() as usize;
        if position.foundation_next(card.suit()) == Some(card) {
            let child = Child {
                mv: Move::new(Pile::Waste, Pile::Foundation(suit as u8), 1),
                ..taken
            };
            self.children
                .push(self.raised(child, suit, position.foundation_len(suit)));
        }
        let class = self.class[usize::from(card.index())];
        let mut space_tried = false;
        for to in 0..self.piles {
            let target = state.piles[to];
            if Self::repeats(state, to, usize::MAX) {
                continue;
            }
            let onto = if target.1 == 0 {
                if space_tried || !self.waste_to_space {
                    continue;
                }
                space_tried = true;
                (class, 1)
            } else if self.on[usize::from(self.top(target))] == class {
                (target.0, target.1 + 1)
            } else {
                continue;
            };
            let child = Child {
                mv: Move::new(Pile::Waste, Pile::Tableau(to as u8), 1),
                ..taken
            };
            self.children.push(self.with_pile(child, to, onto));
        }
    }
}

/// The key of a state's numbers: the cards left in the stock and the waste, and the sum of the other terms, mixed
/// so that its top bits (which pick a shard of the table of losses) and its low ones (its fingerprint there) hang
/// on both. The cut of the stock needs no place in it: every step that takes a card from the stock plays it at
/// once (a stock macro-move), so the cut follows from the cards left (one past the last card the stock has given,
/// or the cut of the search's root).
fn key_of(cards: u64, terms: u64) -> u128 {
    let mixed = xxh3_64(&cards.to_le_bytes());
    u128::from(mixed ^ terms.rotate_left(32)) << 64 | u128::from(terms ^ mixed.rotate_left(17))
}
