//! The tableau laid out afresh, in the laxer relaxed game: every layout of its runs with the same bottom cards.
//!
//! # Why
//! In the laxer relaxed game (see [`crate::relax`]) where any run may move, most steps move a run between piles
//! (72.6 million of the 102 million of Chameleon deal 19's laxer pass), to states that differ from their parents
//! only in how the tableau's runs are laid out. Those states differ in little else: their piles' top cards are
//! the same, as this module shows, and so are the moves that change anything but the layout. So the laxer game
//! searched with the layouts apart spends most of its time going through layouts that lead to the same places.
//!
//! # The tops follow from the cards and the bottoms
//! Where the cards that may be built on a card are one class, and each class is built on by one class alone
//! (`on`, a one-to-one map), every pile is a run: its classes are its bottom card's, then `on` of it, and so on.
//! Count, for a class `c`, the cards of class `on(c)` in a pile: each lies on a card of class `c` of the pile,
//! but for the pile's bottom card, and each card of class `c` but the pile's top card holds one. So the count is
//! that of class `c`, less one if the top card is of class `c`, plus one if the bottom card is of class `on(c)`;
//! summed over the piles, the number of piles a card of class `c` tops is
//! `count(c) - count(on(c)) + bottoms(on(c))`. It follows from the tableau's cards and its bottom cards alone,
//! whatever their layout.
//!
//! # The game with layouts
//! Add to the laxer game one move: lay the tableau out afresh, with the same cards and the same bottom cards,
//! every pile a run. A line of the laxer game is a line of this game, so a loss of this game is a loss of the
//! laxer game, and of the real one. Every layout of a tableau reaches every other in one move, so they share a
//! verdict, and the search keys a state by its piles' bottom classes alone (the tableau's cards follow from the
//! rest of the key). Of the steps from a layout, those that move a run between piles and leave no space lead to
//! a layout of the same state, and need not be tried. The others lead to the same states from every layout:
//! - a card played onto a pile's top card, from anywhere but the tableau, or into a space: every layout has
//!   the same top cards and the same spaces;
//! - a run moved into a space: any card but a bottom card may head one, in every layout, and the state it
//!   leads to is named by that card's class;
//! - a card sent up from a pile's top: the same top cards.
//!
//! But the steps that leave a space differ: a whole pile moved onto another pile, or the last card of a pile
//! sent up, which only some layouts have. So a search that tries, from the layout it met, its steps that change
//! anything but the layout, and from every other layout the steps that leave a space or send a card up, tries
//! a step to every state the game reaches in one step. [`Layouts::wanted`] names those of the two kinds that the
//! layout met lacks and another may have, and [`Layouts::others`] finds a layout for each that one has.
//!
//! # Which layouts
//! A layout gives each pile one of the top cards, and a length that takes its bottom card's class down to its
//! top card's class, round the cycle of `on` as many times as the tableau's cards allow. Every pile keeps its
//! bottom card; the other cards are dealt to the places of their classes. A layout is kept only where it holds
//! the tableau's cards, class by class. For the steps above, the lengths matter only where a pile could be one
//! card long, or longer: so each layout puts every round of the cycle left over on one pile, for each pile in
//! turn.

use patience_core::rules::Moves;
use patience_core::{Pile, Position, RuleSet, Suit};

use crate::relax::{NextCard, Relaxation};

/// No class: the class built on a class nothing is built on, or no run between two classes.
const NONE: u8 = u8::MAX;

/// The most tableau piles whose layouts are gone through: their top cards are dealt to the piles in every order.
pub(crate) const MOST_PILES: usize = 4;

/// The classes of a search's laxer relaxed game, and the runs between them.
pub(crate) struct Layouts {
    /// The class of each card, by card index.
    class: [u8; 64],
    /// The class of the cards that may be built on a card of each class, or [`NONE`].
    on: [u8; 64],
    /// The length of the shortest run from a card of class `b` down to one of class `t`, at `b * 64 + t`, or
    /// [`NONE`].
    run_len: Box<[u8; 64 * 64]>,
    /// The length of the cycle of `on` through each class, or 0.
    cycle: [u8; 64],
}

