//! Reversible-move components of the tableau, and the moves that leave them.
//!
//! A tableau-to-tableau move is *reversible* when it changes nothing outside the tableau and the engine allows
//! the move straight back, which restores the position exactly. Tableaux joined by reversible moves form a
//! component: each reaches every other one, so positions that differ only by which tableau of one component
//! they hold are won or lost together, and the search keys them as one (by the component's representative
//! tableau). Expanding a component means making every move that leaves it, from every tableau in it: moves to
//! the foundations, plays onto the tableau from the waste, the reserve or the foundations, and tableau moves
//! that cannot be undone.
//!
//! Which tableau moves are legal, and what they leave, depends on the tableau and on a few facts about the
//! rest of the position, its *context* ([`context`]): whether the reserve is empty (which may open spaces to
//! more sources), whether each source that fills spaces by force is empty, whether a choice is pending, and the
//! base rank. So a component is worked out once for a tableau in a context and shared by every position that
//! holds one of its tableaux in that context. The moves leaving it are worked out once too, per card played:
//! the tableaux that take a card, and the tableaux a card leaves from, are properties of the component alone;
//! of each group of such moves that lead into one component, one is kept.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use patience_core::rules::Source;
use patience_core::{Card, Move, Pile, Position, RuleSet};
use xxhash_rust::xxh3::xxh3_128;

use crate::prune::Pruning;
use crate::table::Full;

/// Maps keyed by hashes or small values: a fast, fixed hasher, since no key comes from outside.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// A move from one tableau of a component: which tableau, and the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Exit {
    /// The index of the tableau in [`Component::tableau`].
    pub(crate) member: u32,
    /// The move, legal from a position holding that tableau.
    pub(crate) mv: Move,
}

/// One component: its tableaux and the moves that leave it.
#[derive(Debug)]
pub(crate) struct Component {
    /// Positions holding the component's tableaux; only their tableaux are meant (see
    /// [`Position::with_tableau_of`]).
    members: Vec<Position>,
    /// The member whose tableau stands for the component in keys.
    representative: u32,
    /// Tableau-to-tableau moves that cannot be undone (or change something outside the tableau).
    pub(crate) leaving: Vec<Exit>,
    /// Every card on top of a tableau pile in some member, as a bit set by card index.
    pub(crate) tops: u64,
    /// Exits worked out so far, by what they play (see [`ExitKind`]).
    exits: RefCell<FastMap<ExitKind, Rc<[Exit]>>>,
}

/// What a cached list of exits plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum ExitKind {
    /// A tableau card to its foundation.
    ToFoundation(u8),
    /// A card from a pile outside the tableau onto it, leaving a position of this context (the source may
    /// empty, which can change the context).
    Onto { card: u8, from: Pile, context: u8 },
}

impl Component {
    /// Whether the component is one tableau alone: every tableau move from it leaves it.
    pub(crate) fn is_single(&self) -> bool {
        self.members.len() == 1
    }

    /// The tableau of member `member`, under `position`'s other piles.
    pub(crate) fn member_under(&self, position: &Position, member: u32) -> Position {
        position.with_tableau_of(&self.members[member as usize])
    }

    /// `position` with the component's representative tableau: what its key is made from.
    pub(crate) fn representative_under(&self, position: &Position) -> Position {
        self.member_under(position, self.representative)
    }

    /// A safe move to the foundations (see [`Pruning::safe_move`]) from some member, under `position`'s other
    /// piles: the component's verdict is then that move's.
    pub(crate) fn safe_exit(
        &self,
        pruning: &Pruning,
        rules: &RuleSet,
        position: &Position,
    ) -> Option<Exit> {
        let mut tops = self.tops;
        while tops != 0 {
            let index = tops.trailing_zeros() as u8;
            tops &= tops - 1;
            let card = Card::from_index(index)?;
            if !pruning.safe_card(rules, position, card) {
                continue;
            }
            for (member, tableau) in self.members.iter().enumerate() {
                for t in 0..tableau.tableau_piles() as u8 {
                    let pile = Pile::Tableau(t);
                    if tableau.top(pile) == Some(card)
                        && tableau.len(pile) >= pruning.least_tableau_pile()
                    {
                        return Some(Exit {
                            member: member as u32,
                            mv: Move::new(pile, Pile::Foundation(card.suit() as u8), 1),
                        });
                    }
                }
            }
        }
        None
    }

