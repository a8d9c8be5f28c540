//! Where each pile goes on the screen, following the rule set's layout hint; drawing and mouse clicks both read
//! this geometry, so a click always lands on what was drawn.
//!
//! - `row` (Canfield and its family): the stock, the waste and the foundations above; the reserve beside the
//!   tableau piles below.
//! - `two-rows` (Simplicity, Fortune's Favor): stock, waste and foundations above two rows of tableau piles.
//! - `cross` (Four Seasons, Florentine): five piles in a cross with the foundations in its corners, the stock and
//!   the waste beside it.
//! - `rails` (Gate): the two posts (reserve piles) left and right of the rails, two rows of tableau piles.
//!
//! A choice row (Selective Canfield) lies between the foundations and the tableau until the base card is chosen.
//! Each pile is a [`Spot`]: a label line (its key) and the cards under it. Piles too long for the height are
//! drawn with their bottom card, a line that stands for the hidden cards, and their top cards.

use patience_core::rules::{Layout, RuleSet};
use patience_core::{Pile, Position};
use ratatui::layout::Rect;

use super::keys::Direction;

/// Columns a card takes on screen: `10♦` and a space.
pub const CARD_WIDTH: u16 = 4;
/// Columns from one pile to the next.
pub const PITCH: u16 = 7;
/// Waste cards shown side by side, at least (more when a draw turns more).
pub const WASTE_SHOWN: usize = 3;

/// How a pile is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Every card, one a line, bottom first (tableau piles, face-up reserve piles).
    Column,
    /// The top card and, under it, a count (foundations, the stock, a face-down reserve, choice cards).
    Single,
    /// The top cards side by side, the top one last, and a count under them (the waste).
    Fan(usize),
}

/// One pile's place on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    /// The pile.
    pub pile: Pile,
    /// Its area: the label line, then the cards.
    pub area: Rect,
    /// How it is drawn.
    pub shape: Shape,
}

/// What one line of a column shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnLine {
    /// The card at this index of the pile, from the bottom.
    Card(usize),
    /// A line standing for this many hidden cards.
    Hidden(usize),
}

/// The piles of a deal placed on a screen area.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Board {
    /// Every pile shown.
    pub spots: Vec<Spot>,
    /// Where the caption of the choice row goes, while it is shown.
    pub choice_caption: Option<Rect>,
}

/// A row of piles side by side, before heights are known.
struct Band {
    /// Piles and their columns from the left of the board.
    items: Vec<(u16, Pile, Shape)>,
    /// Lines the band would like: the label and every card.
    want: u16,
    /// Lines it needs at least.
    least: u16,
    /// A caption line above the band.
    caption: bool,
}

impl Band {
    fn new(items: Vec<(u16, Pile, Shape)>, position: &Position) -> Band {
        let want = items
            .iter()
            .map(|&(_, pile, shape)| lines_wanted(position, pile, shape))
            .max()
            .unwrap_or(1);
        let least = items
            .iter()
            .map(|&(_, _, shape)| match shape {
                Shape::Column => 4,
                _ => 3,
            })
            .max()
            .unwrap_or(1)
            .min(want);
        Band {
            items,
            want,
            least,
            caption: false,
        }
    }
}

