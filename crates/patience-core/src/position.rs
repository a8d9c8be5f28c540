//! A position: where every card lies, packed into a few fixed-size arrays so that it is cheap to copy.

use crate::card::{Card, Rank, Suit};
use crate::rules::{MAX_CHOICE, MAX_RESERVE, MAX_TABLEAU};

/// Piles a position can hold: stock, waste, reserve, tableau and choice row.
pub(crate) const MAX_PILES: usize = 2 + MAX_RESERVE + MAX_TABLEAU + MAX_CHOICE;
/// A `base_rank` byte meaning the base rank is not fixed yet.
const NO_BASE: u8 = u8::MAX;
/// A `redeals_left` byte meaning redeals are unlimited.
const UNLIMITED: u8 = u8::MAX;

/// A pile of a position, as moves name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pile {
    /// The face-down pack in hand.
    Stock,
    /// The face-up pile the stock is turned onto.
    Waste,
    /// A foundation, by suit index (♣ ♠ ♥ ♦).
    Foundation(u8),
    /// A reserve pile, from 0.
    Reserve(u8),
    /// A tableau pile, from 0.
    Tableau(u8),
    /// A card of the choice row, from 0 (Selective Canfield, before the choice).
    Choice(u8),
}

/// Every card's place. Piles other than the foundations share one array of cards, each pile a slice of it,
/// bottom to top; a foundation is only a count, since its cards follow from its suit and the base rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    cards: [u8; 52],
    /// `ends[i]` is one past the last card of slot `i`; slot `i` starts at `ends[i - 1]` (or 0).
    ends: [u8; MAX_PILES],
    foundations: [u8; 4],
    base_rank: u8,
    redeals_left: u8,
    reserve_piles: u8,
    tableau_piles: u8,
    choice_piles: u8,
    ranks: u8,
}

impl Position {
    /// An empty position with these numbers of piles, for a pack of `ranks` ranks per suit.
    pub(crate) fn empty(
        reserve_piles: usize,
        tableau_piles: usize,
        choice_piles: usize,
        ranks: u8,
    ) -> Position {
        Position {
            cards: [0; 52],
            ends: [0; MAX_PILES],
            foundations: [0; 4],
            base_rank: NO_BASE,
            redeals_left: 0,
            reserve_piles: reserve_piles as u8,
            tableau_piles: tableau_piles as u8,
            choice_piles: choice_piles as u8,
            ranks,
        }
    }

    /// The slot of a pile in the card array, or `None` for a foundation or a pile the position lacks.
    #[inline]
    fn slot(&self, pile: Pile) -> Option<usize> {
        let reserve = self.reserve_piles as usize;
        let tableau = self.tableau_piles as usize;
        match pile {
            Pile::Stock => Some(0),
            Pile::Waste => Some(1),
            Pile::Reserve(i) if (i as usize) < reserve => Some(2 + i as usize),
            Pile::Tableau(i) if (i as usize) < tableau => Some(2 + reserve + i as usize),
            Pile::Choice(i) if (i as usize) < self.choice_piles as usize => {
                Some(2 + reserve + tableau + i as usize)
            }
            _ => None,
        }
    }

    #[inline]
    fn slot_range(&self, slot: usize) -> std::ops::Range<usize> {
        let start = if slot == 0 { 0 } else { self.ends[slot - 1] };
        start as usize..self.ends[slot] as usize
    }

    /// The length and top card (as its byte) of every tableau pile, read in one pass for move generation.
    #[inline]
    pub(crate) fn tableau_tops(&self) -> ([u8; MAX_TABLEAU], [u8; MAX_TABLEAU]) {
        let mut len = [0; MAX_TABLEAU];
        let mut top = [0; MAX_TABLEAU];
        let first = 2 + self.reserve_piles as usize;
        let mut start = self.ends[first - 1] as usize;
        for t in 0..self.tableau_piles as usize {
            let end = self.ends[first + t] as usize;
            len[t] = (end - start) as u8;
            if end > start {
                top[t] = self.cards[end - 1];
            }
            start = end;
        }
        (len, top)
    }

    /// Whether the position has this pile.
    pub fn has_pile(&self, pile: Pile) -> bool {
        match pile {
            Pile::Foundation(i) => i < 4,
            other => self.slot(other).is_some(),
        }
    }

    /// The cards of a pile other than a foundation, bottom to top (empty for a pile the position lacks).
    #[inline]
    pub fn pile(&self, pile: Pile) -> &[u8] {
        match self.slot(pile) {
            Some(slot) => &self.cards[self.slot_range(slot)],
            None => &[],
        }
    }

    /// The cards of a pile, bottom to top, foundations included.
    pub fn cards(&self, pile: Pile) -> Vec<Card> {
        match pile {
            Pile::Foundation(suit) => (0..self.foundation_len(suit as usize))
                .filter_map(|i| self.foundation_card(suit as usize, i))
                .collect(),
            other => self
                .pile(other)
                .iter()
                .filter_map(|&c| Card::from_index(c))
                .collect(),
        }
    }