    /// The moves of `card` from a tableau pile to its foundation, from `position` (which holds a tableau of
    /// this component), one for each component they lead into.
    pub(crate) fn to_foundation(
        &self,
        components: &mut Components,
        rules: &RuleSet,
        position: &Position,
        card: Card,
    ) -> Result<Rc<[Exit]>, Full> {
        let kind = ExitKind::ToFoundation(card.index());
        if let Some(exits) = self.exits.borrow().get(&kind) {
            return Ok(exits.clone());
        }
        let mut found = Vec::new();
        for (member, tableau) in self.members.iter().enumerate() {
            for t in 0..tableau.tableau_piles() as u8 {
                if tableau.top(Pile::Tableau(t)) == Some(card) {
                    let mv = Move::new(Pile::Tableau(t), Pile::Foundation(card.suit() as u8), 1);
                    found.push(Exit {
                        member: member as u32,
                        mv,
                    });
                }
            }
        }
        let exits = self.distinct(components, rules, position, found)?;
        self.exits.borrow_mut().insert(kind, exits.clone());
        Ok(exits)
    }

    /// The plays of the top card of `from` (a pile outside the tableau) onto the tableau, from `position` (which
    /// holds a tableau of this component), one for each component they lead into.
    pub(crate) fn onto_tableau(
        &self,
        components: &mut Components,
        rules: &RuleSet,
        position: &Position,
        from: Pile,
    ) -> Result<Rc<[Exit]>, Full> {
        let Some(card) = position.top(from) else {
            return Ok(Rc::from([]));
        };
        let kind = ExitKind::Onto {
            card: card.index(),
            from,
            context: context(rules, position, Some(from)),
        };
        if let Some(exits) = self.exits.borrow().get(&kind) {
            return Ok(exits.clone());
        }
        let mut found = Vec::new();
        for member in 0..self.members.len() as u32 {
            let held = self.member_under(position, member);
            held.for_each_legal_move_from(rules, from, |mv| {
                if matches!(mv.to, Pile::Tableau(_)) {
                    found.push(Exit { member, mv });
                }
            });
        }
        let exits = self.distinct(components, rules, position, found)?;
        self.exits.borrow_mut().insert(kind, exits.clone());
        Ok(exits)
    }

    /// Of `exits` from `position`, one for each component the positions they lead to hold. Exits that fill a
    /// space by force are all kept: what fills it depends on more than the context.
    fn distinct(
        &self,
        components: &mut Components,
        rules: &RuleSet,
        position: &Position,
        exits: Vec<Exit>,
    ) -> Result<Rc<[Exit]>, Full> {
        let mut seen = FastMap::default();
        let mut kept = Vec::new();
        for exit in exits {
            let before = self.member_under(position, exit.member);
            let mut after = before;
            after.apply(rules, exit.mv);
            let gained = usize::from(matches!(exit.mv.to, Pile::Tableau(_)));
            let lost = usize::from(matches!(exit.mv.from, Pile::Tableau(_)));
            let filled = after.tableau_cards() + lost != before.tableau_cards() + gained;
            if filled {
                kept.push(exit);
                continue;
            }
            // A position whose component is too large to work out stands for itself.
            let Some(component) = components.of(rules, &after)? else {
                kept.push(exit);
                continue;
            };
            let id = Rc::as_ptr(&component) as usize;
            // Holding the component keeps its address from being reused while `seen` compares addresses.
            if seen.insert(id, component).is_none() {
                kept.push(exit);
            }
        }
        components.charge((kept.len() + 1) * EXIT_BYTES)?;
        Ok(Rc::from(kept))
    }

    /// The reversible moves that take `from` (holding a tableau of this component) to `member`'s tableau.
    pub(crate) fn path(&self, rules: &RuleSet, from: &Position, member: u32) -> Vec<Move> {
        let goal = tableau_hash(&self.members[member as usize], 0);
        let mut parents: HashMap<u128, (Position, Option<(u128, Move)>)> = HashMap::new();
        let start = tableau_hash(from, 0);
        parents.insert(start, (*from, None));
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(at) = queue.pop_front() {
            if at == goal {
                let mut line = Vec::new();
                let mut step = at;
                while let Some((_, Some((parent, mv)))) = parents.get(&step) {
                    line.push(*mv);
                    step = *parent;
                }
                line.reverse();
                return line;
            }
            let position = parents[&at].0;
            for_each_tableau_move(rules, &position, |mv, after, pure| {
                let hash = tableau_hash(&after, 0);
                if pure && !parents.contains_key(&hash) && undoes(rules, &position, &after, mv) {
                    parents.insert(hash, (after, Some((at, mv))));
                    queue.push_back(hash);
                }
            });
        }
        unreachable!("every member of a component is reached from every other by reversible moves")
    }
}