impl Board {
    /// Places the piles of `position` in `area` as the layout hint of `rules` asks.
    pub fn arrange(rules: &RuleSet, position: &Position, area: Rect) -> Board {
        let mut bands = Vec::new();
        // Gate's posts span the two rows of rails: (band index, x, pile) of each post.
        let mut posts: Vec<(usize, u16, Pile)> = Vec::new();
        let tableau: Vec<Pile> = (0..position.tableau_piles() as u8)
            .map(Pile::Tableau)
            .collect();
        let reserve: Vec<Pile> = (0..position.reserve_piles() as u8)
            .map(Pile::Reserve)
            .collect();
        let reserve_shape = if rules.reserve.face_up {
            Shape::Column
        } else {
            Shape::Single
        };
        let waste_shown = WASTE_SHOWN.max(rules.stock.draw as usize);
        let stock_waste = |x: u16| {
            vec![
                (x, Pile::Stock, Shape::Single),
                (x + PITCH, Pile::Waste, Shape::Fan(waste_shown)),
            ]
        };
        let waste_width = waste_shown as u16 * CARD_WIDTH + 2;
        let foundations_x = PITCH + waste_width.max(PITCH) + 2;
        let foundations = |x: u16| -> Vec<(u16, Pile, Shape)> {
            (0..4u8)
                .map(|s| (x + s as u16 * PITCH, Pile::Foundation(s), Shape::Single))
                .collect()
        };
        let columns = |piles: &[Pile], x: u16| -> Vec<(u16, Pile, Shape)> {
            piles
                .iter()
                .enumerate()
                .map(|(i, &p)| (x + i as u16 * PITCH, p, Shape::Column))
                .collect()
        };
        let choice = position.choice_pending().then(|| {
            let items = (0..position.choice_piles() as u8)
                .map(|i| (i as u16 * PITCH, Pile::Choice(i), Shape::Single))
                .collect();
            let mut band = Band::new(items, position);
            band.caption = true;
            band
        });
        let layout = match rules.tableau.layout {
            Layout::Cross if tableau.len() == 5 && reserve.is_empty() => Layout::Cross,
            Layout::Rails if !reserve.is_empty() => Layout::Rails,
            Layout::Rails | Layout::TwoRows => Layout::TwoRows,
            _ => Layout::Row,
        };
        match layout {
            Layout::Cross => {
                let single = |x: u16, suit: u8| (x, Pile::Foundation(suit), Shape::Single);
                let column = |x: u16, i: usize| (x, tableau[i], Shape::Column);
                let mut top = vec![single(0, 0), column(PITCH, 0), single(2 * PITCH, 1)];
                top.extend(stock_waste(4 * PITCH));
                bands.push(Band::new(top, position));
                bands.extend(choice);
                bands.push(Band::new(
                    vec![column(0, 1), column(PITCH, 2), column(2 * PITCH, 3)],
                    position,
                ));
                bands.push(Band::new(
                    vec![single(0, 2), column(PITCH, 4), single(2 * PITCH, 3)],
                    position,
                ));
            }
            Layout::TwoRows => {
                let mut top = stock_waste(0);
                top.extend(foundations(foundations_x));
                bands.push(Band::new(top, position));
                bands.extend(choice);
                let (upper, lower) = tableau.split_at(tableau.len().div_ceil(2));
                if !reserve.is_empty() {
                    bands.push(Band::new(
                        reserve
                            .iter()
                            .enumerate()
                            .map(|(i, &p)| (i as u16 * PITCH, p, reserve_shape))
                            .collect(),
                        position,
                    ));
                }
                bands.push(Band::new(columns(upper, 0), position));
                bands.push(Band::new(columns(lower, 0), position));
            }
            Layout::Rails => {
                let mut top = stock_waste(0);
                top.extend(foundations(foundations_x));
                bands.push(Band::new(top, position));
                bands.extend(choice);
                let (upper, lower) = tableau.split_at(tableau.len().div_ceil(2));
                let rails_x = PITCH + 2;
                let right_post = rails_x + upper.len() as u16 * PITCH + 1;
                let first = bands.len();
                posts.push((first, 0, reserve[0]));
                for (i, &post) in reserve.iter().enumerate().skip(1) {
                    posts.push((first, right_post + (i as u16 - 1) * PITCH, post));
                }
                let mut upper_band = Band::new(columns(upper, rails_x), position);
                let mut lower_band = Band::new(columns(lower, rails_x), position);
                // The posts' cards share the height of both rows of rails.
                let post_want = reserve
                    .iter()
                    .map(|&p| lines_wanted(position, p, reserve_shape))
                    .max()
                    .unwrap_or(0);
                let rails_want = upper_band.want + 1 + lower_band.want;
                if post_want > rails_want {
                    let extra = post_want - rails_want;
                    upper_band.want += extra / 2;
                    lower_band.want += extra - extra / 2;
                }
                upper_band.least = upper_band.least.max(3);
                lower_band.least = lower_band.least.max(3);
                bands.push(upper_band);
                bands.push(lower_band);
            }
            Layout::Row => {
                let mut top = stock_waste(0);
                top.extend(foundations(foundations_x));
                bands.push(Band::new(top, position));
                bands.extend(choice);
                let mut row: Vec<(u16, Pile, Shape)> = reserve
                    .iter()
                    .enumerate()
                    .map(|(i, &p)| (i as u16 * PITCH, p, reserve_shape))
                    .collect();
                let tableau_x = if reserve.is_empty() {
                    0
                } else {
                    reserve.len() as u16 * PITCH + 2
                };
                row.extend(columns(&tableau, tableau_x));
                bands.push(Band::new(row, position));
            }
        }
        let heights = share_height(&bands, area.height);
        let mut board = Board::default();
        let mut y = area.y;
        let mut band_tops = Vec::with_capacity(bands.len());
        for (band, &height) in bands.iter().zip(&heights) {
            if band.caption {
                board.choice_caption = Some(Rect::new(area.x, y, area.width, 1));
                y += 1;
            }
            band_tops.push(y);
            for &(x, pile, shape) in &band.items {
                let width = match shape {
                    Shape::Fan(n) => n as u16 * CARD_WIDTH + 2,
                    _ => PITCH - 1,
                };
                board.spots.push(Spot {
                    pile,
                    area: Rect::new(area.x + x, y, width, height),
                    shape,
                });
            }
            y += height + 1;
        }
        for (band, x, pile) in posts {
            let top = band_tops.get(band).copied().unwrap_or(area.y);
            let bottom = band_tops
                .get(band + 1)
                .zip(heights.get(band + 1))
                .map_or(top + heights.get(band).copied().unwrap_or(1), |(t, h)| {
                    t + h
                });
            board.spots.push(Spot {
                pile,
                area: Rect::new(area.x + x, top, PITCH - 1, bottom - top),
                shape: reserve_shape,
            });
        }
        board.clip(area);
        board
    }

