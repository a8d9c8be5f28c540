//! The rule model: a game is a [`RuleSet`] value read from a TOML rule file.
//!
//! Every rule of every game is one of these fields; nothing elsewhere in the project branches on a game's name.
//! The format is documented in `docs/rule-files.md`.

use std::path::Path;

use serde::Deserialize;

use crate::card::Rank;

/// The most tableau piles a rule set may have.
pub const MAX_TABLEAU: usize = 16;
/// The most reserve piles a rule set may have.
pub const MAX_RESERVE: usize = 4;
/// The most cards a choice row may hold.
pub const MAX_CHOICE: usize = 8;

/// A whole game: where the cards go at the deal, and what may move where.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    /// Short name used on the command line (`canfield`).
    pub id: String,
    /// The game's name for people (`Canfield`).
    pub name: String,
    /// The seed text the game comes from, or where else its rules come from.
    #[serde(default)]
    pub source: String,
    /// One line that says what the game is like.
    #[serde(default)]
    pub description: String,
    /// Which cards are in the pack.
    #[serde(default)]
    pub pack: Pack,
    /// How the cards are laid out.
    pub deal: Deal,
    /// The four foundations.
    pub foundations: Foundations,
    /// The piles that are built on.
    pub tableau: Tableau,
    /// The piles that are never built on.
    #[serde(default)]
    pub reserve: Reserve,
    /// The pack in hand and the waste.
    pub stock: Stock,
    /// How a game is scored.
    #[serde(default)]
    pub score: Score,
}

/// Which cards are in the pack.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pack {
    /// How many ranks each suit has, from the ace up: 13 for the full pack, fewer for the reduced packs
    /// that tests use (4 means A 2 3 4 of each suit).
    pub ranks: u8,
}

impl Default for Pack {
    fn default() -> Pack {
        Pack { ranks: 13 }
    }
}

/// How the cards are laid out, in deal order.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deal {
    /// Before dealing, the four cards of the base rank go to the end of the shuffled pack, so that they are dealt
    /// first, in suit order (Fortune's Favor's aces, Storehouse's twos).
    #[serde(default)]
    pub base_cards_first: bool,
    /// What is dealt where, in order. Whatever is left becomes the stock, and the deal ends with one draw.
    pub steps: Vec<DealStep>,
}

/// One step of the deal.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "to", rename_all = "kebab-case", deny_unknown_fields)]
pub enum DealStep {
    /// Cards to the foundations of their suits. The first fixes the base rank when the base is `dealt`.
    Foundation {
        /// How many cards.
        #[serde(default = "one")]
        cards: u8,
        /// Which cards: the next ones in deal order, or the first card of the base rank still to come.
        #[serde(default)]
        take: Take,
    },
    /// Cards to the reserve piles, filling them to the sizes of `[reserve] piles`.
    Reserve {
        /// Whether each pile is dealt in turn or the piles take cards alternately.
        #[serde(default)]
        order: ReserveOrder,
    },
    /// One card to each tableau pile, in the order given (pile indices from 0); all piles left to right if absent.
    Tableau {
        /// The piles in the order they receive their card.
        #[serde(default)]
        order: Option<Vec<u8>>,
    },
    /// A row of cards among which the player chooses the base card (Selective Canfield).
    Choice {
        /// How many cards the row holds.
        cards: u8,
    },
}

fn one() -> u8 {
    1
}

/// Which cards a foundation step takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Take {
    /// The next cards in deal order.
    #[default]
    Next,
    /// The first card of the base rank still to be dealt, taken out of the pack (Solo Canfield's ace).
    FirstOfBaseRank,
}

/// How the reserve piles receive their cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReserveOrder {
    /// The first pile gets all its cards, then the next.
    #[default]
    PileByPile,
    /// One card to each pile in turn (Gate's posts).
    Alternate,
}

/// The foundations: four piles, one a suit, built up in suit from the base rank, after the king comes the ace.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Foundations {
    /// Where the base rank comes from.
    pub base: Base,
    /// Whether the top card of a foundation may be played back onto the tableau (Solo Canfield).
    #[serde(default)]
    pub cards_go_back: bool,
}

/// Where the base rank of the foundations comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The first card dealt to a foundation fixes it.
    Dealt,
    /// The player chooses the base card from the choice row.
    Chosen,
    /// A fixed rank.
    Rank(Rank),
}

