//! Scripted Monkey Mart expert: a priority list over the shop's state
//! (shelves, ripe crops, the queue, the assistant, money; never the random
//! customer stream ahead).
//!
//! 1. Carrying produce: fill up while the crop still has ripe items, then
//!    take it to its shelf.
//! 2. A customer waits at the counter (and no cashier serves) or cash lies
//!    there: go and serve / pocket it.
//! 3. Enough money for the cashier: buy it.
//! 4. The assistant sleeps while the corn shelf runs low: wake him.
//! 5. A shelf is short of what the customers still want (plus a reserve):
//!    harvest that crop.
//! 6. Otherwise stand at the counter.
//!
//! Walking: step along the axis with the larger gap until within 50 px of
//! the spot on both axes (a 0.5 s press walks 100 px, the work reach is
//! 60 px), then wait there.

use super::{
    AssistantState, CARRY_MAX, CASHIER_COST, CROP, CustomerState, MonkeyMart, PAD_CASHIER, Product,
    REACH, SERVE, SHELF, SHELF_MAX, Spot, near,
};

const ALIGN: f64 = 50.0;

fn go(game: &MonkeyMart, s: Spot) -> &'static str {
    let (x, y) = game.position();
    let (dx, dy) = (s.x - x, s.y - y);
    if dx.abs() > ALIGN && dx.abs() >= dy.abs() {
        if dx > 0.0 { "move_right" } else { "move_left" }
    } else if dy.abs() > ALIGN {
        if dy > 0.0 { "move_down" } else { "move_up" }
    } else if dx.abs() > ALIGN {
        if dx > 0.0 { "move_right" } else { "move_left" }
    } else {
        "wait"
    }
}

/// Items of `p` customers still have to take from the shelf.
fn demand(game: &MonkeyMart, p: Product) -> u32 {
    game.customers()
        .iter()
        .filter(|c| {
            c.want == p && matches!(c.state, CustomerState::ToShelf | CustomerState::Picking)
        })
        .map(|c| c.count - c.got)
        .sum()
}

pub fn choose(game: &MonkeyMart) -> &'static str {
    // 1. Stock what we carry (after filling our arms while at the crop).
    if let Some((p, n)) = game.carrying()
        && game.shelf(p) < SHELF_MAX
    {
        let (x, y) = game.position();
        let c = CROP[p as usize];
        if n < CARRY_MAX && game.ripe(p) > 0 && near(x, y, c, REACH) {
            return "wait";
        }
        return go(game, SHELF[p as usize]);
    }
    // 2. Serve the queue, pocket the cash.
    let waiting = game
        .customers()
        .iter()
        .any(|c| matches!(c.state, CustomerState::Queued | CustomerState::Paying));
    if (waiting && !game.has_cashier()) || game.cash_on_counter() >= 12 {
        return go(game, SERVE);
    }
    // 3. Hire the cashier.
    if !game.has_cashier() && game.money() >= CASHIER_COST {
        return go(game, PAD_CASHIER);
    }
    // 4. Wake the assistant.
    let a = game.assistant();
    if a.state == AssistantState::Asleep && game.shelf(Product::Corn) < 4 {
        return go(game, Spot { x: a.x, y: a.y });
    }
    // 5. Harvest for the emptiest shelf the customers need.
    let mut best: Option<(i64, Product)> = None;
    for &p in game.products() {
        if p == Product::Corn && a.state != AssistantState::Asleep {
            continue;
        }
        let short = demand(game, p) as i64 + 4 - game.shelf(p) as i64;
        if short > 0 && game.ripe(p) > 0 && best.is_none_or(|(b, _)| short > b) {
            best = Some((short, p));
        }
    }
    if let Some((_, p)) = best {
        let carried = game.carrying().map_or(0, |(_, n)| n);
        if carried < CARRY_MAX {
            return go(game, CROP[p as usize]);
        }
    }
    if game.carrying().is_some() {
        return go(game, SHELF[game.carrying().unwrap().0 as usize]);
    }
    go(game, SERVE)
}
