//! The game of chunks: the real game, with the tableau's chunks laid out afresh at will.
//!
//! # Chunks
//! Where building is regardless of suit, every pile is a run and any run may move (Chameleon), a run moved onto a
//! pile whose top card is `t` starts with a card that may be built on `t`, so the card it leaves behind has `t`'s
//! rank. Cut every pile after each card but its top card whose rank is that of some pile's top card: the parts are
//! the chunks, and a move of a run between piles that leaves no space takes whole chunks. The two piles swap their
//! top cards' ranks, so the ranks of the top cards, and with them the chunks, stay as they were.
//!
//! # The game
//! Add to the real game one move: lay the chunks out afresh, each pile on its own bottom chunk (a space stays a
//! space), each other chunk on a chunk whose top card takes its first card. A real line is a line of this game, so
//! a loss of this game is a real loss. Every layout of the chunks has the same ranks of top cards, which follow
//! from the tableau's cards and its bottom cards (see [`crate::layouts`], "The tops follow from the cards and the
//! bottoms", with a rank for a class), and so the same chunks: a join between two chunks lies after a top card's
//! rank, and no card inside a chunk has one. So a state of the game is its position's layer, its bottom chunks and
//! its other chunks, each as a set, and its key is made so (see [`Chunks::term`]). Chameleon deal 116, undecided at
//! 60 s, has 216 layouts of its tableau for most of the positions its full search enters.
//!
//! # Its steps
//! A run moved between piles that leaves no space leads to a layout of the same state, and is not tried. A move
//! that touches no tableau pile, or puts a card into a space, leads to the same state from every layout: the
//! space, the stock, the waste, the reserve and the foundations are the same in all. The others change the ranks
//! of the top cards: a top card of rank `r` sent up, a card put on a top card of rank `r`, a whole pile put on
//! one. New cuts then come after the cards of a new top card's rank, wherever they lie, the same from every layout;
//! and where no top card of rank `r` is left, the chunks ending at rank `r` join the chunk that lies on each, if
//! any. So such a step leads to the same state from every layout that lays out rank `r` alike: the same chunk on
//! each chunk ending at `r`, or none, and, where a whole pile may go onto a top card of rank `r`, the pile of
//! each such top card (a pile goes onto another's). [`Chunks::for_each_layout`] gives a layout for each way alone,
//! and the search tries from it the steps at the ranks it lays out anew.
//!
//! # Its wins
//! A step from another layout is a relaxed step: a line with one wins only this game, unless real moves lay the
//! chunks out so. Most layouts of a state are reached by moves of runs between piles, which [`moves_to_layout`]
//! finds; a line through layouts so reached is a real line, checked by the rules, and the search returns it as a
//! win.

use std::collections::{HashMap, VecDeque};

use patience_core::{Card, Move, Pile, Position, RuleSet};
use xxhash_rust::xxh3::xxh3_128_with_seed;

use crate::layouts::MOST_PILES;

/// The most chunks a tableau is cut into: one a card.
const MOST: usize = 52;

/// No chunk.
const NONE: u8 = u8::MAX;

/// A tableau cut into chunks.
pub(crate) struct Chunks {
    /// The tableau's cards, pile after pile, bottom to top.
    cards: [u8; 52],
    /// Each chunk's start in `cards`, and one past its end, in the order of the piles, bottom to top.
    spans: [(u8, u8); MOST],
    count: usize,
    /// Each pile's bottom chunk, or [`NONE`] for a space.
    bottoms: [u8; MOST_PILES],
    piles: usize,
    /// The pile each chunk lies in.
    pile_of: [u8; MOST],
    /// The rank of each chunk's top card.
    tip: [u8; MOST],
    /// The ranks of the piles' top cards, as a set of rank indices.
    tops: u32,
}

fn rank(card: u8) -> u8 {
    Card::from_index(card).map_or(0, |card| card.rank().index())
}