impl<'de> Deserialize<'de> for Base {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.as_str() {
            "dealt" => Ok(Base::Dealt),
            "chosen" => Ok(Base::Chosen),
            other => Rank::parse(other).map(Base::Rank).ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "`{other}` is not a base: expected \"dealt\", \"chosen\" or a rank (A 2 … T J Q K)"
                ))
            }),
        }
    }
}

/// The tableau: the piles that are built on.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tableau {
    /// How many piles.
    pub piles: u8,
    /// How the screens arrange the piles.
    #[serde(default)]
    pub layout: Layout,
    /// Which suit may go on which when building down.
    pub build: Build,
    /// The rank order for building down.
    pub order: RankOrder,
    /// Which cards may move from a pile.
    pub moves: Moves,
    /// The top card alone may also move from a pile of exactly this many cards (Foster's two-card rule).
    #[serde(default)]
    pub top_card_from_piles_of: Option<u8>,
    /// Piles that hold fewer cards than others (Florentine's centre).
    #[serde(default)]
    pub capacity: Vec<Capacity>,
    /// How spaces are filled.
    pub spaces: Spaces,
}

/// How the screens arrange the tableau; it changes no rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// One row, left to right.
    #[default]
    Row,
    /// Five piles in a cross: top, left, centre, right, bottom; foundations in the corners.
    Cross,
    /// Two rows of equal length, upper row first.
    TwoRows,
    /// Two rows between the two reserve piles (Gate's rails between its posts).
    Rails,
}

/// Which suit may go on which when building down in the tableau.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Build {
    /// Regardless of suit.
    AnySuit,
    /// Red on black, black on red.
    AlternateColours,
    /// The same suit.
    SameSuit,
}

/// A rank order for building down in the tableau.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankOrder {
    /// A 2 … K, no wrap: nothing goes on an ace.
    Natural,
    /// Round the corner: a king goes on an ace.
    Circular,
    /// From the base rank upward, no wrap: with base 2 the ace ranks above the king.
    FromBase,
}

/// Which cards may move from a tableau pile to another pile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Moves {
    /// The top card only.
    Top,
    /// The whole pile only.
    WholePile,
    /// The top card alone or the whole pile.
    TopOrWhole,
    /// The top card or any run.
    AnyRun,
}

/// A pile that holds at most some number of cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capacity {
    /// The tableau pile, from 0.
    pub pile: u8,
    /// The most cards it may hold.
    pub cards: u8,
}

/// How empty tableau piles (spaces) are filled.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spaces {
    /// Sources that fill a space at once, as part of the move that made it: the first that has a card gives it.
    #[serde(default)]
    pub forced: Vec<Source>,
    /// Which reserve pile fills a space at once when there are several.
    #[serde(default)]
    pub forced_reserve: ReservePick,
    /// Sources the player may fill a space from while the reserve has cards.
    #[serde(default)]
    pub at_will: Vec<Source>,
    /// Sources the player may fill a space from once the reserve is empty; the same as `at_will` if absent.
    #[serde(default)]
    pub at_will_once_reserve_empty: Option<Vec<Source>>,
}

/// Where a card for a space may come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The top card of a reserve pile.
    Reserve,
    /// The top card of the waste.
    Waste,
    /// The top card of the stock (only for a forced fill).
    Stock,
    /// Cards from another tableau pile, as the tableau's `moves` allow.
    Tableau,
}

impl Source {
    /// The source in words, as the rules text and refusals say it (`the waste`).
    pub fn name(self) -> &'static str {
        match self {
            Source::Reserve => "the reserve",
            Source::Waste => "the waste",
            Source::Stock => "the stock",
            Source::Tableau => "the tableau",
        }
    }
}

/// Which reserve pile gives a forced fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReservePick {
    /// The first pile that has a card.
    #[default]
    First,
    /// The pile with the most cards, the first on a tie.
    Fullest,
}

/// The reserve: piles never built on, whose top cards are available.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reserve {
    /// The size of each pile at the deal.
    #[serde(default)]
    pub piles: Vec<u8>,
    /// Whether every card shows (Gate's posts), or only the top one (Canfield's reserve). For the screens only.
    #[serde(default)]
    pub face_up: bool,
}

