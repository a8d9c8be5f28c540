//! Text for people: a position drawn as its layout, and moves described by the cards they move.
//!
//! Every pile is drawn as a column headed by its code in the move notation (`f3 ♦`, `r0`, `t2`, `s`, `w`), its
//! cards bottom to top, so that a reader can write the moves they see. The tableau follows the rule set's layout
//! hint: a row, two rows, Four Seasons' cross with the foundations in the corners, or Gate's rails between its
//! two posts.

use patience_core::game;
use patience_core::rules::{Layout, Redeals, RuleSet};
use patience_core::{Card, Move, Pile, Position, Suit};

/// Columns every pile takes at least, so that piles line up from one row of the drawing to the next.
const CELL: usize = 6;
/// Spaces between piles side by side.
const GAP: usize = 2;
/// Waste cards shown, at least (more when a draw turns more).
const WASTE_SHOWN: usize = 3;
/// What an empty pile shows.
const EMPTY: &str = "--";

/// How cards are written.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Whether red cards are coloured with ANSI escapes.
    pub colour: bool,
}

/// The position drawn as text: `title`, a status line, then the piles as the layout hint places them.
pub fn draw(rules: &RuleSet, position: &Position, title: &str, style: Style) -> String {
    let mut out = format!("{title}\n{}\n", status(rules, position));
    for band in bands(rules, position, style) {
        out.push('\n');
        for line in band {
            out.push_str(line.text.trim_end());
            out.push('\n');
        }
    }
    out
}

/// The cards a move takes and where they go, in words: `7H 6S onto 8C`, `QC into the space`.
pub fn describe_move(position: &Position, mv: Move) -> String {
    if mv.is_draw() {
        return format!(
            "turn {} from the stock onto the waste",
            count(mv.count as usize, "card")
        );
    }
    if mv.is_redeal() {
        return format!(
            "turn the waste over ({}) to make a new stock",
            count(mv.count as usize, "card")
        );
    }
    let moved: Vec<Card> = match mv.from {
        Pile::Foundation(_) => position.top(mv.from).into_iter().collect(),
        from => {
            let cards = position.cards(from);
            let start = cards.len().saturating_sub(mv.count as usize);
            cards[start..].to_vec()
        }
    };
    let cards = names(&moved);
    match (mv.from, mv.to, position.top(mv.to)) {
        (Pile::Choice(_), _, _) => format!("choose {cards} as the base card"),
        (_, _, Some(onto)) => format!("{cards} onto {onto}"),
        (_, Pile::Foundation(suit), None) => format!(
            "{cards} to start the {} foundation",
            Suit::from_index(suit as usize).symbol()
        ),
        (_, Pile::Tableau(_), None) => format!("{cards} into the space"),
        _ => cards,
    }
}

/// One line of a drawing, with its width on screen (escape sequences take none).
#[derive(Debug, Clone, Default)]
struct Line {
    text: String,
    width: usize,
}

impl Line {
    fn plain(text: &str) -> Line {
        Line {
            text: text.to_string(),
            width: text.chars().count(),
        }
    }

    fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.width += text.chars().count();
    }

    fn push_card(&mut self, card: Card, style: Style) {
        if style.colour && card.is_red() {
            self.text.push_str(&format!("\x1b[31m{card}\x1b[0m"));
            self.width += 2;
        } else {
            self.push(&card.to_string());
        }
    }

    fn card(card: Card, style: Style) -> Line {
        let mut line = Line::default();
        line.push_card(card, style);
        line
    }

    fn pad_to(&mut self, width: usize) {
        if self.width < width {
            self.push(&" ".repeat(width - self.width));
        }
    }
}

/// Lines drawn one under the other.
type Block = Vec<Line>;

/// The status line: base rank, redeals, cards on the foundations (and casino dollars), won or stuck.
fn status(rules: &RuleSet, position: &Position) -> String {
    let mut parts = vec![
        match position.base_rank() {
            Some(rank) => format!("base rank {rank}"),
            None => "base rank not chosen yet".to_string(),
        },
        match position.redeals_left() {
            None => "redeals unlimited".to_string(),
            Some(0) if rules.stock.redeals == Redeals::Limited(0) => "no redeal".to_string(),
            Some(0) => "no redeal left".to_string(),
            Some(n) => format!("{} left", count(n as usize, "redeal")),
        },
    ];
    let score = game::score(rules, position);
    let on_foundations = format!("{} on the foundations", count(score.cards, "card"));
    parts.push(if rules.casino_scored() {
        format!("{on_foundations} ({})", dollars(score.casino_dollars))
    } else {
        on_foundations
    });
    if position.is_won() {
        parts.push("won".to_string());
    } else if position.is_stuck(rules) {
        parts.push("stuck".to_string());
    }
    parts.join(", ")
}

