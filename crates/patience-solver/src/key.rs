//! Canonical keys: positions that differ only in the order of interchangeable tableau piles share one key.

use std::sync::OnceLock;

use patience_core::{Move, Pile, Position, RuleSet};
use xxhash_rust::xxh3::xxh3_128_with_seed;

use crate::relax::Relaxation;
use crate::table::MOST_DRAW;

/// In a key's header (the seed of its stock's hash): no base rank, or unlimited redeals. No count has this value.
const NONE: u8 = 0xFF;

/// The header's last byte: it keys nothing, but keys made without it would differ from those of earlier versions,
/// and with them the order the beams take positions of equal score in, and so a run's results at a node limit.
const NONE_AT: u64 = (NONE as u64) << 48;

/// The seeds of the other parts of a key, by role in the top byte, the pile's index in the others.
const WASTE: u64 = 1 << 56;
const RESERVE: u64 = 2 << 56;
const CHOICE: u64 = 3 << 56;
const CUT: u64 = 5 << 56;
const TABLEAU: u64 = 4 << 56;

/// How a rule set lets keys be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyShape {
    /// Whether the tableau piles are interchangeable, keyed in any order: true when no pile differs from another
    /// by rule (no pile of its own capacity). Forced refills take the first space by index, but any space gives
    /// the same set of piles, so this stays sound for them.
    interchangeable: bool,
    /// How many cards a draw turns, when the stock and waste may be keyed by their cycle (see [`KeyShape::key`]).
    stock_cycle: Option<u8>,
    /// The relaxed game whose states are keyed, if any: its tableau cards are keyed by class.
    relaxation: Option<Relaxation>,
    /// Whether a position off its stock's cycle is keyed as its state, with the cut left out of its key and given
    /// apart (see [`Cut`]).
    cuts_apart: bool,
    /// Whether the rules fill some spaces by force, so that a move that makes a space may move a card more.
    forced_fills: bool,
}

/// Where a position stands on its stock's cycle, where keys leave it out (see [`KeyShape::with_cuts_apart`]):
/// `None` on the cycle, or where the key holds the whole stock and waste.
pub(crate) type Cut = Option<OffCycle>;

/// A position off its stock's cycle: its waste's length, and that length's remainder divided by the draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OffCycle {
    pub(crate) remainder: u8,
    pub(crate) waste: u8,
}

impl KeyShape {
    pub(crate) fn new(rules: &RuleSet) -> KeyShape {
        KeyShape {
            interchangeable: rules.tableau.capacity.is_empty(),
            stock_cycle: Some(rules.stock.draw),
            relaxation: None,
            cuts_apart: false,
            forced_fills: !rules.tableau.spaces.forced.is_empty(),
        }
    }

    /// Keys of the states of a relaxed game (see [`crate::relax`]): as [`KeyShape::new`], with each tableau card
    /// keyed by its class, but for the cards the game keeps apart, keyed by themselves.
    pub(crate) fn relaxed(rules: &RuleSet, relaxation: Relaxation) -> KeyShape {
        KeyShape {
            relaxation: Some(relaxation),
            ..KeyShape::new(rules)
        }
    }

    /// Keys of exact positions, with no pile order taken as equivalent.
    pub(crate) fn exact() -> KeyShape {
        KeyShape {
            interchangeable: false,
            stock_cycle: None,
            relaxation: None,
            cuts_apart: false,
            forced_fills: true,
        }
    }

    /// These keys, but for a position off its stock's cycle, which is keyed as its state, the positions that
    /// differ from it only in where the stock is cut (its waste's length), and whose cut is given by
    /// [`KeyShape::cut`]: for a table of states (see [`crate::table::StateSlot`]). Only where a draw turns more
    /// than one card (with one, every position is on the cycle) and no more than such a table keeps.
    ///
    /// A position `P` off the cycle turns its stock, a draw at a time, to every cut further on with the same
    /// remainder, then onto the cycle; so `P` covers each position `Q` of its state at such a cut, or on the
    /// cycle: every step from `Q` is a step from `P` (a stock step plays a card that `P` turns to as well, and
    /// the position after it depends only on that card; another step keeps the cut), leading to a position that
    /// covers `Q`'s, and a line that wins from `Q` wins from `P` in as many steps. A search that skips `Q` once it
    /// has met `P` still wins wherever it did: take the position it met and did not prove lost that is fewest
    /// steps from a win; a step towards it from there leads to a position met, or covered by one met, fewer steps
    /// from a win. `Q` is never met in `P`'s own search: a stock step takes a card from the stock or the waste for
    /// good, so no position after one has `P`'s state, and no other step moves the cut. A search that marks the
    /// positions it proves lost (see [`crate::lost`]) counts a step to `Q` as a step to `P`: `Q` is lost if `P` is.
    pub(crate) fn with_cuts_apart(self) -> KeyShape {
        KeyShape {
            cuts_apart: self
                .stock_cycle
                .is_some_and(|draw| (2..=MOST_DRAW).contains(&usize::from(draw))),
            ..self
        }
    }

