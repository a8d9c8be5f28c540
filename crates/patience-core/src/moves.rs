//! Moves: from one pile to another, how many cards; their JSON form and their short text notation.
//!
//! Notation (documented in `docs/notation.md`): piles are `s` (stock), `w` (waste), `f0`..`f3` (foundations in
//! suit order ♣ ♠ ♥ ♦), `r0`.. (reserve), `t0`.. (tableau), `c0`.. (choice row), all numbered from 0 as in the JSON.
//! A move is `FROM-TO`, with `xN` after it when it moves N > 1 cards: `w-f2`, `t0-t3x2`, `r0-t1`, `c3-f1`.
//! A draw is `draw` (or `s-w`), a redeal `redeal` (or `w-s`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::position::Pile;

/// A move: the top `count` cards of `from` go onto `to`. A draw is stock → waste, a redeal waste → stock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    /// Where the cards come from.
    pub from: Pile,
    /// Where they go.
    pub to: Pile,
    /// How many cards (for a draw, how many are turned; for a redeal, the whole waste).
    pub count: u8,
}

impl Move {
    /// A move of `count` cards.
    pub fn new(from: Pile, to: Pile, count: u8) -> Move {
        Move { from, to, count }
    }

    /// Whether the move turns cards from the stock onto the waste.
    pub fn is_draw(&self) -> bool {
        self.from == Pile::Stock && self.to == Pile::Waste
    }

    /// Whether the move turns the waste over to make a new stock.
    pub fn is_redeal(&self) -> bool {
        self.from == Pile::Waste && self.to == Pile::Stock
    }

    /// Whether the move only turns the stock or the waste over (draw or redeal).
    pub fn is_stock_move(&self) -> bool {
        self.is_draw() || self.is_redeal()
    }

    /// Reads a move from its notation or its JSON object.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let trimmed = text.trim();
        if trimmed.starts_with('{') {
            serde_json::from_str(trimmed).map_err(|e| MoveParseError {
                text: text.to_string(),
                reason: e.to_string(),
            })
        } else {
            trimmed.parse()
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_draw() {
            return f.write_str("draw");
        }
        if self.is_redeal() {
            return f.write_str("redeal");
        }
        write!(f, "{}-{}", PileCode(self.from), PileCode(self.to))?;
        if self.count > 1 {
            write!(f, "x{}", self.count)?;
        }
        Ok(())
    }
}

/// A move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{text}` is not a move: {reason}")]
pub struct MoveParseError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for Move {
    type Err = MoveParseError;

    /// Reads a move in the text notation. A draw or redeal read this way has count 0, meaning "as many as the
    /// rules turn"; [`crate::Position::complete`] fills it in.
    fn from_str(text: &str) -> Result<Move, MoveParseError> {
        let error = |reason: &str| MoveParseError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let lower = text.trim().to_ascii_lowercase();
        match lower.as_str() {
            "draw" | "s-w" => return Ok(Move::new(Pile::Stock, Pile::Waste, 0)),
            "redeal" | "w-s" => return Ok(Move::new(Pile::Waste, Pile::Stock, 0)),
            _ => {}
        }
        let (piles, count) = match lower.split_once('x') {
            Some((piles, count)) => {
                let count: u8 =
                    count.parse().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        error("the count after `x` must be a number from 1 to 255")
                    })?;
                (piles, count)
            }
            None => (lower.as_str(), 1),
        };
        let (from, to) = piles.split_once('-').ok_or_else(|| {
            error("expected FROM-TO such as `w-f2` or `t0-t3x2`, or `draw` or `redeal`")
        })?;
        let from = parse_pile(from).map_err(|reason| error(&reason))?;
        let to = parse_pile(to).map_err(|reason| error(&reason))?;
        Ok(Move::new(from, to, count))
    }
}

/// A pile's code in the move notation.
struct PileCode(Pile);

impl fmt::Display for PileCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Pile::Stock => f.write_str("s"),
            Pile::Waste => f.write_str("w"),
            Pile::Foundation(i) => write!(f, "f{i}"),
            Pile::Reserve(i) => write!(f, "r{i}"),
            Pile::Tableau(i) => write!(f, "t{i}"),
            Pile::Choice(i) => write!(f, "c{i}"),
        }
    }
}