impl Layouts {
    /// The layouts of the laxer relaxed game of `relaxation`, from `root`, where the rules give them: every pile
    /// a run keyed by its bottom card's class, any run moving, no pile of a capacity of its own, and at most
    /// [`MOST_PILES`] piles.
    pub(crate) fn for_root(
        rules: &RuleSet,
        root: &Position,
        relaxation: &Relaxation,
    ) -> Option<Layouts> {
        let tableau = &rules.tableau;
        let fits = relaxation.next() == NextCard::AnyOfItsClass
            && relaxation.piles_by_bottom()
            && tableau.moves == Moves::AnyRun
            && tableau.capacity.is_empty()
            && root.tableau_piles() <= MOST_PILES
            && !root.choice_pending();
        if !fits {
            return None;
        }
        let (class, on) = relaxation.classes_built_on(rules, root);
        // The count of tops above needs each class built on by one class at most.
        let mut built_on = 0u64;
        for &c in on.iter().filter(|&&c| c != NONE) {
            if built_on >> c & 1 == 1 {
                return None;
            }
            built_on |= 1 << c;
        }
        let mut run_len = Box::new([NONE; 64 * 64]);
        let mut cycle = [0; 64];
        for bottom in 0..64 {
            let mut at = bottom as u8;
            for len in 1..=64 {
                if at == NONE {
                    break;
                }
                let slot = &mut run_len[bottom * 64 + usize::from(at)];
                if *slot != NONE {
                    if usize::from(at) == bottom {
                        cycle[bottom] = len - 1;
                    }
                    break;
                }
                *slot = len;
                at = on[usize::from(at)];
            }
        }
        Some(Layouts {
            class,
            on,
            run_len,
            cycle,
        })
    }

    /// The steps that another layout of `position`'s tableau may have and `position` lacks, of those that differ
    /// from layout to layout: a pile going whole onto a top card of another, where a top card takes it but only
    /// its own pile's does; a card of a class next on its foundation that lies in the tableau, that tops a pile
    /// and is a pile's bottom card's, sent up alone in its pile or from a pile of more, where `position` has only
    /// the other.
    pub(crate) fn wanted(&self, position: &Position) -> Steps {
        let piles = self.piles(position);
        let mut next = 0u64;
        for suit in Suit::ALL {
            if let Some(card) = position.foundation_next(suit) {
                if piles.cards >> card.index() & 1 == 1 {
                    next |= 1 << self.class[usize::from(card.index())];
                }
            }
        }
        let (mut bottoms, mut tops, mut taken) = (0u64, 0u64, 0u64);
        for i in 0..piles.len {
            bottoms |= 1 << piles.bottom[i];
            tops |= 1 << piles.top[i];
            let on = self.on[usize::from(piles.top[i])];
            if on != NONE {
                taken |= 1 << on;
            }
        }
        let raised = next & tops & bottoms;
        let has = self.steps_of(&piles.bottom, &piles.top, &piles.length, piles.len);
        Steps {
            whole: taken & bottoms & !has.whole,
            alone: raised & !has.alone,
            on_more: raised & !has.on_more,
        }
    }

    /// Which of the steps that differ from layout to layout the layout of piles with these bottom and top classes
    /// and lengths has.
    fn steps_of(
        &self,
        bottom: &[u8; MOST_PILES],
        top: &[u8; MOST_PILES],
        length: &[u8; MOST_PILES],
        k: usize,
    ) -> Steps {
        let mut steps = Steps::default();
        for i in 0..k {
            if (0..k).any(|j| j != i && self.on[usize::from(top[j])] == bottom[i]) {
                steps.whole |= 1 << bottom[i];
            }
            if length[i] == 1 {
                steps.alone |= 1 << top[i];
            } else {
                steps.on_more |= 1 << top[i];
            }
        }
        steps
    }