/// The components worked out so far, found by any of their tableaux in its context. It is a cache: when it
/// outgrows its budget it is emptied, and components are worked out again as they are met.
pub(crate) struct Components {
    /// Each tableau met, with its component, or `None` when the component has more than [`MOST_MEMBERS`]
    /// tableaux (the search then takes its positions one by one).
    by_tableau: FastMap<u128, Option<Rc<Component>>>,
    bytes: usize,
    budget: usize,
    peak_bytes: usize,
    sort_tableau: bool,
}

/// The most tableaux a component is worked out with. Past it, working it out (each time one of its tableaux is
/// met) would cost more than taking its positions one by one, and would hold up the checks of the time limit.
const MOST_MEMBERS: usize = 4096;

/// Bytes a component's tableau takes in the cache: the position holding it and its entry in the index.
const MEMBER_BYTES: usize = std::mem::size_of::<Position>() + 64;

/// Bytes an exit takes in the cache, with its share of the list and map entry holding it.
const EXIT_BYTES: usize = std::mem::size_of::<Exit>() + 8;

impl Components {
    /// An empty cache that may take `budget` bytes; representatives are chosen by the sorted tableau when
    /// `sort_tableau` (so that tableaux differing only in pile order get one).
    pub(crate) fn new(budget: usize, sort_tableau: bool) -> Components {
        Components {
            by_tableau: FastMap::default(),
            bytes: 0,
            budget,
            peak_bytes: 0,
            sort_tableau,
        }
    }

    /// The most bytes the cache took.
    pub(crate) fn peak_bytes(&self) -> usize {
        self.peak_bytes
    }

    /// The component of `position`'s tableau in its context, or `None` if it has more than [`MOST_MEMBERS`]
    /// tableaux; `Full` if it alone takes more than the budget.
    pub(crate) fn of(
        &mut self,
        rules: &RuleSet,
        position: &Position,
    ) -> Result<Option<Rc<Component>>, Full> {
        let context = context(rules, position, None);
        if let Some(component) = self.by_tableau.get(&tableau_hash(position, context)) {
            return Ok(component.clone());
        }
        let mut hashes = vec![tableau_hash(position, context)];
        let mut members = vec![*position];
        let mut leaving = Vec::new();
        let mut tops = 0u64;
        let mut index: HashSet<u128, foldhash::fast::FixedState> = HashSet::default();
        index.insert(hashes[0]);
        let mut next = 0;
        while next < members.len() {
            if members.len() > MOST_MEMBERS {
                // Every tableau of a component this large leads here again, so all are marked at once.
                self.charge(hashes.len() * MEMBER_BYTES)?;
                for hash in hashes {
                    self.by_tableau.insert(hash, None);
                }
                return Ok(None);
            }
            let member = members[next];
            for t in 0..member.tableau_piles() as u8 {
                if let Some(card) = member.top(Pile::Tableau(t)) {
                    tops |= 1 << card.index();
                }
            }
            for_each_tableau_move(rules, &member, |mv, after, pure| {
                let hash = tableau_hash(&after, context);
                // A move to a tableau of the component stays in it, reversible or not.
                if pure && index.contains(&hash) {
                    return;
                }
                if pure && undoes(rules, &member, &after, mv) {
                    index.insert(hash);
                    hashes.push(hash);
                    members.push(after);
                } else {
                    leaving.push(Exit {
                        member: next as u32,
                        mv,
                    });
                }
            });
            next += 1;
        }
        let sorted = |member: &Position| {
            if self.sort_tableau {
                sorted_tableau_hash(member)
            } else {
                tableau_hash(member, 0)
            }
        };
        let representative = (0..members.len())
            .min_by_key(|&m| sorted(&members[m]))
            .unwrap_or(0) as u32;
        let component = Rc::new(Component {
            members,
            representative,
            leaving,
            tops,
            exits: RefCell::new(FastMap::default()),
        });
        self.charge(hashes.len() * MEMBER_BYTES + component.leaving.len() * EXIT_BYTES)?;
        for hash in hashes {
            self.by_tableau.insert(hash, Some(component.clone()));
        }
        Ok(Some(component))
    }

