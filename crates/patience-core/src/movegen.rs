//! Legal move generation: every move the rule set allows from a position.

use crate::card::{Card, Rank, Suit};
use crate::moves::Move;
use crate::position::{Pile, Position};
use crate::rules::{Build, Moves, RankOrder, Redeals, RuleSet, Source, MAX_TABLEAU};

/// What each tableau pile takes, worked out once for a round of move generation. Turning the stock changes
/// neither the tableau nor the reserve, so one `Targets` serves every card the stock turns up (see
/// [`Position::for_each_move_of_top_card`]).
#[derive(Debug, Clone)]
pub struct Targets {
    /// Each pile's length.
    len: [u8; MAX_TABLEAU],
    /// The cards each non-empty pile's top card takes, as a bit set by card index (0 for an empty pile).
    takes: [u64; MAX_TABLEAU],
    /// The cards some pile takes: the union of `takes`.
    taken: u64,
    /// The empty piles, as a bit set.
    spaces: u16,
    /// Whether every reserve pile is empty (which may change what fills a space).
    reserve_empty: bool,
}

impl Position {
    /// Hands every legal move to `emit`, allocating nothing. Moves that change nothing (a whole pile into a
    /// space of the same capacity) are left out.
    pub fn for_each_legal_move(&self, rules: &RuleSet, mut emit: impl FnMut(Move)) {
        if self.choice_pending() {
            for i in 0..self.choice_piles() as u8 {
                if let Some(card) = self.top(Pile::Choice(i)) {
                    emit(Move::new(
                        Pile::Choice(i),
                        Pile::Foundation(card.suit() as u8),
                        1,
                    ));
                }
            }
            return;
        }
        if let Some(mv) = self.stock_move(rules) {
            emit(mv);
        }
        let targets = self.targets(rules);
        self.single_card_moves(rules, Pile::Waste, &targets, &mut emit);
        for i in 0..self.reserve_piles() as u8 {
            self.single_card_moves(rules, Pile::Reserve(i), &targets, &mut emit);
        }
        if rules.foundations.cards_go_back {
            for suit in 0..4 {
                self.single_card_moves(rules, Pile::Foundation(suit), &targets, &mut emit);
            }
        }
        for p in 0..self.tableau_piles() as u8 {
            self.tableau_moves(rules, Pile::Tableau(p), &targets, &mut emit);
        }
    }

    /// Hands every legal move of cards from `from` to `emit` (for the stock, the draw or redeal), in the order
    /// [`Position::for_each_legal_move`] gives them.
    pub fn for_each_legal_move_from(
        &self,
        rules: &RuleSet,
        from: Pile,
        mut emit: impl FnMut(Move),
    ) {
        if self.choice_pending() {
            if let (Pile::Choice(_), Some(card)) = (from, self.top(from)) {
                emit(Move::new(from, Pile::Foundation(card.suit() as u8), 1));
            }
            return;
        }
        let targets = &self.targets(rules);
        match from {
            Pile::Stock | Pile::Waste => {
                if let Some(mv) = self.stock_move(rules).filter(|mv| mv.from == from) {
                    emit(mv);
                }
                if from == Pile::Waste {
                    self.single_card_moves(rules, from, targets, &mut emit);
                }
            }
            Pile::Reserve(_) => self.single_card_moves(rules, from, targets, &mut emit),
            Pile::Foundation(_) if rules.foundations.cards_go_back => {
                self.single_card_moves(rules, from, targets, &mut emit)
            }
            Pile::Tableau(_) => self.tableau_moves(rules, from, targets, &mut emit),
            Pile::Foundation(_) | Pile::Choice(_) => {}
        }
    }

    /// The moves of the top card of a waste, reserve or foundation pile.
    fn single_card_moves(
        &self,
        rules: &RuleSet,
        from: Pile,
        targets: &Targets,
        emit: &mut impl FnMut(Move),
    ) {
        if let Some(card) = self.top(from) {
            self.for_each_move_of_top_card(rules, from, card, targets, emit);
        }
    }

    /// The moves `card` would have as the top card of `from` (a waste, reserve or foundation pile), with the
    /// targets of this position: for the waste, what [`Position::for_each_legal_move_from`] gives once the stock
    /// is turned to bring `card` up (see [`crate::StockTurns`]), less the next turn.
    pub fn for_each_move_of_top_card(
        &self,
        rules: &RuleSet,
        from: Pile,
        card: Card,
        targets: &Targets,
        mut emit: impl FnMut(Move),
    ) {
        if !matches!(from, Pile::Foundation(_)) && self.foundation_next(card.suit()) == Some(card) {
            emit(Move::new(from, Pile::Foundation(card.suit() as u8), 1));
        }
        self.tableau_targets(rules, from, card, 1, targets, &mut emit);
    }