    /// Pushes onto `out` other layouts of `position`'s tableau that have the steps `wanted`, one for each step
    /// where some layout has it.
    pub(crate) fn others(&self, position: &Position, wanted: Steps, out: &mut Vec<Position>) {
        let piles = self.piles(position);
        let k = piles.len;
        let total: usize = piles.length[..k].iter().map(|&len| usize::from(len)).sum();
        // The tableau's cards but the bottom ones, by class: `pool[starts[c]..starts[c + 1]]` for class `c`.
        let mut count = [0u8; 64];
        let mut starts = [0u8; 65];
        for &t in &piles.index[..k] {
            for &card in &position.pile(Pile::Tableau(t))[1..] {
                count[usize::from(self.class[usize::from(card)])] += 1;
            }
        }
        for c in 0..64 {
            starts[c + 1] = starts[c] + count[c];
        }
        let mut pool = [0u8; 52];
        let mut next = starts;
        for &t in &piles.index[..k] {
            for &card in &position.pile(Pile::Tableau(t))[1..] {
                let c = usize::from(self.class[usize::from(card)]);
                pool[usize::from(next[c])] = card;
                next[c] += 1;
            }
        }
        let mut left = wanted;
        let mut seen: Vec<[u8; MOST_PILES]> = Vec::new();
        for_each_order(k, |order| {
            let mut tops = [NONE; MOST_PILES];
            for i in 0..k {
                tops[i] = piles.top[order[i]];
            }
            if left.is_empty() || seen.contains(&tops) {
                return;
            }
            seen.push(tops);
            let mut length = [0u8; MOST_PILES];
            for i in 0..k {
                length[i] = self.run_len[usize::from(piles.bottom[i]) * 64 + usize::from(tops[i])];
                if length[i] == NONE {
                    return;
                }
            }
            let Some(rounds) = total.checked_sub(length[..k].iter().map(|&l| usize::from(l)).sum())
            else {
                return;
            };
            for wrapped in 0..k {
                let round = usize::from(self.cycle[usize::from(piles.bottom[wrapped])]);
                let fits = if round == 0 {
                    rounds == 0
                } else {
                    rounds % round == 0
                };
                if !fits || (rounds == 0 && wrapped > 0) {
                    continue;
                }
                let mut lengths = length;
                lengths[wrapped] += rounds as u8;
                let has = self.steps_of(&piles.bottom, &tops, &lengths, k).and(left);
                if has.is_empty() {
                    continue;
                }
                if let Some(laid_out) =
                    self.laid_out(position, &piles, &lengths, &count, &pool, &starts)
                {
                    out.push(laid_out);
                    left = left.without(has);
                }
            }
        });
    }

    /// `position` with its non-empty piles of these lengths, each keeping its bottom card and taking the others
    /// from `pool` by class, if they are the tableau's cards, class by class.
    fn laid_out(
        &self,
        position: &Position,
        piles: &Piles,
        lengths: &[u8; MOST_PILES],
        count: &[u8; 64],
        pool: &[u8; 52],
        starts: &[u8; 65],
    ) -> Option<Position> {
        let mut needed = [0u8; 64];
        for (&bottom, &length) in piles.bottom.iter().zip(lengths).take(piles.len) {
            let mut at = self.on[usize::from(bottom)];
            for _ in 1..length {
                let slot = needed.get_mut(usize::from(at))?;
                *slot += 1;
                at = self.on[usize::from(at)];
            }
        }
        if needed != *count {
            return None;
        }
        let mut next = *starts;
        let mut cards = Vec::with_capacity(52);
        let mut pile_lengths = vec![0u8; position.tableau_piles()];
        for ((&t, &bottom), &length) in piles
            .index
            .iter()
            .zip(&piles.bottom)
            .zip(lengths)
            .take(piles.len)
        {
            pile_lengths[usize::from(t)] = length;
            cards.push(position.pile(Pile::Tableau(t))[0]);
            let mut at = self.on[usize::from(bottom)];
            for _ in 1..length {
                cards.push(pool[usize::from(next[usize::from(at)])]);
                next[usize::from(at)] += 1;
                at = self.on[usize::from(at)];
            }
        }
        let mut laid_out = *position;
        laid_out.lay_out_tableau(&cards, &pile_lengths);
        Some(laid_out)
    }

    /// The non-empty piles of `position`'s tableau, in order: their indices, bottom and top classes and lengths.
    fn piles(&self, position: &Position) -> Piles {
        let mut piles = Piles {
            cards: 0,
            len: 0,
            index: [0; MOST_PILES],
            bottom: [NONE; MOST_PILES],
            top: [NONE; MOST_PILES],
            length: [0; MOST_PILES],
        };
        for t in 0..position.tableau_piles().min(MOST_PILES) {
            let pile = position.pile(Pile::Tableau(t as u8));
            piles.cards |= pile.iter().fold(0, |set, &card| set | 1 << card);
            if let (Some(&bottom), Some(&top)) = (pile.first(), pile.last()) {
                let i = piles.len;
                piles.index[i] = t as u8;
                piles.bottom[i] = self.class[usize::from(bottom)];
                piles.top[i] = self.class[usize::from(top)];
                piles.length[i] = pile.len() as u8;
                piles.len += 1;
            }
        }
        piles
    }
}

/// Steps that some layouts of a tableau have and others lack, as sets of classes (by their names, card indices):
/// a pile whose bottom card is of the class going whole onto another pile, and a card of the class sent up alone
/// in its pile, or from a pile of more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Steps {
    whole: u64,
    alone: u64,
    on_more: u64,
}

impl Steps {
    /// Whether there is none.
    pub(crate) fn is_empty(self) -> bool {
        self == Steps::default()
    }

