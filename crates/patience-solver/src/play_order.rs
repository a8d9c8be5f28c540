//! Positions proved lost because no order of play can send every card to the foundations: the tableau holds some
//! cards over others, the reserve gives its cards up one at a time, and a card goes into the tableau only onto a
//! card that takes it or into a space.
//!
//! # Held cards
//! Take rules under which foundation cards never come back and only whole tableau piles move (with, at most, the
//! top card alone from a pile of exactly `k` cards, Foster's rule), and a position whose base rank is known. Say a
//! card of a tableau pile is *held* when it lies at index `k` or more from the pile's bottom (index 1 or more when
//! no top card moves alone). A held card `y` over a card `x` goes to its foundation before `x` leaves the pile.
//!
//! Proof. A tableau card leaves its pile only as its top card to a foundation, or in a move of the whole pile,
//! which keeps the order of the cards in it, or alone from a pile of exactly `k` cards. Cards are only ever added
//! on top of a pile or under a whole pile moved onto another, so the cards under `y` never grow fewer while it
//! stays in a tableau pile: `y` stays at index `k` or more, can never be the top card of a pile of exactly `k`,
//! and never moves alone but to its foundation. So `x` stays under `y` until `y` goes to its foundation.
//!
//! # The rule
//! Work out, from the position, facts of four kinds, each of which only ever becomes true, adding them until none
//! is added:
//! - *up*: a card may have gone to its foundation. The next card of a suit goes up when its suit's cards before it
//!   are up and it is free: a tableau card with every held card over it up; a reserve card with every card over it
//!   gone from the reserve (up, or put in the tableau); a card of the stock or the waste; or a card put in the
//!   tableau (below).
//! - *put in the tableau*: a card of the stock or the waste, or a reserve card with every card over it gone, may
//!   have been put in the tableau, when a space may have appeared or a card it may be built on may have been at
//!   the top of a pile: a tableau card with every held card over it up (and, once every held card of its pile is
//!   up, the unheld cards under them), or a card put in the tableau.
//! - *a space*: a pile may have been empty: it is empty, or its bottom card, every held card over it up, may have
//!   gone up, or its bottom card may be built on a card that may have been at the top of a pile (the whole pile
//!   moving onto it).
//!
//! The position is lost if some card never goes up.
//!
//! Proof. Take a line from the position that wins, and follow it move by move: every card that goes up in it goes
//! up among the facts, every card it puts in the tableau from the stock, the waste or the reserve is put there
//! among the facts, every card at the top of a pile in it is a tableau card with its held cards up or a card put
//! there, and every space in it is a space among the facts. A card goes up from the top of a pile (so nothing is
//! over it, and by the section above every held card that was over it is up), from the top of the reserve (every
//! card over it has gone: up, or into the tableau), or from the waste; its suit's earlier cards are up before it.
//! A card goes into the tableau onto the top card of a pile, which takes it, or into a space. A tableau card comes
//! to the top of its pile only once the cards over it have gone, the held ones to their foundations, and cards
//! put on top are cards put in the tableau. A pile empties when its last card goes up (its bottom card, or a card
//! put in the tableau after the pile was empty before) or moves away with the whole pile, onto a card at the top
//! of another pile or into a space that was there already; Foster's single card leaving a pile of two leaves the
//! bottom card behind. So the line never does what the facts do not allow, and since it sends every card up, the
//! facts do too. The facts leave out what the line forbids (a card both up and put in the tableau, a card covered
//! by the cards put on it), so they may send up cards that no line can: the rule then says nothing.
//!
//! With the reserve left out, the rule is about held cards alone, and whether every card can go up is found by
//! sending the cards up one after another, any card whose predecessors are up: a cycle of cards each waiting for
//! the next (held over it, or before it in its suit) is what stops it. In whole-pile Canfield, where the rank order
//! wraps, a pile may run past the base rank and put a card over one of its suit that the foundation takes
//! earlier: the full search of Canfield deal 7 went through millions of such positions, piles built round the
//! ranks two or three times, and 98 % of those it entered in 20 s are lost by the held cards alone. The reserve
//! adds positions whose reserve top can go nowhere (every card it may be built on up, and no pile able to empty)
//! while the cards under it are needed: on Canfield deals 290 and 18, lost, it cut the nodes from 117 and 115
//! million to 65 and 68 million.

use patience_core::rules::{Base, Build, Moves, RankOrder, MAX_RESERVE, MAX_TABLEAU};
use patience_core::{Card, Pile, Position, Rank, RuleSet};