    /// These keys with every position keyed by itself, its cut in its key.
    pub(crate) fn of_positions(self) -> KeyShape {
        KeyShape {
            cuts_apart: false,
            ..self
        }
    }

    /// Whether positions off the stock's cycle are keyed as their states (see [`KeyShape::with_cuts_apart`]).
    pub(crate) fn cuts_apart(&self) -> bool {
        self.cuts_apart
    }

    /// Where `position` stands on its stock's cycle, where its key leaves that out; `None` elsewhere.
    pub(crate) fn cut(&self, position: &Position) -> Cut {
        self.off_cycle(position).filter(|_| self.cuts_apart)
    }

    /// The key that [`KeyShape::of_positions`] gives the position of this key and cut.
    pub(crate) fn position_key(&self, key: u128, cut: Cut) -> u128 {
        key.wrapping_add(cut.map_or(0, |off| xxh3_128_with_seed(&[off.waste], CUT)))
    }

    /// Where `position` stands on its stock's cycle, if its stock and waste are keyed by the cycle and it stands
    /// off it.
    fn off_cycle(&self, position: &Position) -> Cut {
        let draw = self.stock_cycle?;
        let waste = position.len(Pile::Waste);
        let on_cycle = position.redeals_left().is_some()
            || position.len(Pile::Stock) == 0
            || waste % usize::from(draw) == 0;
        (!on_cycle).then_some(OffCycle {
            remainder: (waste % usize::from(draw)) as u8,
            waste: waste as u8,
        })
    }

    /// The key of a position: the sum, mod 2^128, of 128-bit hashes of its parts, each seeded by its role: the
    /// stock (seeded by the foundations' heights, the base rank and the redeals left), the waste, each reserve
    /// pile and each choice pile with its index, and each tableau pile, with its index unless the piles are
    /// interchangeable.
    ///
    /// With unlimited redeals the stock and the waste are keyed by the order the cards come up in (the waste from
    /// the bottom, then the stock from the top) and by where the position stands in it, and every position on
    /// the stock's cycle shares one key. On the cycle are the positions reached by turning from a full stock:
    /// a waste of a whole number of draws, or an empty stock. Each such position turns to every other one, so
    /// they all have the same stock steps and the same other moves, and lead to the same positions up to this
    /// same key. A position off the cycle (just after a play from the waste) turns onto it but cannot be reached
    /// back, so it keeps its own key, but where cuts are kept apart (see [`KeyShape::with_cuts_apart`]).
    pub(crate) fn key(&self, position: &Position) -> u128 {
        // Each part is hashed on its own, with a seed that names its role, and the hashes are added: the parts
        // are hashed where they lie, with no copy into one buffer (whose small copies were a third of the key's
        // time on Canfield).
        let header = u64::from_le_bytes([
            position.foundation_len(0) as u8,
            position.foundation_len(1) as u8,
            position.foundation_len(2) as u8,
            position.foundation_len(3) as u8,
            position.base_rank().map_or(NONE, |r| r.index()),
            position.redeals_left().unwrap_or(NONE),
            0,
            0,
        ]);
        let mut key = match self.stock_cycle {
            Some(_) if position.redeals_left().is_none() => {
                let (order, cards) = position.stock_order();
                let state = xxh3_128_with_seed(&order[..cards], header | NONE_AT);
                if self.cuts_apart {
                    state
                } else {
                    self.position_key(state, self.off_cycle(position))
                }
            }
            _ => xxh3_128_with_seed(position.pile(Pile::Stock), header | NONE_AT)
                .wrapping_add(xxh3_128_with_seed(position.pile(Pile::Waste), WASTE)),
        };
        let reserve =
            (0..position.reserve_piles() as u8).map(|i| (Pile::Reserve(i), RESERVE | u64::from(i)));
        let choice =
            (0..position.choice_piles() as u8).map(|i| (Pile::Choice(i), CHOICE | u64::from(i)));
        for (pile, seed) in reserve.chain(choice) {
            key = key.wrapping_add(xxh3_128_with_seed(position.pile(pile), seed));
        }
        // The tableau piles' hashes need no sorting: a sum does not depend on the order of its terms, and it
        // tells apart two alike piles from two others (as a bitwise sum would not), which piles of classes may be.
        // Piles of their own are hashed with their index.
        let relaxed = self
            .relaxation
            .as_ref()
            .map(|relaxation| (relaxation, relaxation.kept_apart(position)));
        for t in 0..position.tableau_piles() as u8 {
            key = key.wrapping_add(self.tableau_term(relaxed, position.pile(Pile::Tableau(t)), t));
        }
        key
    }