    /// How many cards a pile holds.
    #[inline]
    pub fn len(&self, pile: Pile) -> usize {
        match pile {
            Pile::Foundation(suit) if suit < 4 => self.foundation_len(suit as usize),
            Pile::Foundation(_) => 0,
            other => self.pile(other).len(),
        }
    }

    /// The top card of a pile, if it has one.
    #[inline]
    pub fn top(&self, pile: Pile) -> Option<Card> {
        match pile {
            Pile::Foundation(suit) if suit < 4 => {
                let len = self.foundation_len(suit as usize);
                len.checked_sub(1)
                    .and_then(|i| self.foundation_card(suit as usize, i))
            }
            Pile::Foundation(_) => None,
            other => self.pile(other).last().and_then(|&c| Card::from_index(c)),
        }
    }

    /// How many cards the foundation of suit index `suit` holds.
    pub fn foundation_len(&self, suit: usize) -> usize {
        self.foundations[suit] as usize
    }

    /// The `i`-th card (from the bottom) of the foundation of suit index `suit`, whether it is there yet or not,
    /// once the base rank is known.
    #[inline]
    pub fn foundation_card(&self, suit: usize, i: usize) -> Option<Card> {
        let base = self.base_rank()?;
        let (rank, ranks) = (base.index() as usize + i, self.ranks as usize);
        // Round the corner by a subtraction where one does: the solver asks this for every suit at every round of
        // its order-of-play facts, and a division there cost Canfield deal 399's proof 5 % of its time.
        let rank = if rank < 2 * ranks {
            rank - if rank >= ranks { ranks } else { 0 }
        } else {
            rank % ranks
        };
        Some(Card::new(Suit::from_index(suit), Rank::new(rank as u8)?))
    }

    /// The card the foundation of this suit takes next, if its base rank is known and it is not full.
    #[inline]
    pub fn foundation_next(&self, suit: Suit) -> Option<Card> {
        let len = self.foundations[suit as usize];
        if len >= self.ranks {
            return None;
        }
        let base = self.base_rank()?;
        let rank = Rank::new((base.index() + len) % self.ranks)?;
        Some(Card::new(suit, rank))
    }

    /// Whether `card` is on its foundation.
    pub fn on_foundation(&self, card: Card) -> bool {
        self.base_rank().is_some_and(|base| {
            let height = (card.rank().index() + self.ranks - base.index()) % self.ranks;
            usize::from(height) < self.foundation_len(card.suit() as usize)
        })
    }

    /// Cards on all four foundations.
    pub fn foundation_cards(&self) -> usize {
        self.foundations.iter().map(|&n| n as usize).sum()
    }

    /// The rank every foundation starts with, once it is fixed.
    #[inline]
    pub fn base_rank(&self) -> Option<Rank> {
        (self.base_rank != NO_BASE)
            .then(|| Rank::new(self.base_rank))
            .flatten()
    }

    /// Redeals still allowed, or `None` when unlimited.
    pub fn redeals_left(&self) -> Option<u8> {
        (self.redeals_left != UNLIMITED).then_some(self.redeals_left)
    }

    /// How many ranks each suit has in this position's pack.
    #[inline]
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// How many reserve piles.
    pub fn reserve_piles(&self) -> usize {
        self.reserve_piles as usize
    }

    /// How many tableau piles.
    pub fn tableau_piles(&self) -> usize {
        self.tableau_piles as usize
    }

    /// How many places the choice row has (0 when the game has none).
    pub fn choice_piles(&self) -> usize {
        self.choice_piles as usize
    }

    /// Whether the player still has to choose the base card.
    pub fn choice_pending(&self) -> bool {
        (0..self.choice_piles).any(|i| self.len(Pile::Choice(i)) > 0)
    }

    /// Whether every reserve pile is empty (true for a game without a reserve).
    pub fn reserve_empty(&self) -> bool {
        (0..self.reserve_piles).all(|i| self.len(Pile::Reserve(i)) == 0)
    }

    /// Whether every card is on the foundations.
    pub fn is_won(&self) -> bool {
        self.foundations.iter().all(|&n| n == self.ranks)
    }