/// The rule for one rule set.
#[derive(Debug, Clone, Copy)]
pub struct PlayOrder {
    /// The least index from the bottom of a pile at which a card is held: it never moves alone but to its
    /// foundation.
    held_from: usize,
}

impl PlayOrder {
    /// The rule, if these rules allow it: foundation cards never come back, only whole tableau piles move, or the
    /// top card alone from a pile of a given size, and a card may be built on one its foundation does not take
    /// next after it. Building in suit, each card one below the other in the foundations' own order (from the base
    /// rank, no wrap: Storehouse), only ever puts a card over the one its foundation takes next, so held cards
    /// never stop the foundations; there the rule is left out, since what is left of it, the reserve, is not worth
    /// its cost (Storehouse deal 121 took 8 % longer with the held cards alone, and every Storehouse deal of
    /// 1..200 is decided within 0.5 s without it).
    pub fn for_rules(rules: &RuleSet) -> Option<PlayOrder> {
        let in_foundation_order = rules.tableau.build == Build::SameSuit
            && (rules.tableau.order == RankOrder::FromBase
                || (rules.tableau.order == RankOrder::Natural
                    && rules.foundations.base == Base::Rank(Rank::ACE)));
        (!rules.foundations.cards_go_back
            && rules.tableau.moves == Moves::WholePile
            && !in_foundation_order)
            .then(|| PlayOrder {
                held_from: rules
                    .tableau
                    .top_card_from_piles_of
                    .map_or(1, |k| usize::from(k).max(1)),
            })
    }

    /// Whether `position` is lost by the rule in the module documentation.
    pub fn lost(&self, rules: &RuleSet, position: &Position) -> bool {
        if position.base_rank().is_none() || position.choice_pending() {
            return false;
        }
        Fixpoint::new(self.held_from, rules, position).lost()
    }
}

/// Where a card lies in the position the rule looks at.
#[derive(Debug, Clone, Copy)]
enum Place {
    /// A tableau pile and the index from its bottom.
    Tableau(u8, u8),
    /// A reserve pile and the index from its bottom.
    Reserve(u8, u8),
    /// The stock or the waste (or the foundations, which the rule never asks about).
    Elsewhere,
}

