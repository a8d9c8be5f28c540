//! Why a move is illegal, in words a player understands.

use crate::card::Card;
use crate::card::Suit;
use crate::moves::Move;
use crate::position::{Pile, Position};
use crate::rules::{Build, Moves, RuleSet};

/// A move the rules do not allow here, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is illegal: {reason}")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// Why it is not allowed.
    pub reason: String,
}

impl Position {
    /// Says why `mv` is not legal here. Only for messages: legality itself is decided by move generation.
    pub(crate) fn explain_illegal(&self, rules: &RuleSet, mv: Move) -> IllegalMove {
        IllegalMove {
            mv,
            reason: self.reason(rules, mv),
        }
    }

    fn reason(&self, rules: &RuleSet, mv: Move) -> String {
        for pile in [mv.from, mv.to] {
            if !self.has_pile(pile) {
                return format!("this game has no {pile}");
            }
        }
        if self.choice_pending() && !matches!(mv.from, Pile::Choice(_)) {
            return "the base card must be chosen first: move a card of the choice row to its foundation"
                .into();
        }
        if mv.is_draw() || mv.is_redeal() {
            return self.stock_reason(rules, mv);
        }
        if mv.from == mv.to {
            return "a pile cannot move onto itself".into();
        }
        let len = self.len(mv.from);
        if len == 0 {
            return format!("{} is empty", mv.from);
        }
        if mv.count == 0 || mv.count as usize > len {
            return format!("{} holds {len} cards, not {}", mv.from, mv.count);
        }
        match mv.to {
            Pile::Stock | Pile::Waste | Pile::Reserve(_) | Pile::Choice(_) => {
                return format!("nothing may be played onto {}", mv.to)
            }
            _ => {}
        }
        if matches!(mv.from, Pile::Stock) {
            return "the stock's cards come out only by drawing".into();
        }
        if let Pile::Foundation(_) = mv.from {
            if !rules.foundations.cards_go_back {
                return "cards never come back from the foundations in this game".into();
            }
            if matches!(mv.to, Pile::Foundation(_)) || self.len(mv.to) == 0 {
                return "a foundation card may go back only onto a tableau card it builds on"
                    .into();
            }
        }
        if mv.count > 1 && !matches!(mv.from, Pile::Tableau(_)) {
            return format!("only the top card of {} is available", mv.from);
        }
        if let Pile::Foundation(suit) = mv.to {
            return self.foundation_reason(mv, Suit::from_index(suit as usize));
        }
        if let Pile::Tableau(_) = mv.from {
            let counts = self.movable_counts(rules, mv.from);
            if counts & (1 << mv.count) == 0 {
                return self.count_reason(rules, mv, len);
            }
        }
        self.target_reason(rules, mv)
    }

    fn stock_reason(&self, rules: &RuleSet, mv: Move) -> String {
        let stock = self.len(Pile::Stock);
        if mv.is_draw() {
            if stock == 0 {
                return "the stock is empty".into();
            }
            let turned = stock.min(rules.stock.draw as usize);
            return format!("a draw turns {turned} cards here, not {}", mv.count);
        }
        if stock > 0 {
            return "the waste is turned over only when the stock is empty".into();
        }
        if self.len(Pile::Waste) == 0 {
            return "the waste is empty".into();
        }
        if self.redeals_left() == Some(0) {
            return "no redeal is left".into();
        }
        format!(
            "a redeal turns the whole waste ({} cards), not {}",
            self.len(Pile::Waste),
            mv.count
        )
    }

    fn foundation_reason(&self, mv: Move, suit: Suit) -> String {
        let Some(card) = self.top(mv.from) else {
            return format!("{} is empty", mv.from);
        };
        if card.suit() != suit {
            return format!("{card} belongs on the {} foundation", card.suit().symbol());
        }
        match self.foundation_next(suit) {
            None if self.base_rank().is_none() => "the base rank is not fixed yet".into(),
            None => format!("the {} foundation is full", suit.symbol()),
            Some(next) => format!(
                "the {} foundation takes {next} next, not {card}",
                suit.symbol()
            ),
        }
    }

    fn count_reason(&self, rules: &RuleSet, mv: Move, len: usize) -> String {
        let run = self.run_length(rules, mv.from);
        if mv.count as usize > run {
            return format!("only the top {run} cards of {} form a run", mv.from);
        }
        let what = match rules.tableau.moves {
            Moves::Top => "only the top card of a tableau pile moves",
            Moves::WholePile => "only a whole tableau pile moves",
            Moves::TopOrWhole => "only the top card or the whole pile moves",
            Moves::AnyRun => "the cards must form a run",
        };
        match rules.tableau.top_card_from_piles_of {
            Some(n) => format!(
                "{what} ({} has {len} cards; the top card alone moves from a pile of {n})",
                mv.from
            ),
            None => format!("{what} ({} has {len} cards)", mv.from),
        }
    }

    fn target_reason(&self, rules: &RuleSet, mv: Move) -> String {
        let Pile::Tableau(t) = mv.to else {
            return "not a legal move here".into();
        };
        let capacity = rules.capacity(t as usize);
        if self.len(mv.to) + mv.count as usize > capacity {
            return format!("{} holds at most {capacity} card(s)", mv.to);
        }
        let moved = match mv.from {
            Pile::Foundation(_) => self.top(mv.from),
            from => {
                let pile = self.pile(from);
                pile.get(pile.len() - mv.count as usize)
                    .and_then(|&c| crate::card::Card::from_index(c))
            }
        };
        let Some(card) = moved else {
            return format!("{} is empty", mv.from);
        };
        match self.top(mv.to) {
            Some(onto) => {
                let builders = self.cards_built_on(rules, onto);
                let mut takes: Vec<String> = Card::pack()
                    .filter(|c| builders >> c.index() & 1 == 1)
                    .map(|c| c.to_string())
                    .collect();
                let takes = match takes.pop() {
                    None => format!("nothing goes on {onto}"),
                    Some(last) if takes.is_empty() => format!("{onto} takes {last}"),
                    Some(last) => format!("{onto} takes {} or {last}", takes.join(", ")),
                };
                format!(
                    "{card} does not go on {onto}: the tableau builds down{}; {takes}",
                    match rules.tableau.build {
                        Build::AnySuit => " regardless of suit",
                        Build::AlternateColours => " in alternate colours",
                        Build::SameSuit => " in suit",
                    }
                )
            }
            None => {
                let sources = rules.at_will_sources(self.reserve_empty());
                if matches!(mv.from, Pile::Tableau(_))
                    && self.changes_nothing(rules, mv.from, mv.to, mv.count as usize)
                {
                    "moving a whole pile into a space changes nothing".into()
                } else if sources.is_empty() {
                    "a space here is never filled by the player".into()
                } else {
                    let names: Vec<&str> = sources.iter().map(|s| s.name()).collect();
                    format!("a space may be filled only from {}", names.join(" or "))
                }
            }
        }
    }
}