    /// Counts `bytes` more in the cache, emptying it first if they would take it past its budget; `Full` if
    /// they would take even an empty cache past it.
    fn charge(&mut self, bytes: usize) -> Result<(), Full> {
        if bytes > self.budget {
            return Err(Full);
        }
        if self.bytes + bytes > self.budget {
            self.by_tableau.clear();
            self.bytes = 0;
        }
        self.bytes += bytes;
        self.peak_bytes = self.peak_bytes.max(self.bytes);
        Ok(())
    }
}

/// What besides the tableau decides which tableau-to-tableau moves are legal and what they leave, for
/// `position` once the top card of `taken` (if any) has left it: whether the reserve is empty, whether each
/// forced source is empty, whether a choice is pending, and the base rank.
pub(crate) fn context(rules: &RuleSet, position: &Position, taken: Option<Pile>) -> u8 {
    let left = |pile: Pile| position.len(pile) - usize::from(taken == Some(pile));
    let reserve_left: usize = (0..position.reserve_piles() as u8)
        .map(|i| left(Pile::Reserve(i)))
        .sum();
    let forced = &rules.tableau.spaces.forced;
    let forced_empty = |source: Source, pile: Pile| forced.contains(&source) && left(pile) == 0;
    let flags = u8::from(reserve_left == 0)
        | u8::from(forced_empty(Source::Waste, Pile::Waste)) << 1
        | u8::from(forced_empty(Source::Stock, Pile::Stock)) << 2
        | u8::from(position.choice_pending()) << 3;
    flags | position.base_rank().map_or(0xF0, |r| r.index() << 4)
}

/// Hands each tableau-to-tableau move of `position` to `visit`, with the position it leaves and whether it is
/// pure: it changes nothing outside the tableau.
fn for_each_tableau_move(
    rules: &RuleSet,
    position: &Position,
    mut visit: impl FnMut(Move, Position, bool),
) {
    let mut moves = [Move::new(Pile::Stock, Pile::Stock, 0); MOST_TABLEAU_MOVES];
    let mut len = 0;
    let targets = position.targets(rules);
    for t in 0..position.tableau_piles() as u8 {
        position.for_each_legal_move_from_with(rules, Pile::Tableau(t), &targets, |mv| {
            if matches!(mv.to, Pile::Tableau(_)) {
                moves[len] = mv;
                len += 1;
            }
        });
    }
    for &mv in &moves[..len] {
        let mut after = *position;
        after.apply(rules, mv);
        let pure = after.tableau_cards() == position.tableau_cards()
            && after.with_tableau_of(position) == *position;
        visit(mv, after, pure);
    }
}

/// Whether the move straight back from `after` (which `mv` led to from `before`) is legal and restores `before`.
fn undoes(rules: &RuleSet, before: &Position, after: &Position, mv: Move) -> bool {
    let mut back = false;
    after.for_each_legal_move_from(rules, mv.to, |reverse| {
        if reverse.to == mv.from && reverse.count == mv.count {
            let mut undone = *after;
            undone.apply(rules, reverse);
            back |= undone == *before;
        }
    });
    back
}

/// The most tableau-to-tableau moves a position can have: every card of a run onto every other pile.
const MOST_TABLEAU_MOVES: usize = 52 * patience_core::rules::MAX_TABLEAU;

/// A hash of the tableau piles in order, with a context byte.
fn tableau_hash(position: &Position, context: u8) -> u128 {
    let mut bytes = [0u8; 52 + patience_core::rules::MAX_TABLEAU + 1];
    let mut len = 0;
    for t in 0..position.tableau_piles() as u8 {
        let pile = position.pile(Pile::Tableau(t));
        bytes[len..len + pile.len()].copy_from_slice(pile);
        len += pile.len();
        bytes[len] = 0xFF;
        len += 1;
    }
    bytes[len] = context;
    xxh3_128(&bytes[..=len])
}

/// A hash of the tableau piles in sorted order.
fn sorted_tableau_hash(position: &Position) -> u128 {
    let mut piles: Vec<&[u8]> = (0..position.tableau_piles() as u8)
        .map(|t| position.pile(Pile::Tableau(t)))
        .collect();
    piles.sort_unstable();
    let mut bytes = Vec::with_capacity(52 + piles.len());
    for pile in piles {
        bytes.extend_from_slice(pile);
        bytes.push(0xFF);
    }
    xxh3_128(&bytes)
}