/// What may happen from a position, worked out as in the module documentation: every fact only ever becomes
/// true, so the facts are added until none is.
struct Fixpoint<'a> {
    rules: &'a RuleSet,
    position: &'a Position,
    held_from: usize,
    /// The cards of each tableau pile and each reserve pile, bottom to top.
    tableau: [&'a [u8]; MAX_TABLEAU],
    reserve: [&'a [u8]; MAX_RESERVE],
    place: [Place; 64],
    /// Of each tableau pile, the held cards below this index may still be there; those at it and above are up.
    held_left: [usize; MAX_TABLEAU],
    /// Of each reserve pile, the cards below this index may still be there.
    reserve_left: [usize; MAX_RESERVE],
    /// Cards that may have gone to their foundations, and each foundation's next card by its place in order.
    up: u64,
    next: [usize; 4],
    /// Cards of the stock and the waste, and cards that may have left the reserve: any of them may go to the
    /// tableau where it may be placed.
    loose: u64,
    /// Cards from the reserve, the stock or the waste that may have been put in the tableau.
    placed: u64,
    /// Cards that some card that may be at the top of a tableau pile takes.
    takes: u64,
    /// Whether a tableau pile may be empty.
    space: bool,
}

impl<'a> Fixpoint<'a> {
    fn new(held_from: usize, rules: &'a RuleSet, position: &'a Position) -> Fixpoint<'a> {
        let mut fixpoint = Fixpoint {
            rules,
            position,
            held_from,
            tableau: [&[]; MAX_TABLEAU],
            reserve: [&[]; MAX_RESERVE],
            place: [Place::Elsewhere; 64],
            held_left: [0; MAX_TABLEAU],
            reserve_left: [0; MAX_RESERVE],
            up: 0,
            next: [0, 1, 2, 3].map(|s| position.foundation_len(s)),
            loose: 0,
            placed: 0,
            takes: 0,
            space: false,
        };
        for p in 0..position.tableau_piles() {
            let cards = position.pile(Pile::Tableau(p as u8));
            fixpoint.tableau[p] = cards;
            for (i, &c) in cards.iter().enumerate() {
                fixpoint.place[usize::from(c)] = Place::Tableau(p as u8, i as u8);
            }
            fixpoint.held_left[p] = cards.len().max(held_from);
            fixpoint.space |= cards.is_empty();
            fixpoint.expose(p);
        }
        for r in 0..position.reserve_piles() {
            let cards = position.pile(Pile::Reserve(r as u8));
            fixpoint.reserve[r] = cards;
            for (i, &c) in cards.iter().enumerate() {
                fixpoint.place[usize::from(c)] = Place::Reserve(r as u8, i as u8);
            }
            fixpoint.reserve_left[r] = cards.len();
        }
        fixpoint
    }

    /// Whether some card can never go up.
    fn lost(mut self) -> bool {
        let ranks = usize::from(self.position.ranks());
        for pile in [Pile::Stock, Pile::Waste] {
            self.loose |= self.position.pile(pile).iter().fold(0, |m, &c| m | 1 << c);
        }
        loop {
            let mut changed = false;
            for suit in 0..4 {
                while self.next[suit] < ranks && self.goes_up(suit) {
                    self.next[suit] += 1;
                    changed = true;
                }
            }
            // Once no reserve card waits, what may be put in the tableau, and spaces, decide nothing more: cards of
            // the stock and the waste may go up whenever their turn comes.
            let reserve_piles = self.position.reserve_piles();
            if self.reserve_left[..reserve_piles].iter().any(|&n| n > 0) {
                for r in 0..reserve_piles {
                    while let Some(i) = self.reserve_left[r].checked_sub(1) {
                        let card = self.reserve[r][i];
                        if !self.may_be_placed(card) {
                            break;
                        }
                        self.loose |= 1 << card;
                        self.reserve_left[r] = i;
                        changed = true;
                    }
                }
                // A card gone up may have been put in the tableau first, and the other way round: neither rules the
                // other out here.
                let mut placeable =
                    self.loose & !self.placed & if self.space { !0 } else { self.takes };
                while placeable != 0 {
                    self.place_card(placeable.trailing_zeros() as u8);
                    placeable &= placeable - 1;
                    changed = true;
                }
                if !self.space {
                    // A pile empties when its bottom card goes up, every held card over it up already, or moves
                    // with the whole pile onto another.
                    self.space = (0..self.position.tableau_piles()).any(|p| {
                        self.tableau[p].first().is_none_or(|&bottom| {
                            (self.held_left[p] <= self.held_from && self.up >> bottom & 1 == 1)
                                || self.takes >> bottom & 1 == 1
                        })
                    });
                    changed |= self.space;
                }
            }
            if !changed {
                return self.next.iter().any(|&n| n < ranks);
            }
        }
    }

    /// Sends the next card of `suit` up if it may go: whether it went.
    fn goes_up(&mut self, suit: usize) -> bool {
        let Some(card) = self.position.foundation_card(suit, self.next[suit]) else {
            return false;
        };
        let c = usize::from(card.index());
        let placed = self.placed >> c & 1 == 1;
        match self.place[c] {
            _ if placed => {}
            Place::Tableau(p, i) => {
                let (p, i) = (usize::from(p), usize::from(i));
                // Every held card over it must be up: those at `max(i + 1, held_from)` and above.
                if self.held_left[p] > (i + 1).max(self.held_from) {
                    return false;
                }
                if i >= self.held_from {
                    self.held_left[p] = i;
                    self.expose(p);
                }
            }
            Place::Reserve(r, i) => {
                let (r, i) = (usize::from(r), usize::from(i));
                if self.reserve_left[r] != i + 1 {
                    return false;
                }
                self.reserve_left[r] = i;
                self.loose |= 1 << c;
            }
            Place::Elsewhere => {}
        }
        self.up |= 1 << c;
        true
    }

    /// Whether `card` may be put in the tableau: into a space, or on a card that may be at the top of a pile.
    fn may_be_placed(&self, card: u8) -> bool {
        self.space || self.takes >> card & 1 == 1
    }

    /// Puts `card` in the tableau, where cards may be built on it.
    fn place_card(&mut self, card: u8) {
        self.placed |= 1 << card;
        self.takes |= self.built_on(card);
    }

    /// Counts in what the cards of tableau pile `p` that may be at its top take: the top held card still there,
    /// and, once every held card is up, the cards under them.
    fn expose(&mut self, p: usize) {
        let cards = self.tableau[p];
        let left = self.held_left[p].min(cards.len());
        let lowest = if self.held_left[p] <= self.held_from {
            0
        } else {
            left.saturating_sub(1)
        };
        for &card in &cards[lowest..left] {
            self.takes |= self.built_on(card);
        }
    }

    /// The cards that may be built on `card`.
    fn built_on(&self, card: u8) -> u64 {
        Card::from_index(card).map_or(0, |card| self.position.cards_built_on(self.rules, card))
    }
}
