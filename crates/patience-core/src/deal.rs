//! Laying out a deal: from a deal number and a rule set to the starting position (see `DEALS.md`).

use crate::card::Card;
use crate::position::{Pile, Position};
use crate::rules::{DealStep, ReserveOrder, RuleSet, Take};
use crate::shuffle::shuffled_pack;

/// Deal number 0 was asked for; deals start at 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("there is no deal 0: deal numbers start at 1")]
pub struct NoDealZero;

impl Position {
    /// The starting position of deal `number` (from 1) under these rules, after the deal's first draw.
    pub fn deal(rules: &RuleSet, number: u64) -> Result<Position, NoDealZero> {
        if number == 0 {
            return Err(NoDealZero);
        }
        let ranks = rules.pack.ranks;
        let mut pack: Vec<Card> = shuffled_pack(number)
            .iter()
            .filter_map(|&i| Card::from_index(i))
            .filter(|card| card.rank().index() < ranks)
            .collect();
        if let (true, Some(base)) = (rules.deal.base_cards_first, rules.fixed_base()) {
            // Dealt from the end of the array, so the clubs go last to be dealt first.
            let (mut base_cards, mut rest): (Vec<Card>, Vec<Card>) =
                pack.into_iter().partition(|card| card.rank() == base);
            base_cards.sort_by_key(|card| std::cmp::Reverse(card.suit()));
            rest.append(&mut base_cards);
            pack = rest;
        }
        // The deal order: the last card of the array is dealt first.
        pack.reverse();
        let mut order = pack.into_iter();
        let mut position = Position::empty(
            rules.reserve.piles.len(),
            rules.tableau.piles as usize,
            rules.choice_cards(),
            ranks,
        );
        position.set_base_rank(rules.fixed_base());
        position.set_redeals_left(Position::initial_redeals(rules));
        for step in &rules.deal.steps {
            match step {
                DealStep::Foundation { cards, take } => {
                    for _ in 0..*cards {
                        let card = match (take, rules.fixed_base()) {
                            (Take::FirstOfBaseRank, Some(base)) => {
                                let mut rest: Vec<Card> = order.collect();
                                let found = rest.iter().position(|c| c.rank() == base);
                                let card = found.map(|i| rest.remove(i));
                                order = rest.into_iter();
                                card
                            }
                            _ => order.next(),
                        };
                        let Some(card) = card else { break };
                        if position.base_rank().is_none() {
                            position.set_base_rank(Some(card.rank()));
                        }
                        position.raise_foundation(card.suit());
                    }
                }
                DealStep::Reserve { order: how } => {
                    let sizes = &rules.reserve.piles;
                    match how {
                        ReserveOrder::PileByPile => {
                            for (pile, &size) in sizes.iter().enumerate() {
                                for card in order.by_ref().take(size as usize) {
                                    position.push(Pile::Reserve(pile as u8), card);
                                }
                            }
                        }
                        ReserveOrder::Alternate => {
                            let most = sizes.iter().copied().max().unwrap_or(0);
                            for round in 0..most {
                                for (pile, &size) in sizes.iter().enumerate() {
                                    if round < size {
                                        if let Some(card) = order.next() {
                                            position.push(Pile::Reserve(pile as u8), card);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                DealStep::Tableau { order: piles } => {
                    let piles: Vec<u8> = piles
                        .clone()
                        .unwrap_or_else(|| (0..rules.tableau.piles).collect());
                    for pile in piles {
                        if let Some(card) = order.next() {
                            position.push(Pile::Tableau(pile), card);
                        }
                    }
                }
                DealStep::Choice { cards } => {
                    for i in 0..*cards {
                        if let Some(card) = order.next() {
                            position.push(Pile::Choice(i), card);
                        }
                    }
                }
            }
        }
        // The next card in deal order is the top of the stock.
        let mut stock: Vec<Card> = order.collect();
        stock.reverse();
        for card in stock {
            position.push(Pile::Stock, card);
        }
        if let Some(draw) = position.stock_move(rules).filter(|mv| mv.is_draw()) {
            position.apply(rules, draw);
        }
        Ok(position)
    }
}
