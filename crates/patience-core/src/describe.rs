//! The rules of a game in plain words, generated from its rule set so that they can never drift from what the
//! engine plays.

use crate::rules::{
    Base, Build, DealStep, Layout, Moves, RankOrder, Redeals, ReservePick, RuleSet, ScoreKind,
    Source, Take,
};

/// The rules in plain words: one paragraph a topic, each a heading and its sentences.
pub fn describe(rules: &RuleSet) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if rules.pack.ranks < 13 {
        out.push((
            "Pack",
            format!(
                "A reduced pack of {} cards: the ranks A to {} of each suit.",
                rules.pack_size(),
                crate::card::Rank::new(rules.pack.ranks - 1).map_or('?', |r| r.letter())
            ),
        ));
    }
    out.push(("Layout", layout(rules)));
    out.push(("Foundations", foundations(rules)));
    out.push(("Tableau", tableau(rules)));
    out.push(("Spaces", spaces(rules)));
    if !rules.reserve.piles.is_empty() {
        out.push((
            "Reserve",
            "Only the top card of each reserve pile is available, to the foundations, to the tableau and, \
             where the rules allow, to fill a space. Nothing is ever built on the reserve."
                .to_string(),
        ));
    }
    out.push(("Stock", stock(rules)));
    out.push(("Score", score(rules)));
    out
}

/// The rules as text: headings and paragraphs.
pub fn describe_text(rules: &RuleSet) -> String {
    let mut text = format!("{} ({})\n", rules.name, rules.id);
    if !rules.description.is_empty() {
        text.push_str(&format!("{}\n", rules.description));
    }
    for (heading, paragraph) in describe(rules) {
        text.push_str(&format!("\n{heading}\n  {paragraph}\n"));
    }
    text
}

fn layout(rules: &RuleSet) -> String {
    let mut parts = Vec::new();
    if rules.deal.base_cards_first {
        if let Some(base) = rules.fixed_base() {
            parts.push(format!(
                "the four {} are taken out and start the foundations",
                rank_plural(base.letter())
            ));
        }
    }
    for step in &rules.deal.steps {
        match step {
            DealStep::Foundation {
                take: Take::FirstOfBaseRank,
                ..
            } => parts.push(format!(
                "the first {} of the shuffled pack is taken out and starts its foundation",
                rank_name(rules.fixed_base().map_or('A', |r| r.letter()))
            )),
            DealStep::Foundation { cards, .. } if !rules.deal.base_cards_first => {
                parts.push(format!(
                    "{} to {} foundation{}",
                    count(*cards as usize, "card"),
                    if *cards == 1 { "its" } else { "their" },
                    if *cards == 1 { "" } else { "s" }
                ))
            }
            DealStep::Foundation { .. } => {}
            DealStep::Reserve { order } => {
                let sizes: Vec<String> =
                    rules.reserve.piles.iter().map(|n| n.to_string()).collect();
                parts.push(format!(
                    "{} to the reserve ({}{})",
                    count(
                        rules.reserve.piles.iter().map(|&n| n as usize).sum(),
                        "card"
                    ),
                    if sizes.len() == 1 {
                        "one pile".to_string()
                    } else {
                        format!("piles of {}", sizes.join(" and "))
                    },
                    match order {
                        crate::rules::ReserveOrder::Alternate => ", dealt alternately",
                        crate::rules::ReserveOrder::PileByPile => "",
                    }
                ))
            }
            DealStep::Tableau { .. } => parts.push(format!(
                "one card to each of the {} tableau piles{}",
                rules.tableau.piles,
                match rules.tableau.layout {
                    Layout::Row => "",
                    Layout::Cross => ", laid in a cross",
                    Layout::TwoRows => ", in two rows",
                    Layout::Rails => ", in two rows between the reserve piles",
                }
            )),
            DealStep::Choice { cards } => parts.push(format!(
                "{} in a row, from which you choose the base card; the others become the tableau",
                count(*cards as usize, "card")
            )),
        }
    }
    parts.push(format!(
        "the rest is the stock, and the first {} turned onto the waste",
        if rules.stock.draw == 1 {
            "card is".to_string()
        } else {
            format!("{} cards are", rules.stock.draw)
        }
    ));
    capitalise(&format!("{}.", parts.join("; ")))
}

fn foundations(rules: &RuleSet) -> String {
    let start = match rules.foundations.base {
        Base::Dealt => "The first card dealt to a foundation fixes the base rank; the other three cards of that rank start the other foundations as they become available.".to_string(),
        Base::Chosen => "The card you choose fixes the base rank; the other three cards of that rank start the other foundations as they become available.".to_string(),
        Base::Rank(rank) => format!("Each foundation starts with {}.", rank_name_a(rank.letter())),
    };
    let back = if rules.foundations.cards_go_back {
        " The top card of a foundation may be played back onto the tableau."
    } else {
        " Cards never come back from the foundations."
    };
    format!(
        "{start} They are built up in suit to {} cards{}.{back}",
        rules.pack.ranks,
        match rules.foundations.base {
            Base::Rank(rank) if rank.index() == 0 => "".to_string(),
            _ => ", the ace following the king".to_string(),
        }
    )
}

