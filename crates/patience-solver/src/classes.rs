//! Cards that building in the tableau cannot tell apart.

use patience_core::{Card, Position, RuleSet};

/// The cards of a pack in classes: two cards are in one class when the same cards may be built on them and they
/// may be built on the same cards (one rank and any suit when building is regardless of suit; one rank and colour
/// for alternate colours; one card for the same suit). A class is named by its first card. The rank order may
/// hang on the base rank, so the classes are those of one position's base rank.
pub(crate) struct Classes {
    /// The class of each card, by card index.
    pub(crate) of: [u8; 64],
    /// The cards that may be built on each card, as a set of card indices.
    pub(crate) builders: [u64; 64],
    /// The cards each card may be built on, as a set of card indices.
    pub(crate) bases: [u64; 64],
    /// The cards of each class, by its name (empty for a card that names none).
    pub(crate) members: [u64; 52],
}

impl Classes {
    /// The classes of the cards in `position`'s pack, under its base rank.
    pub(crate) fn new(rules: &RuleSet, position: &Position) -> Classes {
        let ranks = position.ranks();
        let in_pack = || {
            Card::pack()
                .filter(move |c| c.rank().index() < ranks)
                .map(|c| c.index() as usize)
        };
        let mut builders = [0u64; 64];
        let mut bases = [0u64; 64];
        for under in in_pack() {
            let on_it = Card::from_index(under as u8)
                .map_or(0, |card| position.cards_built_on(rules, card));
            builders[under] = on_it;
            for over in in_pack().filter(|&c| on_it >> c & 1 == 1) {
                bases[over] |= 1 << under;
            }
        }
        let mut of = [0u8; 64];
        let mut members = [0u64; 52];
        for card in in_pack() {
            let first = in_pack()
                .find(|&c| builders[c] == builders[card] && bases[c] == bases[card])
                .unwrap_or(card);
            of[card] = first as u8;
            members[first] |= 1 << card;
        }
        Classes {
            of,
            builders,
            bases,
            members,
        }
    }
}