/// The drawing's rows of piles, each to be set off by a blank line.
fn bands(rules: &RuleSet, position: &Position, style: Style) -> Vec<Block> {
    let foundations: Vec<Block> = (0..4).map(|s| foundation(position, s, style)).collect();
    let reserve: Vec<Block> = (0..position.reserve_piles() as u8)
        .map(|i| reserve_pile(rules, position, i, style))
        .collect();
    let mut tableau: Vec<Block> = (0..position.tableau_piles() as u8)
        .map(|i| tableau_pile(position, i, style))
        .collect();
    let stock_waste = vec![stock(rules, position), waste(rules, position, style)];
    let mut bands = Vec::new();
    if position.choice_pending() {
        bands.push(choice_row(position, style));
    }
    match rules.tableau.layout {
        Layout::Cross if tableau.len() == 5 && reserve.is_empty() => {
            let mut f = foundations.into_iter();
            let mut t = tableau.into_iter();
            let next = |piles: &mut std::vec::IntoIter<Block>| piles.next().unwrap_or_default();
            let top = vec![next(&mut f), next(&mut t), next(&mut f)];
            let middle = vec![next(&mut t), next(&mut t), next(&mut t)];
            let bottom = vec![next(&mut f), next(&mut t), next(&mut f)];
            bands.push(beside(top));
            bands.push(beside(middle));
            bands.push(beside(bottom));
            bands.push(beside(stock_waste));
        }
        Layout::Rails if !reserve.is_empty() => {
            bands.push(beside(foundations));
            let lower = tableau.split_off(tableau.len().div_ceil(2));
            let rails = above(vec![beside(tableau), beside(lower)]);
            let mut posts = reserve.into_iter();
            let mut row = vec![posts.next().unwrap_or_default(), rails];
            row.extend(posts);
            bands.push(beside(row));
            bands.push(beside(stock_waste));
        }
        layout => {
            let mut top = foundations;
            if !reserve.is_empty() {
                top.push(Block::new());
                top.extend(reserve);
            }
            bands.push(beside(top));
            if layout == Layout::Row {
                bands.push(beside(tableau));
            } else {
                let lower = tableau.split_off(tableau.len().div_ceil(2));
                bands.push(beside(tableau));
                bands.push(beside(lower));
            }
            bands.push(beside(stock_waste));
        }
    }
    bands
}

/// A foundation: its code and suit, its top card, how many of its cards are on it.
fn foundation(position: &Position, suit: u8, style: Style) -> Block {
    let pile = Pile::Foundation(suit);
    let label = format!("f{suit} {}", Suit::from_index(suit as usize).symbol());
    vec![
        Line::plain(&label),
        top_or_empty(position, pile, style),
        Line::plain(&format!("{}/{}", position.len(pile), position.ranks())),
    ]
}

/// A reserve pile: every card when the rules lay it face up, else its top card and how many cards it holds.
fn reserve_pile(rules: &RuleSet, position: &Position, i: u8, style: Style) -> Block {
    let pile = Pile::Reserve(i);
    let mut block = vec![Line::plain(&format!("r{i}"))];
    if rules.reserve.face_up {
        block.extend(cards_or_empty(position, pile, style));
    } else {
        block.push(top_or_empty(position, pile, style));
        if position.len(pile) > 0 {
            block.push(Line::plain(&count(position.len(pile), "card")));
        }
    }
    block
}

/// A tableau pile: every card, bottom to top.
fn tableau_pile(position: &Position, i: u8, style: Style) -> Block {
    let mut block = vec![Line::plain(&format!("t{i}"))];
    block.extend(cards_or_empty(position, Pile::Tableau(i), style));
    block
}

/// The stock: face down, so only how many cards it holds.
fn stock(rules: &RuleSet, position: &Position) -> Block {
    let len = position.len(Pile::Stock);
    vec![
        Line::plain("s"),
        Line::plain(&if len == 0 {
            EMPTY.to_string()
        } else {
            count(len, "card")
        }),
        Line::plain(&format!("draw {}", rules.stock.draw)),
    ]
}