fn tableau(rules: &RuleSet) -> String {
    let t = &rules.tableau;
    let build = match t.build {
        Build::AnySuit => "regardless of suit",
        Build::AlternateColours => "in alternate colours",
        Build::SameSuit => "in suit",
    };
    let order = match t.order {
        RankOrder::Natural => "nothing goes on an ace",
        RankOrder::Circular => "round the corner, so a king goes on an ace",
        RankOrder::FromBase => {
            "in rank order from the base rank upward, without wrapping (with base 2 the ace ranks above the king)"
        }
    };
    let moves = match t.moves {
        Moves::Top => "Only the top card of a pile moves.",
        Moves::WholePile => "Only a whole pile moves, as a unit.",
        Moves::TopOrWhole => "The top card alone or the whole pile moves.",
        Moves::AnyRun => "The top card or any run moves.",
    };
    let mut text = format!(
        "{} piles, built down {build}; {order}. {moves} Top cards are available to the foundations.",
        t.piles
    );
    if let Some(n) = t.top_card_from_piles_of {
        text.push_str(&format!(
            " The top card alone may also move from a pile of exactly {n} cards."
        ));
    }
    for capacity in &t.capacity {
        text.push_str(&format!(
            " Pile {} holds at most {}.",
            capacity.pile,
            count(capacity.cards as usize, "card")
        ));
    }
    text
}

fn spaces(rules: &RuleSet) -> String {
    let s = &rules.tableau.spaces;
    let mut parts = Vec::new();
    if !s.forced.is_empty() {
        parts.push(format!(
            "A space is filled at once from {}{}",
            sources(&s.forced),
            match s.forced_reserve {
                ReservePick::Fullest if rules.reserve.piles.len() > 1 => {
                    " (from the reserve pile with more cards, the first on a tie)"
                }
                _ => "",
            }
        ));
    }
    let has_reserve = !rules.reserve.piles.is_empty();
    let while_reserve = &s.at_will;
    let after = rules.at_will_sources(true);
    if has_reserve && while_reserve != after {
        parts.push(if while_reserve.is_empty() {
            "while the reserve has cards the player never fills a space".to_string()
        } else {
            format!(
                "while the reserve has cards, the player may fill a space from {}",
                sources(while_reserve)
            )
        });
        parts.push(if after.is_empty() {
            "once it is empty a space stays empty".to_string()
        } else {
            format!(
                "once it is empty, from {}, when the player likes",
                sources(after)
            )
        });
    } else if after.is_empty() {
        parts.push(if s.forced.is_empty() {
            "a space is never filled".to_string()
        } else {
            "when none has a card, the space stays empty".to_string()
        });
    } else {
        parts.push(format!(
            "the player may fill a space from {}, when they like",
            sources(after)
        ));
    }
    if !after.contains(&Source::Tableau) && !while_reserve.contains(&Source::Tableau) {
        parts.push("tableau cards never move into a space".into());
    }
    capitalise(&format!("{}.", parts.join("; ")))
}

fn stock(rules: &RuleSet) -> String {
    let draw = if rules.stock.draw == 1 {
        "Turn one card at a time from the stock onto the waste".to_string()
    } else {
        format!(
            "Turn {} cards at a time from the stock onto the waste, the last turned on top",
            rules.stock.draw
        )
    };
    let redeals = match rules.stock.redeals {
        Redeals::Unlimited => "redeal as often as you like".to_string(),
        Redeals::Limited(0) => "there is no redeal".to_string(),
        Redeals::Limited(n) => format!(
            "when the stock is empty the waste is turned over to make a new stock, {}",
            match n {
                1 => "once".to_string(),
                2 => "twice".to_string(),
                n => format!("{n} times"),
            }
        ),
    };
    format!("{draw}; only its top card is available; {redeals}.")
}

fn score(rules: &RuleSet) -> String {
    let casino = format!(
        "casino dollars: the pack costs ${} and each card on the foundations pays ${}",
        rules.score.pack_price, rules.score.per_card
    );
    match rules.score.default {
        ScoreKind::Casino => format!("In {casino}; cards on the foundations are counted too."),
        ScoreKind::Cards => format!("Cards on the foundations; also in {casino}."),
    }
}

fn sources(list: &[Source]) -> String {
    let names: Vec<&str> = list.iter().map(|s| s.name()).collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{}, or else {last}", rest.join(", ")),
        None => "nowhere".to_string(),
    }
}

fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn rank_name(letter: char) -> &'static str {
    match letter {
        'A' => "ace",
        '2' => "two",
        '3' => "three",
        '4' => "four",
        '5' => "five",
        '6' => "six",
        '7' => "seven",
        '8' => "eight",
        '9' => "nine",
        'T' => "ten",
        'J' => "jack",
        'Q' => "queen",
        _ => "king",
    }
}

fn rank_name_a(letter: char) -> String {
    let name = rank_name(letter);
    let article = if name.starts_with(['a', 'e']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

fn rank_plural(letter: char) -> String {
    match rank_name(letter) {
        "six" => "sixes".to_string(),
        name => format!("{name}s"),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}