impl Chunks {
    /// `position`'s tableau cut into chunks; it has at most [`MOST_PILES`] piles.
    pub(crate) fn of(position: &Position) -> Chunks {
        let piles = position.tableau_piles();
        let mut tops = 0u32;
        for t in 0..piles as u8 {
            if let Some(&top) = position.pile(Pile::Tableau(t)).last() {
                tops |= 1 << rank(top);
            }
        }
        let mut chunks = Chunks {
            cards: [0; 52],
            spans: [(0, 0); MOST],
            count: 0,
            bottoms: [NONE; MOST_PILES],
            piles,
            pile_of: [0; MOST],
            tip: [NONE; MOST],
            tops,
        };
        let mut at = 0usize;
        for t in 0..piles {
            let pile = position.pile(Pile::Tableau(t as u8));
            let mut start = at;
            for (i, &card) in pile.iter().enumerate() {
                chunks.cards[at] = card;
                at += 1;
                if i + 1 == pile.len() || tops >> rank(card) & 1 == 1 {
                    if start + i + 1 == at {
                        chunks.bottoms[t] = chunks.count as u8;
                    }
                    chunks.spans[chunks.count] = (start as u8, at as u8);
                    chunks.tip[chunks.count] = rank(card);
                    chunks.pile_of[chunks.count] = t as u8;
                    chunks.count += 1;
                    start = at;
                }
            }
        }
        chunks
    }

    fn chunk(&self, i: usize) -> &[u8] {
        let (start, end) = self.spans[i];
        &self.cards[usize::from(start)..usize::from(end)]
    }

    /// The piles' bottom chunks, as a set of chunk indices.
    fn bottom_set(&self) -> u64 {
        self.bottoms[..self.piles]
            .iter()
            .filter(|&&b| b != NONE)
            .fold(0, |set, &b| set | 1 << b)
    }

    /// The tableau's term in a key: each pile's bottom chunk and each other chunk hashed on its own, by role, and
    /// added, so that every layout of the same chunks on the same bottom chunks has one term.
    pub(crate) fn term(&self, bottom_seed: u64, other_seed: u64) -> u128 {
        let bottoms = self.bottom_set();
        (0..self.count).fold(0u128, |sum, i| {
            let seed = if bottoms >> i & 1 == 1 {
                bottom_seed
            } else {
                other_seed
            };
            sum.wrapping_add(xxh3_128_with_seed(self.chunk(i), seed))
        })
    }

    /// Calls `each` with layouts of the chunks other than `position`'s own (each pile on its own bottom chunk,
    /// spaces left spaces, every chunk laid on a chunk whose top card takes its first card), and for each the
    /// ranks, as a set of rank indices, of the piles' top cards at which it lays the chunks out as no layout
    /// given before does, nor `position`: which chunk lies on each chunk that ends at that rank, if any. A step
    /// that sends up a top card of that rank, or puts a card or a whole pile on one, leads to the same state
    /// from every layout that lays out that rank alike (see [`crate::chunks`]), so a layout is given for each
    /// way alone.
    pub(crate) fn for_each_layout(
        &self,
        rules: &RuleSet,
        position: &Position,
        mut each: impl FnMut(&Position, u32),
    ) {
        let bottoms = self.bottom_set();
        let all = (1u64 << self.count) - 1;
        let mut lays = Lays {
            fits: [0; MOST],
            ends: [0; 16],
            above: [NONE; MOST],
            pile: self.pile_of,
            whole: 0,
            seen: [(0, 0); SEEN],
            seen_len: 0,
        };
        for j in 0..self.count {
            let top = *self.chunk(j).last().expect("a chunk has cards");
            let takes =
                Card::from_index(top).map_or(0, |card| position.cards_built_on(rules, card));
            lays.fits[j] = (0..self.count)
                .filter(|&i| bottoms >> i & 1 == 0 && takes >> self.chunk(i)[0] & 1 == 1)
                .fold(0, |set, i| set | 1 << i);
            if self.tops >> self.tip[j] & 1 == 1 {
                lays.ends[usize::from(self.tip[j])] |= 1 << j;
                let takes_a_bottom = self.bottoms[..self.piles]
                    .iter()
                    .any(|&b| b != NONE && takes >> self.chunk(usize::from(b))[0] & 1 == 1);
                if takes_a_bottom {
                    lays.whole |= 1 << self.tip[j];
                }
            }
        }
        // `position`'s own layout first: its chunks lie on each other in their piles as cut.
        for i in 1..self.count {
            if bottoms >> i & 1 == 0 {
                lays.above[i - 1] = i as u8;
            }
        }
        lays.new_ranks(self.tops);
        lays.above = [NONE; MOST];
        let first = self.bottoms.iter().position(|&b| b != NONE);
        if let Some(first) = first {
            self.lay(
                position,
                first,
                usize::from(self.bottoms[first]),
                all & !bottoms,
                &mut lays,
                &mut each,
            );
        }
    }