    /// The moves of cards from a tableau pile.
    fn tableau_moves(
        &self,
        rules: &RuleSet,
        from: Pile,
        targets: &Targets,
        emit: &mut impl FnMut(Move),
    ) {
        let pile = self.pile(from);
        let Some(&top) = pile.last() else { return };
        let top = card_at(top);
        if self.foundation_next(top.suit()) == Some(top) {
            emit(Move::new(from, Pile::Foundation(top.suit() as u8), 1));
        }
        let mut counts = self.movable_counts(rules, from);
        while counts != 0 {
            let count = counts.trailing_zeros() as usize;
            counts &= counts - 1;
            let card = card_at(pile[pile.len() - count]);
            self.tableau_targets(rules, from, card, count, targets, emit);
        }
    }

    /// Every legal move, in the order [`Position::for_each_legal_move`] gives them, into `out` (cleared first).
    pub fn legal_moves_into(&self, rules: &RuleSet, out: &mut Vec<Move>) {
        out.clear();
        self.for_each_legal_move(rules, |mv| out.push(mv));
    }

    /// Every legal move.
    pub fn legal_moves(&self, rules: &RuleSet) -> Vec<Move> {
        let mut out = Vec::new();
        self.legal_moves_into(rules, &mut out);
        out
    }

    /// The draw or the redeal, whichever the stock allows now.
    pub fn stock_move(&self, rules: &RuleSet) -> Option<Move> {
        stock_move(
            self.len(Pile::Stock),
            self.len(Pile::Waste),
            rules.stock.draw,
            self.redeals_left(),
        )
    }

    /// The counts of cards that may move from a tableau pile to another pile, as a bit set (bit `k` for `k`
    /// cards). Every tableau pile is a run: the deal puts one card on each, every move builds by the rule, and a
    /// position read from JSON is refused otherwise; so any number of top cards is a run.
    pub(crate) fn movable_counts(&self, rules: &RuleSet, from: Pile) -> u64 {
        let len = self.len(from);
        if len == 0 {
            return 0;
        }
        let mut counts = match rules.tableau.moves {
            Moves::Top => 1 << 1,
            Moves::WholePile => 1 << len,
            Moves::TopOrWhole => (1 << 1) | (1 << len),
            Moves::AnyRun => ((1u64 << (len + 1)) - 1) & !1,
        };
        if rules.tableau.top_card_from_piles_of == Some(len as u8) {
            counts |= 1 << 1;
        }
        counts
    }

    /// How many cards on top of a tableau pile form a run, following the building rule.
    pub fn run_length(&self, rules: &RuleSet, pile: Pile) -> usize {
        let cards = self.pile(pile);
        let mut run = usize::from(!cards.is_empty());
        while run < cards.len()
            && self.builds_on(
                rules,
                card_at(cards[cards.len() - run]),
                card_at(cards[cards.len() - run - 1]),
            )
        {
            run += 1;
        }
        run
    }

    /// Whether `card` may be built on `onto` in the tableau.
    #[inline]
    pub fn builds_on(&self, rules: &RuleSet, card: Card, onto: Card) -> bool {
        self.cards_built_on(rules, onto) >> card.index() & 1 == 1
    }

    /// The rank one below `upper` in the tableau's rank order, if any card may be built on one of that rank.
    #[inline]
    fn rank_below(&self, order: RankOrder, upper: Rank) -> Option<Rank> {
        let ranks = self.ranks();
        let upper = upper.index();
        // Conditional subtraction instead of `%`: this runs for every pair of cards move generation tries.
        let wrapped = if upper == 0 { ranks - 1 } else { upper - 1 };
        let lower = match (order, self.base_rank()) {
            (RankOrder::Circular, _) => Some(wrapped),
            (RankOrder::FromBase, Some(base)) => (upper != base.index()).then_some(wrapped),
            (RankOrder::Natural | RankOrder::FromBase, _) => upper.checked_sub(1),
        };
        lower.and_then(Rank::new)
    }

    /// What each tableau pile takes now, for one round of move generation.
    pub fn targets(&self, rules: &RuleSet) -> Targets {
        let (len, top) = self.tableau_tops();
        let mut spaces = 0u16;
        let mut takes = [0u64; MAX_TABLEAU];
        for t in 0..self.tableau_piles() {
            if len[t] == 0 {
                spaces |= 1 << t;
            } else {
                takes[t] = self.cards_built_on(rules, card_at(top[t]));
            }
        }
        Targets {
            len,
            takes,
            taken: takes.iter().fold(0, |all, cards| all | cards),
            spaces,
            reserve_empty: self.reserve_empty(),
        }
    }

    /// The non-empty tableau piles whose top card `card` may be built on, as a bit set.
    fn piles_taking(&self, targets: &Targets, card: Card) -> u16 {
        let bit = card.index();
        // Most cards looked at fit no pile.
        if (targets.taken >> bit) & 1 == 0 {
            return 0;
        }
        (0..self.tableau_piles()).fold(0, |piles, t| {
            piles | (((targets.takes[t] >> bit) & 1) as u16) << t
        })
    }