    /// The spot of a pile, if it is shown.
    pub fn spot(&self, pile: Pile) -> Option<&Spot> {
        self.spots.iter().find(|s| s.pile == pile)
    }

    /// The pile at a screen cell and, when the cell shows a card of a column, how many cards that card and those
    /// above it are.
    pub fn hit(&self, position: &Position, x: u16, y: u16) -> Option<(Pile, Option<u8>)> {
        let spot = self.spots.iter().find(|s| {
            x >= s.area.x && x < s.area.right() && y >= s.area.y && y < s.area.bottom()
        })?;
        if spot.shape != Shape::Column || y == spot.area.y {
            return Some((spot.pile, None));
        }
        let len = position.len(spot.pile);
        let lines = column_lines(len, spot.area.height.saturating_sub(1) as usize);
        let line = (y - spot.area.y - 1) as usize;
        match lines.get(line) {
            Some(ColumnLine::Card(i)) => Some((spot.pile, Some((len - i) as u8))),
            _ => Some((spot.pile, None)),
        }
    }

    /// The pile next to `from` in a direction, for the arrow keys: left and right within the piles that share its
    /// lines, up and down to the nearest pile above or below.
    pub fn neighbour(&self, from: Pile, direction: Direction) -> Option<Pile> {
        let Some(here) = self.spot(from) else {
            return self.spots.first().map(|s| s.pile);
        };
        let a = here.area;
        let centre = |r: Rect| i32::from(r.x) * 2 + i32::from(r.width);
        let overlaps_rows = |r: Rect| r.y < a.bottom() && a.y < r.bottom();
        self.spots
            .iter()
            .filter(|s| s.pile != from)
            .filter_map(|s| {
                let r = s.area;
                let dx = (centre(r) - centre(a)).abs();
                let key = match direction {
                    Direction::Left if overlaps_rows(r) && r.x < a.x => {
                        (0, a.x as i32 - r.x as i32, 0)
                    }
                    Direction::Right if overlaps_rows(r) && r.x > a.x => {
                        (0, r.x as i32 - a.x as i32, 0)
                    }
                    Direction::Up if r.bottom() <= a.y => (a.y as i32 - r.y as i32, dx, 0),
                    Direction::Down if r.y >= a.bottom() => (r.y as i32 - a.y as i32, dx, 0),
                    _ => return None,
                };
                Some((key, s.pile))
            })
            .min_by_key(|&(key, _)| key)
            .map(|(_, pile)| pile)
    }