    /// The term of tableau pile `t`, holding `pile`, in a key: of its cards, or in a relaxed game of their classes
    /// but for the cards it keeps apart.
    fn tableau_term(&self, relaxed: Option<(&Relaxation, u64)>, pile: &[u8], t: u8) -> u128 {
        let seed = self.tableau_seed(t);
        match relaxed {
            Some((relaxation, kept_apart)) => hash_of_classes(relaxation, kept_apart, pile, seed),
            None => xxh3_128_with_seed(pile, seed),
        }
    }

    /// The key of `position` after `mv`, from `key`, `position`'s own, where `mv` moves a run from one tableau
    /// pile to another and no space it makes is filled by force: such a move changes those two piles and nothing
    /// else (in a relaxed game, not the cards it keeps apart either, since no foundation moves), so the key changes
    /// by their two terms alone. `None` for any other move, whose child is keyed whole. Such moves are most of a
    /// search's children where runs move (three in four of the steps of Chameleon deal 19's laxer relaxed pass),
    /// most of them to positions met before, and they need neither the move made nor the stock, the waste and the
    /// reserve hashed again.
    pub(crate) fn key_after_run_moved(
        &self,
        position: &Position,
        key: u128,
        mv: Move,
    ) -> Option<u128> {
        let (from, to) = run_moved_alone(position, mv, self.forced_fills)?;
        let (source, target) = (position.pile(mv.from), position.pile(mv.to));
        let left = source.len().checked_sub(usize::from(mv.count))?;
        let relaxed = self
            .relaxation
            .as_ref()
            .map(|relaxation| (relaxation, relaxation.kept_apart(position)));
        let term = |pile: &[u8], t: u8| self.tableau_term(relaxed, pile, t);
        let changed = key
            .wrapping_sub(term(source, from))
            .wrapping_sub(term(target, to))
            .wrapping_add(term(&source[..left], from));
        let (run, len) = (&source[left..], target.len() + source.len() - left);
        // A pile keyed by its bottom card's class and its length needs no copy of its cards: the moved run's bottom
        // card starts the target if it was a space.
        if let Some((relaxation, 0)) =
            relaxed.filter(|(relaxation, _)| relaxation.piles_by_bottom())
        {
            let bottom = target.first().unwrap_or(&run[0]);
            return Some(changed.wrapping_add(term_by_bottom(
                relaxation,
                *bottom,
                len,
                self.tableau_seed(to),
            )));
        }
        // The target's cards and the run on them: no pile holds more than a pack's 52.
        let mut joined = [0u8; 52];
        joined[..target.len()].copy_from_slice(target);
        joined[target.len()..len].copy_from_slice(run);
        Some(changed.wrapping_add(term(&joined[..len], to)))
    }

    /// The seed of tableau pile `t`'s term in a key: with its index unless the piles are interchangeable.
    fn tableau_seed(&self, t: u8) -> u64 {
        TABLEAU
            | if self.interchangeable {
                0
            } else {
                u64::from(t) + 1
            }
    }
}