fn parse_pile(code: &str) -> Result<Pile, String> {
    let code = code.trim();
    match code {
        "s" => return Ok(Pile::Stock),
        "w" => return Ok(Pile::Waste),
        _ => {}
    }
    let mut chars = code.chars();
    let kind = chars.next().ok_or("a pile is missing")?;
    let index: u8 = chars
        .as_str()
        .parse()
        .map_err(|_| format!("`{code}` is not a pile: expected s, w, f0-f3, r0.., t0.. or c0.."))?;
    match kind {
        'f' => Ok(Pile::Foundation(index)),
        'r' => Ok(Pile::Reserve(index)),
        't' => Ok(Pile::Tableau(index)),
        'c' => Ok(Pile::Choice(index)),
        _ => Err(format!(
            "`{code}` is not a pile: expected s, w, f0-f3, r0.., t0.. or c0.."
        )),
    }
}

impl fmt::Display for Pile {
    /// The pile's JSON name: `stock`, `waste`, `foundation:3`, `reserve:0`, `tableau:2`, `choice:4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pile::Stock => f.write_str("stock"),
            Pile::Waste => f.write_str("waste"),
            Pile::Foundation(i) => write!(f, "foundation:{i}"),
            Pile::Reserve(i) => write!(f, "reserve:{i}"),
            Pile::Tableau(i) => write!(f, "tableau:{i}"),
            Pile::Choice(i) => write!(f, "choice:{i}"),
        }
    }
}

impl FromStr for Pile {
    type Err = String;

    /// Reads a pile's JSON name.
    fn from_str(name: &str) -> Result<Pile, String> {
        let expected = || {
            format!("`{name}` is not a pile: expected stock, waste, foundation:I, reserve:I, tableau:I or choice:I")
        };
        match name {
            "stock" => return Ok(Pile::Stock),
            "waste" => return Ok(Pile::Waste),
            _ => {}
        }
        let (kind, index) = name.split_once(':').ok_or_else(expected)?;
        let index: u8 = index.parse().map_err(|_| expected())?;
        match kind {
            "foundation" => Ok(Pile::Foundation(index)),
            "reserve" => Ok(Pile::Reserve(index)),
            "tableau" => Ok(Pile::Tableau(index)),
            "choice" => Ok(Pile::Choice(index)),
            _ => Err(expected()),
        }
    }
}

impl Serialize for Pile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Pile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        let moves = [
            Move::new(Pile::Waste, Pile::Foundation(2), 1),
            Move::new(Pile::Tableau(0), Pile::Tableau(3), 2),
            Move::new(Pile::Reserve(1), Pile::Tableau(11), 1),
            Move::new(Pile::Choice(3), Pile::Foundation(1), 1),
            Move::new(Pile::Foundation(0), Pile::Tableau(2), 1),
        ];
        for mv in moves {
            assert_eq!(mv.to_string().parse::<Move>(), Ok(mv), "{mv}");
        }
        assert_eq!("t0-t3x2".parse::<Move>().map(|m| m.count), Ok(2));
        assert!("DRAW".parse::<Move>().is_ok_and(|m| m.is_draw()));
        assert!("w-s".parse::<Move>().is_ok_and(|m| m.is_redeal()));
    }

    #[test]
    fn json_form_uses_pile_names() {
        let mv = Move::new(Pile::Tableau(0), Pile::Foundation(3), 1);
        let json = serde_json::to_string(&mv).unwrap_or_default();
        assert_eq!(
            json,
            r#"{"from":"tableau:0","to":"foundation:3","count":1}"#
        );
        assert_eq!(Move::parse(&json), Ok(mv));
    }

    #[test]
    fn bad_moves_are_refused_with_a_reason() {
        for bad in [
            "",
            "w",
            "w-",
            "q1-t0",
            "t0-t1x0",
            "t0-t1x",
            "tx-t1",
            "t0t1",
            "{\"from\":\"pile:1\"}",
        ] {
            let err = Move::parse(bad);
            assert!(err.is_err(), "{bad} parsed");
        }
        assert!(Move::parse("z1-t0")
            .unwrap_err()
            .to_string()
            .contains("not a pile"));
    }
}
