//! Cards of the one 52-card pack: suits, ranks and the one-byte card.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Characters naming the ranks A..K, in rank order.
const RANK_CHARS: &[u8; 13] = b"A23456789TJQK";
/// Characters naming the suits, in suit order.
const SUIT_CHARS: &[u8; 4] = b"CSHD";

/// A suit. The order is the project's suit order: clubs, spades, hearts, diamonds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// ♣, black.
    Clubs = 0,
    /// ♠, black.
    Spades = 1,
    /// ♥, red.
    Hearts = 2,
    /// ♦, red.
    Diamonds = 3,
}

impl Suit {
    /// The four suits in suit order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

    /// The suit with this index (0..4) in suit order.
    pub fn from_index(index: usize) -> Suit {
        Suit::ALL[index & 3]
    }

    /// Whether the suit is red (hearts and diamonds).
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    /// The letter that names the suit in card notation (`C`, `S`, `H`, `D`).
    pub fn letter(self) -> char {
        SUIT_CHARS[self as usize] as char
    }

    /// The suit's symbol (♣ ♠ ♥ ♦).
    pub fn symbol(self) -> char {
        ['♣', '♠', '♥', '♦'][self as usize]
    }
}

/// A rank, 0 for the ace up to 12 for the king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// The ace.
    pub const ACE: Rank = Rank(0);
    /// The king.
    pub const KING: Rank = Rank(12);

    /// The rank with this index (0 for the ace .. 12 for the king), if there is one.
    pub fn new(index: u8) -> Option<Rank> {
        (index < 13).then_some(Rank(index))
    }

    /// The rank's index, 0 for the ace .. 12 for the king.
    pub fn index(self) -> u8 {
        self.0
    }

    /// The character that names the rank (`A`, `2`, …, `T`, `J`, `Q`, `K`).
    pub fn letter(self) -> char {
        RANK_CHARS[self.0 as usize] as char
    }

    /// Reads a rank from its character, or from `10` for the ten.
    pub fn parse(text: &str) -> Option<Rank> {
        if text == "10" {
            return Some(Rank(9));
        }
        let mut chars = text.chars();
        let c = chars.next()?.to_ascii_uppercase();
        if chars.next().is_some() {
            return None;
        }
        RANK_CHARS
            .iter()
            .position(|&r| r as char == c)
            .map(|i| Rank(i as u8))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Serialize for Rank {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Rank {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Rank::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{text}` is not a rank: expected one of A 2 3 4 5 6 7 8 9 T J Q K"
            ))
        })
    }
}

/// One card, stored in one byte as `suit × 13 + rank`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The card of this suit and rank.
    pub fn new(suit: Suit, rank: Rank) -> Card {
        Card(suit as u8 * 13 + rank.0)
    }

    /// The card with this index (`suit × 13 + rank`, 0..52), if there is one.
    pub fn from_index(index: u8) -> Option<Card> {
        (index < 52).then_some(Card(index))
    }

    /// The card's index, `suit × 13 + rank`.
    pub fn index(self) -> u8 {
        self.0
    }

    /// The card's suit.
    pub fn suit(self) -> Suit {
        Suit::from_index((self.0 / 13) as usize)
    }

    /// The card's rank.
    pub fn rank(self) -> Rank {
        Rank(self.0 % 13)
    }

    /// Whether the card is red.
    pub fn is_red(self) -> bool {
        self.0 >= 26
    }

    /// Every card of the pack, in index order.
    pub fn pack() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().letter(), self.suit().letter())
    }
}

/// A card could not be read from text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a card: expected a rank (A 2 … 9 T J Q K) and a suit (C S H D), like `TD` or `QS`")]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<Card, CardParseError> {
        let error = || CardParseError(text.to_string());
        let trimmed = text.trim();
        let split = trimmed
            .char_indices()
            .last()
            .map(|(i, _)| i)
            .ok_or_else(error)?;
        let rank = Rank::parse(&trimmed[..split]).ok_or_else(error)?;
        let suit_char = trimmed[split..]
            .chars()
            .next()
            .ok_or_else(error)?
            .to_ascii_uppercase();
        let suit = SUIT_CHARS
            .iter()
            .position(|&s| s as char == suit_char)
            .or_else(|| ['♣', '♠', '♥', '♦'].iter().position(|&s| s == suit_char))
            .ok_or_else(error)?;
        Ok(Card::new(Suit::from_index(suit), rank))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_its_name() {
        for card in Card::pack() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
    }

    #[test]
    fn names_follow_the_suit_order() {
        assert_eq!(
            Card::from_index(0).map(|c| c.to_string()),
            Some("AC".into())
        );
        assert_eq!(
            Card::from_index(51).map(|c| c.to_string()),
            Some("KD".into())
        );
        assert_eq!(
            "10H".parse::<Card>().map(|c| c.to_string()),
            Ok("TH".into())
        );
        assert_eq!("q♠".parse::<Card>().map(|c| c.to_string()), Ok("QS".into()));
    }

    #[test]
    fn bad_cards_are_refused() {
        for bad in ["", "X", "1C", "AX", "ACE", "11S", "T"] {
            assert!(bad.parse::<Card>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn colours() {
        assert!(!"AS".parse::<Card>().map(Card::is_red).unwrap_or(true));
        assert!("AH".parse::<Card>().map(Card::is_red).unwrap_or(false));
    }
}