/// The stock and how it is turned onto the waste.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stock {
    /// How many cards a draw turns.
    pub draw: u8,
    /// How many times the waste may be turned over to make a new stock.
    pub redeals: Redeals,
}

/// How many redeals a game allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Redeals {
    /// At most this many.
    Limited(u8),
    /// Without limit.
    Unlimited,
}

impl<'de> Deserialize<'de> for Redeals {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Count(i64),
            Word(String),
        }
        match Raw::deserialize(deserializer)? {
            Raw::Count(n) if (0..255).contains(&n) => Ok(Redeals::Limited(n as u8)),
            Raw::Word(w) if w == "unlimited" => Ok(Redeals::Unlimited),
            Raw::Count(n) => Err(serde::de::Error::custom(format!(
                "{n} is not a number of redeals: expected 0 to 254 or \"unlimited\""
            ))),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "`{w}` is not a number of redeals: expected 0 to 254 or \"unlimited\""
            ))),
        }
    }
}

/// How a game is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Score {
    /// The score the screens show first.
    #[serde(default)]
    pub default: ScoreKind,
    /// Casino scoring: what the pack costs, in dollars.
    #[serde(default = "pack_price")]
    pub pack_price: u16,
    /// Casino scoring: what each card on the foundations pays, in dollars.
    #[serde(default = "per_card")]
    pub per_card: u16,
}

fn pack_price() -> u16 {
    52
}

fn per_card() -> u16 {
    5
}

impl Default for Score {
    fn default() -> Score {
        Score {
            default: ScoreKind::Cards,
            pack_price: pack_price(),
            per_card: per_card(),
        }
    }
}

/// A kind of score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreKind {
    /// Cards on the foundations.
    #[default]
    Cards,
    /// Casino dollars: the cards on the foundations times the pay per card, less the price of the pack.
    Casino,
}

/// A rule file could not be read or makes no sense.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The file could not be read.
    #[error("{file}: cannot read the rule file: {reason}")]
    Read {
        /// The file.
        file: String,
        /// What the system said.
        reason: String,
    },
    /// The TOML is malformed, a field is unknown or missing, or a value has the wrong type.
    #[error("{file}: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// What the TOML reader said: the line, the field and what was expected.
        message: String,
    },
    /// The fields read well but do not make a game.
    #[error("{file}: field `{field}`: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The field at fault, as a dotted path.
        field: String,
        /// What is wrong and what was expected.
        message: String,
    },
}

impl RuleSet {
    /// Reads and checks a rule set from TOML text; `file` names it in errors.
    pub fn from_toml(file: &str, text: &str) -> Result<RuleSet, RuleError> {
        let rules: RuleSet = toml::from_str(text).map_err(|e| RuleError::Syntax {
            file: file.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        rules
            .validate()
            .map_err(|(field, message)| RuleError::Invalid {
                file: file.to_string(),
                field: field.to_string(),
                message,
            })?;
        Ok(rules)
    }

    /// Reads and checks a rule file.
    pub fn from_file(path: &Path) -> Result<RuleSet, RuleError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| RuleError::Read {
            file: file.clone(),
            reason: e.to_string(),
        })?;
        RuleSet::from_toml(&file, &text)
    }

    /// How many cards the pack holds.
    pub fn pack_size(&self) -> usize {
        4 * self.pack.ranks as usize
    }

    /// The base rank when the rules fix it before the deal.
    pub fn fixed_base(&self) -> Option<Rank> {
        match self.foundations.base {
            Base::Rank(rank) => Some(rank),
            Base::Dealt | Base::Chosen => None,
        }
    }

    /// How many cards the choice row holds (0 when the game has none).
    pub fn choice_cards(&self) -> usize {
        self.deal
            .steps
            .iter()
            .map(|step| match step {
                DealStep::Choice { cards } => *cards as usize,
                _ => 0,
            })
            .sum()
    }

    /// The most cards tableau pile `pile` may hold.
    #[inline]
    pub fn capacity(&self, pile: usize) -> usize {
        self.tableau
            .capacity
            .iter()
            .find(|c| c.pile as usize == pile)
            .map_or(usize::MAX, |c| c.cards as usize)
    }