    /// Every pile that holds cards in the shared array, in slot order.
    pub fn piles(&self) -> impl Iterator<Item = Pile> + '_ {
        [Pile::Stock, Pile::Waste]
            .into_iter()
            .chain((0..self.reserve_piles).map(Pile::Reserve))
            .chain((0..self.tableau_piles).map(Pile::Tableau))
            .chain((0..self.choice_piles).map(Pile::Choice))
    }

    pub(crate) fn set_base_rank(&mut self, rank: Option<Rank>) {
        self.base_rank = rank.map_or(NO_BASE, Rank::index);
    }

    pub(crate) fn set_redeals_left(&mut self, redeals: Option<u8>) {
        self.redeals_left = redeals.unwrap_or(UNLIMITED);
    }

    pub(crate) fn set_foundation_len(&mut self, suit: usize, len: u8) {
        self.foundations[suit] = len;
    }

    /// Rewrites the cards of the stock and the waste, which keep their number: `write` fills their slots (the
    /// stock's bottom to top, then the waste's) and says how many of them the stock holds.
    pub(crate) fn set_stock_and_waste(&mut self, write: impl FnOnce(&mut [u8]) -> usize) {
        let end = self.ends[1] as usize;
        let stock = write(&mut self.cards[..end]);
        self.ends[0] = stock as u8;
    }

    /// Puts a card on top of a pile (not a foundation).
    pub(crate) fn push(&mut self, pile: Pile, card: Card) {
        let Some(slot) = self.slot(pile) else { return };
        let total = self.ends[MAX_PILES - 1] as usize;
        let at = self.ends[slot] as usize;
        self.cards.copy_within(at..total, at + 1);
        self.cards[at] = card.index();
        for end in &mut self.ends[slot..] {
            *end += 1;
        }
    }

    /// Puts each of two cards where the other lies. Neither may be on a foundation, which keeps only a count: a
    /// card not found in a pile leaves the position as it was. It is no move of any game; a solver's relaxed game
    /// uses it (see `patience_solver`'s `relax` module).
    pub fn exchange(&mut self, a: Card, b: Card) {
        let total = self.ends[MAX_PILES - 1] as usize;
        let find = |card: Card| self.cards[..total].iter().position(|&c| c == card.index());
        if let (Some(i), Some(j)) = (find(a), find(b)) {
            self.cards.swap(i, j);
        }
    }

    /// Lays the tableau out afresh: `cards` are its piles' cards, pile after pile, each bottom to top, and
    /// `lengths` each pile's length. They must be the cards the tableau holds, in as many piles as it has; only
    /// the counts are checked, and a layout of other counts leaves the position as it was. It is no move of any
    /// game; a solver's relaxed game uses it (see `patience_solver`'s `layouts` module).
    pub fn lay_out_tableau(&mut self, cards: &[u8], lengths: &[u8]) {
        let first = 2 + self.reserve_piles as usize;
        let tableau = self.tableau_piles as usize;
        let start = self.ends[first - 1] as usize;
        let end = self.ends[first + tableau - 1] as usize;
        if lengths.len() != tableau
            || cards.len() != end - start
            || lengths.iter().map(|&len| usize::from(len)).sum::<usize>() != cards.len()
        {
            return;
        }
        self.cards[start..end].copy_from_slice(cards);
        let mut at = start;
        for (t, &len) in lengths.iter().enumerate() {
            at += usize::from(len);
            self.ends[first + t] = at as u8;
        }
    }

    /// Moves the top `count` cards of one pile onto another, keeping their order.
    pub(crate) fn shift(&mut self, from: Pile, to: Pile, count: usize) {
        let (Some(a), Some(b)) = (self.slot(from), self.slot(to)) else {
            return;
        };
        let count_u8 = count as u8;
        if a < b {
            let start = self.ends[a] as usize - count;
            let end = self.ends[b] as usize;
            self.cards[start..end].rotate_left(count);
            for e in &mut self.ends[a..b] {
                *e -= count_u8;
            }
        } else if a > b {
            let start = self.ends[b] as usize;
            let end = self.ends[a] as usize;
            self.cards[start..end].rotate_right(count);
            for e in &mut self.ends[b..a] {
                *e += count_u8;
            }
        }
    }

    /// Reverses the order of the top `count` cards of a pile.
    pub(crate) fn reverse_top(&mut self, pile: Pile, count: usize) {
        if let Some(slot) = self.slot(pile) {
            let end = self.ends[slot] as usize;
            self.cards[end - count..end].reverse();
        }
    }

    /// Takes the top card of a pile (not a foundation) off the position.
    pub(crate) fn pop(&mut self, pile: Pile) -> Option<Card> {
        let slot = self.slot(pile)?;
        let range = self.slot_range(slot);
        if range.is_empty() {
            return None;
        }
        let at = range.end - 1;
        let card = self.cards[at];
        let total = self.ends[MAX_PILES - 1] as usize;
        self.cards.copy_within(at + 1..total, at);
        self.cards[total - 1] = 0;
        for end in &mut self.ends[slot..] {
            *end -= 1;
        }
        Card::from_index(card)
    }

    /// Adds one card to the foundation of its suit.
    pub(crate) fn raise_foundation(&mut self, suit: Suit) {
        self.foundations[suit as usize] += 1;
    }

    /// Takes one card off the foundation of this suit.
    pub(crate) fn lower_foundation(&mut self, suit: Suit) {
        self.foundations[suit as usize] -= 1;
    }
}