    /// Lays the unused chunks `unused` on pile `pile`, whose top chunk is `top`, and on the piles after it.
    fn lay(
        &self,
        position: &Position,
        pile: usize,
        top: usize,
        unused: u64,
        lays: &mut Lays,
        each: &mut impl FnMut(&Position, u32),
    ) {
        // The pile ends here, or takes another chunk on its top card.
        match (pile + 1..self.piles).find(|&t| self.bottoms[t] != NONE) {
            Some(next) => self.lay(
                position,
                next,
                usize::from(self.bottoms[next]),
                unused,
                lays,
                each,
            ),
            None if unused == 0 => self.give(position, lays, each),
            None => {}
        }
        let mut fits = lays.fits[top] & unused;
        while fits != 0 {
            let i = fits.trailing_zeros() as usize;
            fits &= fits - 1;
            lays.above[top] = i as u8;
            lays.pile[i] = pile as u8;
            self.lay(position, pile, i, unused & !(1 << i), lays, each);
            lays.above[top] = NONE;
        }
    }

    /// Gives the layout `lays` holds to `each`, where it lays some rank out anew.
    fn give(&self, position: &Position, lays: &mut Lays, each: &mut impl FnMut(&Position, u32)) {
        let new = lays.new_ranks(self.tops);
        if new == 0 {
            return;
        }
        let mut cards = [0u8; 52];
        let mut lengths = [0u8; MOST_PILES];
        let mut at = 0;
        for t in 0..self.piles {
            let mut i = self.bottoms[t];
            while i != NONE {
                let chunk = self.chunk(usize::from(i));
                cards[at..at + chunk.len()].copy_from_slice(chunk);
                at += chunk.len();
                lengths[t] += chunk.len() as u8;
                i = lays.above[usize::from(i)];
            }
        }
        let mut laid = *position;
        laid.lay_out_tableau(&cards[..at], &lengths[..self.piles]);
        each(&laid, new);
    }
}

/// The most ways of laying out the chunks at the top cards' ranks that [`Lays`] keeps apart: more are given
/// again, which costs steps, not soundness.
const SEEN: usize = 64;

/// A layout being made: what lies on each chunk, and what layouts were given.
struct Lays {
    /// The chunks that may lie on each chunk, as a set of chunk indices.
    fits: [u64; MOST],
    /// For each rank of a top card, the chunks that end at that rank, as a set of chunk indices.
    ends: [u64; 16],
    /// The chunk that lies on each chunk, or [`NONE`].
    above: [u8; MOST],
    /// The pile each chunk lies in.
    pile: [u8; MOST],
    /// The ranks, as a set of rank indices, of the top cards that may take a pile's bottom card.
    whole: u32,
    /// The ways of laying out each top card's rank given so far: the rank, and what lies on each chunk ending
    /// at it, or the pile it tops.
    seen: [(u8, u32); SEEN],
    seen_len: usize,
}