/// The tableau piles `mv`, made from `position`, moves a run from and to, where it changes nothing else: no space
/// it makes is filled by force (`forced_fills` says whether spaces are). `None` for any other move.
pub(crate) fn run_moved_alone(
    position: &Position,
    mv: Move,
    forced_fills: bool,
) -> Option<(u8, u8)> {
    let (Pile::Tableau(from), Pile::Tableau(to)) = (mv.from, mv.to) else {
        return None;
    };
    let emptied = position.len(mv.from) == usize::from(mv.count);
    (!(forced_fills && emptied)).then_some((from, to))
}

/// The term of a non-empty tableau pile keyed by its bottom card's class and its length (see
/// [`Relaxation::piles_by_bottom`]), seeded by `seed`. Where the piles are interchangeable (one seed for all), the
/// terms are worked out once for every class and length and read from a table, the same values: hashing each
/// pile was 9 % of the time of Four Seasons deal 178's relaxed passes.
fn term_by_bottom(relaxation: &Relaxation, bottom: u8, len: usize, seed: u64) -> u128 {
    // Every layout of the tableau is one state where it may be laid out afresh (see `crate::layouts`).
    let len = if relaxation.lays_out_afresh() { 1 } else { len };
    let class = relaxation.class(bottom);
    if seed == TABLEAU && usize::from(class) < TERMS && len < TERMS {
        static BY_BOTTOM: OnceLock<Box<[[u128; TERMS]; TERMS]>> = OnceLock::new();
        let terms = BY_BOTTOM.get_or_init(|| {
            let mut terms = Box::new([[0; TERMS]; TERMS]);
            for (class, by_len) in terms.iter_mut().enumerate() {
                for (len, term) in by_len.iter_mut().enumerate() {
                    *term = xxh3_128_with_seed(&[class as u8, len as u8], TABLEAU);
                }
            }
            terms
        });
        return terms[usize::from(class)][len];
    }
    xxh3_128_with_seed(&[class, len as u8], seed)
}

/// The classes and the lengths [`term_by_bottom`] reads from its table: every class, and a pile of every card.
const TERMS: usize = 64;