    fn and(self, other: Steps) -> Steps {
        Steps {
            whole: self.whole & other.whole,
            alone: self.alone & other.alone,
            on_more: self.on_more & other.on_more,
        }
    }

    fn without(self, other: Steps) -> Steps {
        Steps {
            whole: self.whole & !other.whole,
            alone: self.alone & !other.alone,
            on_more: self.on_more & !other.on_more,
        }
    }
}

/// The non-empty tableau piles of a position.
struct Piles {
    /// The tableau's cards, as a set of card indices.
    cards: u64,
    len: usize,
    index: [u8; MOST_PILES],
    bottom: [u8; MOST_PILES],
    top: [u8; MOST_PILES],
    length: [u8; MOST_PILES],
}

/// Calls `each` with every order of `0..k`, as a list of `k` indices.
fn for_each_order(k: usize, mut each: impl FnMut(&[usize; MOST_PILES])) {
    fn go(
        order: &mut [usize; MOST_PILES],
        at: usize,
        k: usize,
        each: &mut impl FnMut(&[usize; MOST_PILES]),
    ) {
        if at == k {
            each(order);
            return;
        }
        for i in at..k {
            order.swap(at, i);
            go(order, at + 1, k, each);
            order.swap(at, i);
        }
    }
    let mut order = [0, 1, 2, 3];
    go(&mut order, 0, k, &mut each);
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use patience_core::{builtin, Move};

    use super::*;
    use crate::test_random::Lcg;

    /// Positions of Chameleon a random walk reaches from deals 1..=`deals`, some moves apart: one that plays onto
    /// the tableau where it can, so that its piles grow long and wrap round the ranks, as in the long proofs.
    fn walked(rules: &RuleSet, deals: u64) -> Vec<Position> {
        let mut positions = Vec::new();
        for deal in 1..=deals {
            let mut position = Position::deal(rules, deal).expect("a deal");
            let mut random = Lcg::new(deal);
            for step in 0..200 {
                let legal = position.legal_moves(rules);
                if legal.is_empty() || position.is_won() {
                    break;
                }
                let state = random.next();
                let onto_the_tableau: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|mv| {
                        matches!(mv.to, Pile::Tableau(_)) && !matches!(mv.from, Pile::Tableau(_))
                    })
                    .collect();
                let from = if onto_the_tableau.is_empty() || state >> 40 & 3 == 0 {
                    &legal
                } else {
                    &onto_the_tableau
                };
                position.apply(rules, from[(state >> 33) as usize % from.len()]);
                if step % 10 == 9 {
                    positions.push(position);
                }
            }
        }
        positions
    }

    fn layouts_of(rules: &RuleSet, position: &Position) -> Layouts {
        let relaxation = Relaxation::for_root(rules, position).expect("Chameleon's relaxed game");
        Layouts::for_root(rules, position, &relaxation).expect("Chameleon's layouts")
    }

    /// The tableau's cards as a set, and its piles' bottom cards and top classes.
    fn tableau(layouts: &Layouts, position: &Position) -> (u64, Vec<Option<u8>>, Vec<u8>) {
        let piles: Vec<&[u8]> = (0..position.tableau_piles() as u8)
            .map(|t| position.pile(Pile::Tableau(t)))
            .collect();
        let cards = piles
            .iter()
            .flat_map(|pile| pile.iter())
            .fold(0, |set, &card| set | 1 << card);
        let bottoms = piles.iter().map(|pile| pile.first().copied()).collect();
        let mut tops: Vec<u8> = piles
            .iter()
            .filter_map(|pile| pile.last())
            .map(|&card| layouts.class[usize::from(card)])
            .collect();
        tops.sort_unstable();
        (cards, bottoms, tops)
    }

    /// What steps that differ from layout to layout `position` has.
    fn steps_of_position(layouts: &Layouts, position: &Position) -> Steps {
        let piles = layouts.piles(position);
        layouts.steps_of(&piles.bottom, &piles.top, &piles.length, piles.len)
    }

    #[test]
    fn every_other_layout_holds_the_same_cards_in_runs_on_the_same_bottom_cards() {
        let rules = builtin::rules("chameleon").expect("a built-in game");
        let mut laid_out = 0;
        for position in walked(&rules, 300) {
            let layouts = layouts_of(&rules, &position);
            let wanted = layouts.wanted(&position);
            if wanted.is_empty() {
                continue;
            }
            let mut others = Vec::new();
            layouts.others(&position, wanted, &mut others);
            let (cards, bottoms, tops) = tableau(&layouts, &position);
            for other in &others {
                assert_ne!(other, &position, "another layout");
                assert_eq!(
                    tableau(&layouts, other),
                    (cards, bottoms.clone(), tops.clone())
                );
                for t in 0..other.tableau_piles() as u8 {
                    let pile = other.pile(Pile::Tableau(t));
                    for pair in pile.windows(2) {
                        let class = |card: u8| layouts.class[usize::from(card)];
                        assert_eq!(
                            layouts.on[usize::from(class(pair[0]))],
                            class(pair[1]),
                            "a run"
                        );
                    }
                }
                // The rest of the position is as it was.
                for pile in [Pile::Stock, Pile::Waste, Pile::Reserve(0)] {
                    assert_eq!(other.pile(pile), position.pile(pile));
                }
                assert_eq!(other.foundation_cards(), position.foundation_cards());
            }
            laid_out += others.len();
        }
        assert!(laid_out > 50, "{laid_out} layouts");
    }

    /// The layouts found have every step that differs from layout to layout that the layouts reached by moving
    /// runs between piles (leaving no space) have, but those `position` has or none may take: a pile going whole
    /// onto another, a card next on its foundation sent up alone in its pile or from a pile of more.
    #[test]
    fn the_layouts_found_have_the_steps_of_every_layout_the_moves_between_piles_reach() {
        let rules = builtin::rules("chameleon").expect("a built-in game");
        let mut reached_beyond = 0;
        for position in walked(&rules, 60) {
            let layouts = layouts_of(&rules, &position);
            let mut seen = HashSet::from([position]);
            let mut queue = vec![position];
            while let Some(at) = queue.pop() {
                for t in 0..at.tableau_piles() as u8 {
                    let mut moves: Vec<Move> = Vec::new();
                    at.for_each_legal_move_from(&rules, Pile::Tableau(t), |mv| moves.push(mv));
                    for mv in moves {
                        let within = matches!(mv.to, Pile::Tableau(_))
                            && at.len(mv.from) > usize::from(mv.count)
                            && at.len(mv.to) > 0;
                        let mut next = at;
                        next.apply(&rules, mv);
                        if within && seen.len() < 2_000 && seen.insert(next) {
                            queue.push(next);
                        }
                    }
                }
            }
            let mut next_up = 0u64;
            let (cards, _, _) = tableau(&layouts, &position);
            for suit in Suit::ALL {
                if let Some(card) = position.foundation_next(suit) {
                    if cards >> card.index() & 1 == 1 {
                        next_up |= 1 << layouts.class[usize::from(card.index())];
                    }
                }
            }
            let reached = seen.iter().fold(Steps::default(), |steps, at| {
                let has = steps_of_position(&layouts, at);
                Steps {
                    whole: steps.whole | has.whole,
                    alone: steps.alone | has.alone & next_up,
                    on_more: steps.on_more | has.on_more & next_up,
                }
            });
            let wanted = layouts.wanted(&position);
            let mut others = Vec::new();
            if !wanted.is_empty() {
                layouts.others(&position, wanted, &mut others);
            }
            let found = others
                .iter()
                .chain([&position])
                .fold(Steps::default(), |steps, at| {
                    let has = steps_of_position(&layouts, at);
                    Steps {
                        whole: steps.whole | has.whole,
                        alone: steps.alone | has.alone,
                        on_more: steps.on_more | has.on_more,
                    }
                });
            assert!(
                reached.without(found).is_empty(),
                "{:?}: reached {reached:?}, found {found:?}",
                position.to_json(&rules)
            );
            reached_beyond += usize::from(
                !reached
                    .without(steps_of_position(&layouts, &position))
                    .is_empty(),
            );
        }
        assert!(reached_beyond > 0, "some step needs another layout");
    }

    #[test]
    fn a_layout_of_other_counts_leaves_the_position_as_it_was() {
        let rules = builtin::rules("chameleon").expect("a built-in game");
        let position = Position::deal(&rules, 1).expect("a deal");
        let mut laid_out = position;
        laid_out.lay_out_tableau(&[0, 1], &[1, 1, 0]);
        assert_eq!(laid_out, position);
        let cards: Vec<u8> = (0..3u8)
            .flat_map(|t| position.pile(Pile::Tableau(t)).to_vec())
            .collect();
        laid_out.lay_out_tableau(&cards, &[3, 0, 0]);
        assert_eq!(laid_out.pile(Pile::Tableau(0)), &cards[..]);
        assert_eq!(laid_out.len(Pile::Tableau(1)), 0);
        assert_eq!(
            laid_out.pile(Pile::Reserve(0)),
            position.pile(Pile::Reserve(0))
        );
    }
}