impl Lays {
    /// The ranks among `tops` that the layout lays out as none seen before, which it joins.
    fn new_ranks(&mut self, tops: u32) -> u32 {
        let mut new = 0;
        let mut ranks = tops;
        while ranks != 0 {
            let rank = ranks.trailing_zeros() as u8;
            ranks &= ranks - 1;
            let mut way = 0u32;
            let mut ends = self.ends[usize::from(rank)];
            while ends != 0 {
                let e = ends.trailing_zeros() as usize;
                ends &= ends - 1;
                // Where a whole pile may go onto a top card of this rank, a chunk on top of a pile is named by its
                // pile: it takes only the other piles.
                let on = match self.above[e] {
                    NONE if self.whole >> rank & 1 == 1 => 0x80 | self.pile[e],
                    chunk => chunk,
                };
                way = way << 8 | u32::from(on);
            }
            if !self.seen[..self.seen_len].contains(&(rank, way)) {
                if self.seen_len < SEEN {
                    self.seen[self.seen_len] = (rank, way);
                    self.seen_len += 1;
                }
                new |= 1 << rank;
            }
        }
        new
    }
}

/// `position` with its tableau laid out as `layout`'s, which holds the same tableau cards.
pub(crate) fn laid_out_as(mut position: Position, layout: &Position) -> Position {
    let piles = layout.tableau_piles() as u8;
    let mut cards = [0u8; 52];
    let mut lengths = [0u8; MOST_PILES];
    let mut at = 0;
    for t in 0..piles {
        let pile = layout.pile(Pile::Tableau(t));
        cards[at..at + pile.len()].copy_from_slice(pile);
        at += pile.len();
        lengths[usize::from(t)] = pile.len() as u8;
    }
    position.lay_out_tableau(&cards[..at], &lengths[..usize::from(piles)]);
    position
}

/// The most layouts [`moves_to_layout`] goes through.
const MOST_LAYOUTS: usize = 1 << 16;

/// Moves of runs between tableau piles, none leaving a space, that lead from `from` to its tableau laid out as
/// `to`'s, by a breadth-first search of at most [`MOST_LAYOUTS`] layouts; `None` where it finds none. Such moves
/// keep the chunks (see [`crate::chunks`]), so `to` must be a layout of `from`'s chunks for any to be found.
pub(crate) fn moves_to_layout(
    rules: &RuleSet,
    from: &Position,
    to: &Position,
) -> Option<Vec<Move>> {
    let tableau = |position: &Position| {
        (0..position.tableau_piles() as u8)
            .map(|t| position.pile(Pile::Tableau(t)).to_vec())
            .collect::<Vec<_>>()
    };
    let goal = tableau(to);
    let mut reached: HashMap<Position, Option<(Position, Move)>> = HashMap::new();
    reached.insert(*from, None);
    let mut queue = VecDeque::from([*from]);
    while let Some(position) = queue.pop_front() {
        if tableau(&position) == goal {
            let mut moves = Vec::new();
            let mut at = position;
            while let Some(&Some((before, mv))) = reached.get(&at) {
                moves.push(mv);
                at = before;
            }
            moves.reverse();
            return Some(moves);
        }
        if reached.len() > MOST_LAYOUTS {
            return None;
        }
        for t in 0..position.tableau_piles() as u8 {
            let pile = Pile::Tableau(t);
            position.for_each_legal_move_from(rules, pile, |mv| {
                let keeps_piles = matches!(mv.to, Pile::Tableau(_))
                    && position.len(pile) > usize::from(mv.count)
                    && position.len(mv.to) > 0;
                if keeps_piles {
                    let mut next = position;
                    next.apply(rules, mv);
                    reached.entry(next).or_insert_with(|| {
                        queue.push_back(next);
                        Some((position, mv))
                    });
                }
            });
        }
    }
    None
}