    /// The sources a space may be filled from at will, given whether the reserve is empty.
    pub fn at_will_sources(&self, reserve_empty: bool) -> &[Source] {
        match (
            &self.tableau.spaces.at_will_once_reserve_empty,
            reserve_empty,
        ) {
            (Some(after), true) => after,
            _ => &self.tableau.spaces.at_will,
        }
    }

    /// Whether the game is scored in casino dollars by default (the Canfield family).
    pub fn casino_scored(&self) -> bool {
        self.score.default == ScoreKind::Casino
    }

    /// Checks what the types cannot: sizes, indices and combinations. Returns the field at fault and why.
    fn validate(&self) -> Result<(), (&'static str, String)> {
        let ranks = self.pack.ranks;
        if !(1..=13).contains(&ranks) {
            return Err(("pack.ranks", format!("{ranks} ranks: expected 1 to 13")));
        }
        if self.id.is_empty()
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err((
                "id",
                format!(
                    "`{}`: expected lower-case letters, digits and hyphens",
                    self.id
                ),
            ));
        }
        let tableau = self.tableau.piles as usize;
        if !(1..=MAX_TABLEAU).contains(&tableau) {
            return Err((
                "tableau.piles",
                format!("{tableau} piles: expected 1 to {MAX_TABLEAU}"),
            ));
        }
        if self.reserve.piles.len() > MAX_RESERVE {
            return Err((
                "reserve.piles",
                format!(
                    "{} piles: expected at most {MAX_RESERVE}",
                    self.reserve.piles.len()
                ),
            ));
        }
        if self.stock.draw == 0 {
            return Err(("stock.draw", "0 cards: expected at least 1".into()));
        }
        if let Base::Rank(rank) = self.foundations.base {
            if rank.index() >= ranks {
                return Err((
                    "foundations.base",
                    format!("rank {rank} is not in a pack of {ranks} ranks"),
                ));
            }
        }
        for capacity in &self.tableau.capacity {
            if capacity.pile as usize >= tableau {
                return Err((
                    "tableau.capacity.pile",
                    format!(
                        "pile {}: expected a tableau pile from 0 to {}",
                        capacity.pile,
                        tableau - 1
                    ),
                ));
            }
            if capacity.cards == 0 {
                return Err((
                    "tableau.capacity.cards",
                    "0 cards: expected at least 1".into(),
                ));
            }
        }
        if let Some(n) = self.tableau.top_card_from_piles_of {
            if n < 2 {
                return Err((
                    "tableau.top_card_from_piles_of",
                    format!("{n}: expected 2 or more"),
                ));
            }
        }
        let spaces = &self.tableau.spaces;
        if spaces.forced.contains(&Source::Tableau) {
            return Err((
                "tableau.spaces.forced",
                "\"tableau\": a forced fill comes from the reserve, the waste or the stock".into(),
            ));
        }
        let at_will_lists = [
            ("tableau.spaces.at_will", Some(&spaces.at_will)),
            (
                "tableau.spaces.at_will_once_reserve_empty",
                spaces.at_will_once_reserve_empty.as_ref(),
            ),
        ];
        for (field, list) in at_will_lists {
            if list.is_some_and(|list| list.contains(&Source::Stock)) {
                return Err((
                    field,
                    "\"stock\": the stock's top card is not available; expected reserve, waste or tableau".into(),
                ));
            }
        }
        if spaces.forced.contains(&Source::Reserve) && self.reserve.piles.is_empty()
            || spaces.at_will.contains(&Source::Reserve) && self.reserve.piles.is_empty()
        {
            return Err((
                "tableau.spaces",
                "a space is filled from the reserve, but the game has no reserve".into(),
            ));
        }
        self.validate_deal()
    }

    /// Checks the deal steps against the piles and the pack.
    fn validate_deal(&self) -> Result<(), (&'static str, String)> {
        let tableau = self.tableau.piles as usize;
        let mut dealt = 0usize;
        let mut to_foundation = 0usize;
        let mut reserve_steps = 0;
        let mut tableau_steps = 0;
        let mut choice_steps = 0;
        if self.deal.base_cards_first && self.fixed_base().is_none() {
            return Err((
                "deal.base_cards_first",
                "the base cards can go first only when `foundations.base` is a rank".into(),
            ));
        }
        for step in &self.deal.steps {
            match step {
                DealStep::Foundation { cards, take } => {
                    if *cards == 0 || *cards > 4 {
                        return Err((
                            "deal.steps.cards",
                            format!("{cards} cards to the foundations: expected 1 to 4"),
                        ));
                    }
                    if *take == Take::FirstOfBaseRank && self.fixed_base().is_none() {
                        return Err((
                            "deal.steps.take",
                            "\"first-of-base-rank\" needs `foundations.base` to be a rank".into(),
                        ));
                    }
                    if self.foundations.base == Base::Chosen {
                        return Err((
                            "deal.steps.to",
                            "\"foundation\": with a chosen base, no card is dealt to the foundations".into(),
                        ));
                    }
                    if *take == Take::Next
                        && self.fixed_base().is_some()
                        && !self.deal.base_cards_first
                    {
                        return Err((
                            "deal.steps.take",
                            "the next cards dealt need not be of the base rank: set `deal.base_cards_first = true` or `take = \"first-of-base-rank\"`".into(),
                        ));
                    }
                    if self.foundations.base == Base::Dealt && (*cards > 1 || to_foundation > 0) {
                        return Err((
                            "deal.steps.cards",
                            "with `base = \"dealt\"` one card goes to the foundations: the others need not be of its rank".into(),
                        ));
                    }
                    to_foundation += *cards as usize;
                    dealt += *cards as usize;
                }
                DealStep::Reserve { .. } => {
                    reserve_steps += 1;
                    dealt += self
                        .reserve
                        .piles
                        .iter()
                        .map(|&n| n as usize)
                        .sum::<usize>();
                }
                DealStep::Tableau { order } => {
                    tableau_steps += 1;
                    match order {
                        Some(order) => {
                            let mut seen = [false; MAX_TABLEAU];
                            for &pile in order {
                                let pile = pile as usize;
                                if pile >= tableau || seen[pile] {
                                    return Err((
                                        "deal.steps.order",
                                        format!(
                                            "pile {pile}: expected each tableau pile from 0 to {} once",
                                            tableau - 1
                                        ),
                                    ));
                                }
                                seen[pile] = true;
                            }
                            dealt += order.len();
                        }
                        None => dealt += tableau,
                    }
                }
                DealStep::Choice { cards } => {
                    choice_steps += 1;
                    let cards = *cards as usize;
                    if self.foundations.base != Base::Chosen {
                        return Err((
                            "deal.steps.to",
                            "\"choice\": a choice row needs `foundations.base = \"chosen\"`".into(),
                        ));
                    }
                    if !(2..=MAX_CHOICE).contains(&cards) || cards != tableau + 1 {
                        return Err((
                            "deal.steps.cards",
                            format!(
                                "a choice row of {cards}: expected one more card than the {tableau} tableau piles, at most {MAX_CHOICE}"
                            ),
                        ));
                    }
                    dealt += cards;
                }
            }
        }
        if reserve_steps > 1 || tableau_steps > 1 || choice_steps > 1 {
            return Err((
                "deal.steps",
                "the reserve, the tableau and the choice row are each dealt by one step at most"
                    .into(),
            ));
        }
        if reserve_steps == 0 && self.reserve.piles.iter().any(|&n| n > 0) {
            return Err((
                "deal.steps",
                "the reserve has piles but no step deals to it: add { to = \"reserve\" }".into(),
            ));
        }
        match self.foundations.base {
            Base::Dealt if to_foundation == 0 => {
                return Err((
                    "foundations.base",
                    "\"dealt\" needs a deal step { to = \"foundation\" }".into(),
                ))
            }
            Base::Chosen if choice_steps == 0 => {
                return Err((
                    "foundations.base",
                    "\"chosen\" needs a deal step { to = \"choice\", cards = N }".into(),
                ))
            }
            _ => {}
        }
        if choice_steps == 1 && tableau_steps == 1 {
            return Err((
                "deal.steps",
                "with a choice row the tableau is made of the cards not chosen; no tableau step"
                    .into(),
            ));
        }
        if dealt > self.pack_size() {
            return Err((
                "deal.steps",
                format!(
                    "the layout needs {dealt} cards but the pack holds {}",
                    self.pack_size()
                ),
            ));
        }
        Ok(())
    }
}
