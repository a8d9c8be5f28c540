//! Invariants over random games, random deals and random play: the pack stays whole, undo restores the exact
//! position, every generated move is legal, the JSON form round-trips, and a game undone to the start is the
//! deal again.

use std::collections::HashSet;
use std::sync::Arc;

use patience_core::json::PositionJson;
use patience_core::{builtin, Card, Game, Move, Pile, Position, RuleSet};
use proptest::prelude::*;

/// Every built-in game and variant.
fn all_rules() -> Vec<&'static RuleSet> {
    builtin::games().iter().chain(builtin::extras()).collect()
}

/// Deal numbers from both generators: Microsoft's below 32000, MT19937 above.
fn deal_number() -> impl Strategy<Value = u64> {
    prop_oneof![1u64..32000, 32000u64..=(1u64 << 40)]
}

/// Every card of the position, foundations included, each checked to appear once.
fn check_pack(rules: &RuleSet, p: &Position) -> Result<(), TestCaseError> {
    let mut seen = HashSet::new();
    let mut piles: Vec<Pile> = p.piles().collect();
    piles.extend((0..4).map(Pile::Foundation));
    let mut total = 0;
    for pile in piles {
        let cards: Vec<Card> = p.cards(pile);
        prop_assert_eq!(cards.len(), p.len(pile), "{} counts its cards", pile);
        total += cards.len();
        for card in cards {
            prop_assert!(seen.insert(card), "{} appears twice", card);
        }
    }
    prop_assert_eq!(total, rules.pack_size());
    prop_assert_eq!(total, 52);
    Ok(())
}

/// The JSON form, written out as text and read back, gives the same position.
fn check_json(rules: &RuleSet, p: &Position) -> Result<(), TestCaseError> {
    let json = p.to_json(rules);
    let text = serde_json::to_string(&json).expect("serialise");
    let parsed = PositionJson::parse(&text).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&parsed, &json);
    let back = Position::from_json(rules, &parsed)
        .map_err(|e| TestCaseError::fail(format!("{}: {e}\n{text}", rules.id)))?;
    prop_assert_eq!(back, *p, "{}", text);
    Ok(())
}

/// Plays up to `choices.len()` random moves, checking every invariant at every step.
fn random_play(rules: &RuleSet, number: u64, choices: &[u32]) -> Result<(), TestCaseError> {
    let mut p = Position::deal(rules, number).expect("deal");
    let mut moves = Vec::new();
    for &choice in choices {
        check_pack(rules, &p)?;
        check_json(rules, &p)?;
        p.legal_moves_into(rules, &mut moves);
        let distinct: HashSet<_> = moves.iter().collect();
        prop_assert_eq!(distinct.len(), moves.len(), "a move given twice");
        // The moves from each pile are the legal moves from that pile, in the same order.
        for from in p.piles().chain((0..4).map(Pile::Foundation)) {
            let mut from_pile = Vec::new();
            p.for_each_legal_move_from(rules, from, |mv| from_pile.push(mv));
            let filtered: Vec<Move> = moves.iter().copied().filter(|mv| mv.from == from).collect();
            prop_assert_eq!(from_pile, filtered, "moves from {}", from);
        }
        if moves.is_empty() {
            prop_assert!(p.is_won() || p.is_stuck(rules), "no moves but not stuck");
            break;
        }
        if p.is_won() {
            prop_assert!(!p.is_stuck(rules));
        }
        let mv = moves[choice as usize % moves.len()];
        // The checked play accepts it and does what apply does.
        let mut checked = p;
        let undo_checked = checked
            .play(rules, mv)
            .map_err(|e| TestCaseError::fail(format!("{}: generated {e}", rules.id)))?;
        let before = p;
        let undo = p.apply(rules, mv);
        prop_assert_eq!(checked, p);
        prop_assert_eq!(undo_checked, undo);
        prop_assert_ne!(p, before, "{} changed nothing", mv);
        // Undo restores the exact position; apply again gives the same one.
        let after = p;
        p.undo(undo);
        prop_assert_eq!(p, before);
        p.apply(rules, mv);
        prop_assert_eq!(p, after);
        // The move's notation reads back as the move (a draw or redeal gets its count from the position).
        let read: Move = mv
            .to_string()
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(before.complete(rules, read), mv);
    }
    check_pack(rules, &p)?;
    check_json(rules, &p)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_invariant(
        game in 0usize..20,
        number in deal_number(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        let games = all_rules();
        random_play(games[game % games.len()], number, &choices)?;
    }

    #[test]
    fn a_game_undone_to_the_start_is_the_deal_again(
        game in 0usize..20,
        number in deal_number(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        let games = all_rules();
        let rules = Arc::new(games[game % games.len()].clone());
        let mut g = Game::new(Arc::clone(&rules), number).expect("deal");
        let start = *g.position();
        prop_assert_eq!(start, Position::deal(&rules, number).expect("deal"));
        let mut positions = vec![start];
        for &choice in &choices {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            g.play(mv).map_err(|e| TestCaseError::fail(e.to_string()))?;
            positions.push(*g.position());
        }
        prop_assert_eq!(g.move_count(), positions.len() - 1);
        let end = *g.position();
        // Undo walks back through every position, then redo forward again.
        while g.undo().is_some() {
            positions.pop();
            prop_assert_eq!(Some(g.position()), positions.last());
        }
        prop_assert_eq!(*g.position(), start);
        prop_assert_eq!(g.move_count(), 0);
        while g.redo().is_some() {}
        prop_assert_eq!(*g.position(), end);
        g.restart();
        prop_assert_eq!(*g.position(), start);
    }

    #[test]
    fn every_deal_holds_the_whole_pack(game in 0usize..20, number in deal_number()) {
        let games = all_rules();
        let rules = games[game % games.len()];
        let p = Position::deal(rules, number).expect("deal");
        check_pack(rules, &p)?;
        check_json(rules, &p)?;
        prop_assert_eq!(p, Position::deal(rules, number).expect("deal"), "deals are repeatable");
    }
}

proptest! {
    /// Exchanging two cards swaps their places and nothing else; a card on a foundation leaves the position as
    /// it was.
    #[test]
    fn an_exchange_swaps_two_cards_and_nothing_else(
        game in 0..builtin::games().len(),
        deal in deal_number(),
        a in 0u8..52,
        b in 0u8..52,
    ) {
        let rules = &builtin::games()[game];
        let position = Position::deal(rules, deal).expect("a deal");
        let (a, b) = (Card::from_index(a).expect("a card"), Card::from_index(b).expect("a card"));
        let place = |p: &Position, card: Card| {
            p.piles().find_map(|pile| p.cards(pile).iter().position(|&c| c == card).map(|i| (pile, i)))
        };
        let mut exchanged = position;
        exchanged.exchange(a, b);
        match (place(&position, a), place(&position, b)) {
            (Some(at_a), Some(at_b)) => {
                prop_assert_eq!(place(&exchanged, a), Some(at_b));
                prop_assert_eq!(place(&exchanged, b), Some(at_a));
                for pile in position.piles() {
                    prop_assert_eq!(exchanged.len(pile), position.len(pile));
                }
                exchanged.exchange(a, b);
                prop_assert_eq!(exchanged, position);
            }
            _ => prop_assert_eq!(exchanged, position),
        }
    }
}
