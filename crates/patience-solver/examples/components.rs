//! How much a search by reversible-move components would save: `components GAME DEAL MAX_POSITIONS`.
//!
//! Walks the positions reachable from a deal, depth first with every legal move (no pruning), up to
//! MAX_POSITIONS, and joins two positions when a tableau-to-tableau move leads from one to the other and its
//! reverse is legal and leads back. Joined positions reach each other, so they share a verdict. It prints the
//! positions, their components, the distinct tableau arrangements, and the components of those (the same joins,
//! on the tableau alone), and the stock/waste/foundation layers with the most positions.
use std::collections::HashMap;

use patience_core::{builtin, Move, Pile, Position};
use xxhash_rust::xxh3::xxh3_128;

/// A position's key for the walk: everything but the order of the tableau piles; with `tableau_only`, the
/// tableau piles alone, sorted.
fn key(p: &Position, tableau_only: bool) -> u128 {
    let mut bytes = Vec::with_capacity(160);
    if !tableau_only {
        bytes.push(p.redeals_left().unwrap_or(255));
        bytes.push(p.base_rank().map_or(255, |r| r.index()));
        for i in 0..p.choice_piles() as u8 {
            bytes.extend_from_slice(p.pile(Pile::Choice(i)));
            bytes.push(255);
        }
        for pile in [Pile::Stock, Pile::Waste] {
            bytes.extend_from_slice(p.pile(pile));
            bytes.push(255);
        }
        for s in 0..4 {
            bytes.push(p.foundation_len(s) as u8);
        }
        for i in 0..p.reserve_piles() as u8 {
            bytes.extend_from_slice(p.pile(Pile::Reserve(i)));
            bytes.push(255);
        }
    }
    let mut t: Vec<&[u8]> = (0..p.tableau_piles() as u8)
        .map(|i| p.pile(Pile::Tableau(i)))
        .collect();
    t.sort();
    for pile in t {
        bytes.extend_from_slice(pile);
        bytes.push(255);
    }
    xxh3_128(&bytes)
}

/// The root of `x`'s set in the union-find forest `uf`, halving the path on the way.
fn find(uf: &mut [u32], mut x: u32) -> u32 {
    while uf[x as usize] != x {
        uf[x as usize] = uf[uf[x as usize] as usize];
        x = uf[x as usize];
    }
    x
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rules = builtin::rules(&args[0]).expect("game");
    let deal: u64 = args[1].parse().expect("a deal number");
    let cap: usize = args[2].parse().expect("the most positions to walk");
    let root = Position::deal(&rules, deal).expect("a deal");
    let mut ids: HashMap<u128, u32> = HashMap::new();
    let mut tabs: HashMap<u128, u32> = HashMap::new();
    let mut tab_of: Vec<u32> = Vec::new();
    let mut uf: Vec<u32> = Vec::new();
    let mut tuf: Vec<u32> = Vec::new();
    let mut stack = vec![root];
    ids.insert(key(&root, false), 0);
    uf.push(0);
    let tk = key(&root, true);
    tabs.insert(tk, 0);
    tuf.push(0);
    tab_of.push(0);
    let mut moves = Vec::new();
    let mut won = false;
    let mut hist: std::collections::BTreeMap<(usize, usize, usize), usize> = Default::default();
    while let Some(p) = stack.pop() {
        if ids.len() >= cap {
            break;
        }
        let pid = ids[&key(&p, false)];
        moves.clear();
        p.legal_moves_into(&rules, &mut moves);
        for &mv in &moves {
            let mut c = p;
            c.apply(&rules, mv);
            if c.is_won() {
                won = true;
            }
            let k = key(&c, false);
            let cid = match ids.get(&k) {
                Some(&id) => id,
                None => {
                    let id = ids.len() as u32;
                    ids.insert(k, id);
                    uf.push(id);
                    let tk = key(&c, true);
                    let n = tabs.len() as u32;
                    let tid = *tabs.entry(tk).or_insert(n);
                    if tid == n {
                        tuf.push(n);
                    }
                    tab_of.push(tid);
                    *hist
                        .entry((c.len(Pile::Stock), c.len(Pile::Waste), c.foundation_cards()))
                        .or_insert(0usize) += 1;
                    stack.push(c);
                    id
                }
            };
            let tableau_move = matches!((mv.from, mv.to), (Pile::Tableau(_), Pile::Tableau(_)));
            if tableau_move {
                let back = Move::new(mv.to, mv.from, mv.count);
                let mut legal = Vec::new();
                c.legal_moves_into(&rules, &mut legal);
                if legal.contains(&back) {
                    let mut b = c;
                    b.apply(&rules, back);
                    if key(&b, false) == key(&p, false) {
                        let (a, z) = (find(&mut uf, pid), find(&mut uf, cid));
                        uf[a as usize] = z;
                        let (ta, tz) = (tab_of[pid as usize], tab_of[cid as usize]);
                        let (a, z) = (find(&mut tuf, ta), find(&mut tuf, tz));
                        tuf[a as usize] = z;
                    }
                }
            }
        }
    }
    let mut layers: Vec<_> = hist.iter().collect();
    layers.sort_by_key(|(_, &n)| std::cmp::Reverse(n));
    println!(
        "layers (stock, waste, foundation cards) {}: {:?}",
        layers.len(),
        &layers[..layers.len().min(25)]
    );
    let n = uf.len();
    let comps = (0..n as u32).filter(|&i| find(&mut uf, i) == i).count();
    let tn = tuf.len();
    let tcomps = (0..tn as u32).filter(|&i| find(&mut tuf, i) == i).count();
    println!(
        "{} deal {deal}: won-seen {won} exhausted {} positions {n} components {comps} tableaux {tn} tableau-components {tcomps}",
        rules.id,
        stack.is_empty()
    );
}