/// The hash of a tableau pile keyed by class (see [`Relaxation::key_byte`]), seeded by `seed`: of its bottom card's
/// class and its length alone where they tell the others and no card is kept apart (see
/// [`Relaxation::piles_by_bottom`]; 4 % fewer instructions on any-run Canfield deal 7 and 6 % on Chameleon deal 6,
/// the same states).
fn hash_of_classes(relaxation: &Relaxation, kept_apart: u64, pile: &[u8], seed: u64) -> u128 {
    if kept_apart == 0 && relaxation.piles_by_bottom() {
        if let Some(&bottom) = pile.first() {
            return term_by_bottom(relaxation, bottom, pile.len(), seed);
        }
    }
    let class = |card: &u8| relaxation.key_byte(*card, kept_apart);
    if pile.len() <= 16 {
        // Gathered in a register and stored at once: stored byte by byte, the hash's wider reads of them waited
        // for the stores (a tenth of the key's time).
        let packed = pile
            .iter()
            .rev()
            .fold(0u128, |packed, card| packed << 8 | u128::from(class(card)));
        return xxh3_128_with_seed(&packed.to_le_bytes(), seed | (pile.len() as u64) << 32);
    }
    let mut classes = [0u8; 52];
    for (slot, card) in classes.iter_mut().zip(pile) {
        *slot = class(card);
    }
    xxh3_128_with_seed(&classes[..pile.len()], seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relax::NextCard;
    use patience_core::json::PositionJson;
    use patience_core::{builtin, Card};

    /// A Chameleon position with these tableau piles and base rank A, the other cards in the stock.
    fn chameleon(tableau: [&[&str]; 3]) -> (RuleSet, Position) {
        let rules = builtin::rules("chameleon").expect("a built-in game");
        let card = |name: &&str| name.parse::<Card>().expect("a card");
        let tableau: Vec<Vec<Card>> = tableau
            .iter()
            .map(|pile| pile.iter().map(card).collect())
            .collect();
        let stock = Card::pack()
            .filter(|c| !tableau.iter().flatten().any(|t| t == c))
            .collect();
        let json = PositionJson {
            game: rules.id.clone(),
            foundations: vec![Vec::new(); 4],
            tableau,
            reserve: vec![Vec::new()],
            stock,
            waste: Vec::new(),
            base_rank: Some(patience_core::Rank::ACE),
            redeals_left: Some(0),
            choice: Vec::new(),
        };
        let position = Position::from_json(&rules, &json).expect("a position");
        (rules, position)
    }

    /// The terms read from the table are the hashes of the class and the length, as every other term is made.
    #[test]
    fn a_pile_by_its_bottom_has_the_same_term_from_the_table() {
        let (rules, position) = chameleon([&["9C", "8H"], &["KS"], &["5D", "4C", "3H"]]);
        let relaxation = Relaxation::for_root(&rules, &position).expect("Chameleon's relaxed game");
        for card in 0..52 {
            let class = relaxation.class(card);
            for len in 1..=52 {
                for seed in [TABLEAU, TABLEAU | 1] {
                    assert_eq!(
                        term_by_bottom(&relaxation, card, len, seed),
                        xxh3_128_with_seed(&[class, len as u8], seed),
                        "card {card}, {len} cards, seed {seed:#x}"
                    );
                }
            }
        }
    }

    #[test]
    fn interchangeable_piles_in_any_order_share_a_key_and_exact_keys_tell_them_apart() {
        let (rules, a) = chameleon([&["9C", "8H"], &["KS"], &["5D", "4C", "3H"]]);
        let (_, b) = chameleon([&["5D", "4C", "3H"], &["9C", "8H"], &["KS"]]);
        let shape = KeyShape::new(&rules);
        assert_eq!(shape.key(&a), shape.key(&b));
        assert_ne!(KeyShape::exact().key(&a), KeyShape::exact().key(&b));
        let (_, moved) = chameleon([&["9C"], &["KS"], &["5D", "4C", "3H"]]);
        assert_ne!(shape.key(&a), shape.key(&moved));
    }

    /// In either relaxed game (in the first a pile is keyed by its bottom card's class and its length, in the
    /// second by every class, a register's worth or more).
    #[test]
    fn piles_of_classes_are_keyed_by_class_short_or_long() {
        // Building regardless of suit, a class is a rank.
        let (rules, a) = chameleon([&["9C", "8H"], &["9H", "8C"], &["KS"]]);
        let (_, traded) = chameleon([&["9C", "8C"], &["9H", "8H"], &["KS"]]);
        let (_, other) = chameleon([&["9C", "8H"], &["9H"], &["KS"]]);
        // Piles of more than sixteen cards are keyed another way in the second game.
        let long = [
            "KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D", "AS", "KH",
            "QC", "JD", "TS", "9H",
        ];
        let mut long_traded = long;
        long_traded.swap(0, 13);
        let (_, long_a) = chameleon([&long, &["5C"], &["8D"]]);
        let (_, long_b) = chameleon([&long_traded, &["5C"], &["8D"]]);
        let (_, long_c) = chameleon([&long[..17], &["5C"], &["8D"]]);
        assert_ne!(
            KeyShape::new(&rules).key(&a),
            KeyShape::new(&rules).key(&traded)
        );
        let relaxation = Relaxation::for_root(&rules, &a).expect("classes of four cards");
        for next in [NextCard::AnyOfItsClass, NextCard::PlacedWhenNext] {
            let shape = KeyShape::relaxed(&rules, relaxation.with_next(next));
            assert_eq!(shape.key(&a), shape.key(&traded), "{next:?}");
            assert_ne!(shape.key(&a), shape.key(&other), "{next:?}");
            assert_eq!(shape.key(&long_a), shape.key(&long_b), "{next:?}");
            assert_ne!(shape.key(&long_a), shape.key(&long_c), "{next:?}");
        }
    }

    /// In every game whose relaxed games are searched, the cards built on a card are one class, so that a pile's
    /// key reads its bottom card's class and its length alone in the first relaxed game.
    #[test]
    fn a_pile_of_classes_follows_from_its_bottom_card_in_every_game() {
        let mut relaxed = 0;
        for rules in builtin::games().iter().chain(builtin::extras()) {
            for deal in 1..=20 {
                let root = Position::deal(rules, deal).expect("a deal");
                if let Some(relaxation) = Relaxation::for_root(rules, &root) {
                    assert!(relaxation.piles_by_bottom(), "{} deal {deal}", rules.id);
                    relaxed += 1;
                }
            }
        }
        assert!(relaxed > 100, "{relaxed} deals with relaxed games");
    }
}