    /// The cards that may be built on each card in the tableau, by card index ([`Position::cards_built_on`]
    /// of every card; none past the pack's last index). It depends on the rules, the pack's ranks and the base
    /// rank alone, so a search can work it out once for each base rank it meets.
    pub fn cards_built_on_each(&self, rules: &RuleSet) -> [u64; 64] {
        let mut each = [0; 64];
        for card in Card::pack() {
            each[usize::from(card.index())] = self.cards_built_on(rules, card);
        }
        each
    }

    /// The cards that may be built on `onto` in the tableau, as a bit set by card index (bit `c.index()`).
    #[inline]
    pub fn cards_built_on(&self, rules: &RuleSet, onto: Card) -> u64 {
        let Some(lower) = self.rank_below(rules.tableau.order, onto.rank()) else {
            return 0;
        };
        let of_rank = RANK_ONE_PER_SUIT << lower.index();
        of_rank & suits_taken(rules.tableau.build, onto.suit())
    }

    /// Emits the moves of `count` cards (bottom card `card`) from `from` to each tableau pile that takes them,
    /// in pile order.
    fn tableau_targets(
        &self,
        rules: &RuleSet,
        from: Pile,
        card: Card,
        count: usize,
        targets: &Targets,
        emit: &mut impl FnMut(Move),
    ) {
        let others = match from {
            Pile::Tableau(t) => !(1u16 << t),
            _ => u16::MAX,
        };
        let mut piles = self.piles_taking(targets, card) & others;
        let mut spaces = targets.spaces & others;
        while spaces != 0 {
            let t = spaces.trailing_zeros() as u8;
            spaces &= spaces - 1;
            if self.space_takes(rules, from, Pile::Tableau(t), count, targets.reserve_empty) {
                piles |= 1 << t;
            }
        }
        while piles != 0 {
            let t = piles.trailing_zeros() as usize;
            piles &= piles - 1;
            if targets.len[t] as usize + count <= rules.capacity(t) {
                emit(Move::new(from, Pile::Tableau(t as u8), count as u8));
            }
        }
    }

    /// Whether the space `to` may be filled at will with `count` cards from `from`.
    pub(crate) fn space_takes(
        &self,
        rules: &RuleSet,
        from: Pile,
        to: Pile,
        count: usize,
        reserve_empty: bool,
    ) -> bool {
        let source = match from {
            Pile::Reserve(_) => Source::Reserve,
            Pile::Waste => Source::Waste,
            Pile::Tableau(_) if !self.changes_nothing(rules, from, to, count) => Source::Tableau,
            _ => return false,
        };
        rules.at_will_sources(reserve_empty).contains(&source)
    }

    /// Whether moving `count` cards of tableau pile `from` into the space `to` only swaps two piles: a whole
    /// pile into a space, unless the two piles may hold different numbers of cards (Florentine's centre).
    pub(crate) fn changes_nothing(
        &self,
        rules: &RuleSet,
        from: Pile,
        to: Pile,
        count: usize,
    ) -> bool {
        let capacity = |pile: Pile| match pile {
            Pile::Tableau(i) => rules.capacity(i as usize),
            _ => usize::MAX,
        };
        count == self.len(from) && capacity(from) == capacity(to)
    }

    /// The redeals a fresh deal starts with.
    pub(crate) fn initial_redeals(rules: &RuleSet) -> Option<u8> {
        match rules.stock.redeals {
            Redeals::Limited(n) => Some(n),
            Redeals::Unlimited => None,
        }
    }
}

/// The aces of the four suits as a bit set by card index; shifted left by a rank's index, that rank's four cards.
const RANK_ONE_PER_SUIT: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;

/// Every card of a suit as a bit set by card index (cards `suit × 13 ..`), shifted left by `suit × 13`.
const ONE_SUIT: u64 = (1 << 13) - 1;

/// The cards whose suit may lie on a card of suit `onto` under the building rule, as a bit set by card index.
#[inline]
fn suits_taken(build: Build, onto: Suit) -> u64 {
    let suit = |s: Suit| ONE_SUIT << (s as u64 * 13);
    match build {
        Build::AnySuit => u64::MAX,
        Build::SameSuit => suit(onto),
        Build::AlternateColours => Suit::ALL
            .into_iter()
            .filter(|s| s.is_red() != onto.is_red())
            .fold(0, |mask, s| mask | suit(s)),
    }
}

/// The card in a byte of the card array.
pub(crate) fn card_at(byte: u8) -> Card {
    Card::from_index(byte).unwrap_or_else(|| Card::new(Suit::Clubs, Rank::ACE))
}

/// The draw or the redeal a stock of `stock` cards and a waste of `waste` allow, with `redeals_left` (`None`
/// for unlimited) and `draw` cards turned a draw.
pub(crate) fn stock_move(
    stock: usize,
    waste: usize,
    draw: u8,
    redeals_left: Option<u8>,
) -> Option<Move> {
    if stock > 0 {
        let count = stock.min(draw as usize) as u8;
        Some(Move::new(Pile::Stock, Pile::Waste, count))
    } else if waste > 0 && redeals_left != Some(0) {
        Some(Move::new(Pile::Waste, Pile::Stock, waste as u8))
    } else {
        None
    }
}