/// The waste: its top few cards in a line, the top card last, and how many cards it holds.
fn waste(rules: &RuleSet, position: &Position, style: Style) -> Block {
    let cards = position.cards(Pile::Waste);
    let shown = WASTE_SHOWN.max(rules.stock.draw as usize);
    let mut line = Line::default();
    if cards.is_empty() {
        line.push(EMPTY);
    } else {
        if cards.len() > shown {
            line.push("… ");
        }
        for (i, &card) in cards[cards.len().saturating_sub(shown)..]
            .iter()
            .enumerate()
        {
            if i > 0 {
                line.push(" ");
            }
            line.push_card(card, style);
        }
    }
    let mut block = vec![Line::plain("w"), line];
    if !cards.is_empty() {
        block.push(Line::plain(&count(cards.len(), "card")));
    }
    block
}

/// The choice row, while the base card is still to be chosen.
fn choice_row(position: &Position, style: Style) -> Block {
    let cells = (0..position.choice_piles() as u8)
        .map(|i| {
            vec![
                Line::plain(&format!("c{i}")),
                top_or_empty(position, Pile::Choice(i), style),
            ]
        })
        .collect();
    let mut block = vec![Line::plain(
        "choose the base card: move one of these to its foundation",
    )];
    block.extend(beside(cells));
    block
}

fn top_or_empty(position: &Position, pile: Pile, style: Style) -> Line {
    position
        .top(pile)
        .map_or_else(|| Line::plain(EMPTY), |card| Line::card(card, style))
}

fn cards_or_empty(position: &Position, pile: Pile, style: Style) -> Block {
    let cards = position.cards(pile);
    if cards.is_empty() {
        return vec![Line::plain(EMPTY)];
    }
    cards
        .into_iter()
        .map(|card| Line::card(card, style))
        .collect()
}

/// Blocks side by side, each at least [`CELL`] wide, [`GAP`] apart, aligned at the top.
fn beside(blocks: Vec<Block>) -> Block {
    let height = blocks.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = blocks
        .iter()
        .map(|block| block.iter().map(|l| l.width).max().unwrap_or(0).max(CELL))
        .collect();
    (0..height)
        .map(|row| {
            let mut line = Line::default();
            for (i, (block, &width)) in blocks.iter().zip(&widths).enumerate() {
                if i > 0 {
                    line.pad_to(line.width + GAP);
                }
                let target = line.width + width;
                if let Some(part) = block.get(row) {
                    line.text.push_str(&part.text);
                    line.width += part.width;
                }
                line.pad_to(target);
            }
            line
        })
        .collect()
}

/// Blocks one under the other, a blank line apart.
fn above(blocks: Vec<Block>) -> Block {
    let mut out = Block::new();
    for (i, block) in blocks.into_iter().enumerate() {
        if i > 0 {
            out.push(Line::default());
        }
        out.extend(block);
    }
    out
}

fn names(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn dollars(amount: i64) -> String {
    if amount < 0 {
        format!("-${}", -amount)
    } else {
        format!("${amount}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;

    #[test]
    fn colour_marks_red_cards_only() {
        let rules = builtin::rules("canfield").expect("canfield");
        let position = Position::deal(&rules, 1).expect("deal 1");
        let text = draw(&rules, &position, "t", Style { colour: true });
        assert!(text.contains("\x1b[31mJD\x1b[0m"), "{text}");
        assert!(text.contains("\x1b[31m3H\x1b[0m"), "{text}");
        assert!(!text.contains("\x1b[31mKS"), "{text}");
        let plain = draw(&rules, &position, "t", Style { colour: false });
        assert!(!plain.contains('\x1b'));
    }

    #[test]
    fn coloured_piles_line_up_as_plain_ones() {
        let rules = builtin::rules("gate").expect("gate");
        let position = Position::deal(&rules, 1).expect("deal 1");
        let strip = |text: String| text.replace("\x1b[31m", "").replace("\x1b[0m", "");
        assert_eq!(
            strip(draw(&rules, &position, "t", Style { colour: true })),
            draw(&rules, &position, "t", Style { colour: false })
        );
    }

    #[test]
    fn moves_are_described_by_their_cards() {
        let rules = builtin::rules("canfield").expect("canfield");
        let position = Position::deal(&rules, 1).expect("deal 1");
        let describe = |text: &str| {
            let mv = position.complete(&rules, text.parse().expect("notation"));
            describe_move(&position, mv)
        };
        assert_eq!(describe("r0-t3"), "QC onto KH");
        assert_eq!(describe("w-f1"), "JS to start the ♠ foundation");
        assert_eq!(
            describe("draw"),
            "turn 3 cards from the stock onto the waste"
        );
    }
}