    /// Drops the spots that fall outside `area` and cuts the others to it, so that a small terminal never draws
    /// past its edge.
    fn clip(&mut self, area: Rect) {
        self.spots
            .retain(|s| s.area.x < area.right() && s.area.y < area.bottom());
        for spot in &mut self.spots {
            spot.area = spot.area.intersection(area);
        }
    }
}

/// The lines a column of `len` cards shows in `lines` lines: every card if they fit; otherwise the bottom card,
/// a line for the hidden ones, and as many top cards as fit.
pub fn column_lines(len: usize, lines: usize) -> Vec<ColumnLine> {
    if len <= lines {
        return (0..len).map(ColumnLine::Card).collect();
    }
    if lines < 3 {
        // Room for the top cards only.
        return (len - lines..len).map(ColumnLine::Card).collect();
    }
    let top = lines - 2;
    let mut out = vec![ColumnLine::Card(0), ColumnLine::Hidden(len - 1 - top)];
    out.extend((len - top..len).map(ColumnLine::Card));
    out
}

/// Lines a pile would like: its label and each card, or a label, a card and a count.
fn lines_wanted(position: &Position, pile: Pile, shape: Shape) -> u16 {
    match shape {
        Shape::Column => 1 + position.len(pile).max(1) as u16,
        Shape::Single | Shape::Fan(_) => 3,
    }
}

/// Heights for the bands: what each wants when everything fits; otherwise each gets at least its least, and the
/// lines left go one at a time to the band that lacks most.
fn share_height(bands: &[Band], height: u16) -> Vec<u16> {
    let gaps =
        bands.len().saturating_sub(1) as u16 + bands.iter().filter(|b| b.caption).count() as u16;
    let room = height.saturating_sub(gaps);
    let want: u16 = bands.iter().map(|b| b.want).sum();
    if want <= room {
        return bands.iter().map(|b| b.want).collect();
    }
    let mut heights: Vec<u16> = bands.iter().map(|b| b.least).collect();
    let mut left = room.saturating_sub(heights.iter().sum());
    while left > 0 {
        let Some((i, _)) = bands
            .iter()
            .enumerate()
            .filter(|(i, b)| heights[*i] < b.want)
            .max_by_key(|(i, b)| (b.want - heights[*i], std::cmp::Reverse(*i)))
        else {
            break;
        };
        heights[i] += 1;
        left -= 1;
    }
    heights
}

#[cfg(test)]
mod tests {
    use super::*;
    use patience_core::builtin;

    #[test]
    fn long_columns_keep_their_bottom_and_top_cards() {
        assert_eq!(
            column_lines(3, 5),
            vec![
                ColumnLine::Card(0),
                ColumnLine::Card(1),
                ColumnLine::Card(2)
            ]
        );
        assert_eq!(
            column_lines(10, 5),
            vec![
                ColumnLine::Card(0),
                ColumnLine::Hidden(6),
                ColumnLine::Card(7),
                ColumnLine::Card(8),
                ColumnLine::Card(9)
            ]
        );
    }

    #[test]
    fn every_pile_of_every_game_has_a_spot_on_a_small_screen() {
        for rules in builtin::games() {
            let position = Position::deal(rules, 1).expect("deal 1");
            let board = Board::arrange(rules, &position, Rect::new(0, 2, 80, 18));
            for pile in position.piles().chain((0..4).map(Pile::Foundation)) {
                if position.has_pile(pile)
                    && (position.choice_pending() || !matches!(pile, Pile::Choice(_)))
                {
                    assert!(board.spot(pile).is_some(), "{}: {pile}", rules.id);
                }
            }
            for a in &board.spots {
                for b in &board.spots {
                    if a.pile != b.pile {
                        assert!(
                            a.area.intersection(b.area).is_empty(),
                            "{}: {a:?} {b:?}",
                            rules.id
                        );
                    }
                }
            }
        }
    }
}
