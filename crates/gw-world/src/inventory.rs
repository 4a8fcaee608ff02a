//! The player's inventory (9 hotbar + 27 main slots), crafting (the macro
//! action and grid matching), smelting, and mining speed and drops.

use crate::data::{BlockId, Data, ItemId, Recipe, ToolKind, data};
use gw_core::Rng;
use serde::Serialize;

pub const SLOTS: usize = 36;
pub const HOTBAR: usize = 9;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stack {
    pub item: ItemId,
    pub count: u8,
    /// Uses spent, for tools.
    pub wear: u16,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inventory {
    pub slots: [Option<Stack>; SLOTS],
}

impl Default for Inventory {
    fn default() -> Self {
        Inventory {
            slots: [None; SLOTS],
        }
    }
}

impl Inventory {
    pub fn count(&self, item: ItemId) -> u32 {
        self.slots
            .iter()
            .flatten()
            .filter(|s| s.item == item)
            .map(|s| s.count as u32)
            .sum()
    }

    /// Add items, filling matching stacks first, then empty slots (hotbar
    /// first). Returns how many did not fit.
    pub fn add(&mut self, item: ItemId, count: u32) -> u32 {
        fill(&mut self.slots, item, count)
    }

    /// Add a crafting result as a player takes it from the grid, into the
    /// hand's reach: onto a hotbar stack of the item with room, then into
    /// free hotbar slots, then as [`Inventory::add`] does. (Added as if
    /// picked up, a result joins a stack of its kind in the main inventory,
    /// where no action of the world can reach it: a furnace or crafting
    /// table there can never be placed, and each new one crafted would join
    /// it.) Returns how many did not fit.
    pub fn add_to_hotbar(&mut self, item: ItemId, count: u32) -> u32 {
        let left = fill(&mut self.slots[..HOTBAR], item, count);
        self.add(item, left)
    }

    /// Remove up to `count` items (last slots first); returns how many went.
    pub fn remove(&mut self, item: ItemId, count: u32) -> u32 {
        let mut left = count;
        for slot in self.slots.iter_mut().rev() {
            if left == 0 {
                break;
            }
            if let Some(s) = slot
                && s.item == item
            {
                let take = (s.count as u32).min(left);
                s.count -= take as u8;
                left -= take;
                if s.count == 0 {
                    *slot = None;
                }
            }
        }
        count - left
    }

    /// Slots holding nothing.
    pub fn free_slots(&self) -> usize {
        self.slots.iter().filter(|s| s.is_none()).count()
    }

    /// Whether `count` more of `item` fit.
    pub fn room_for(&self, item: ItemId, count: u32) -> bool {
        let mut probe = self.clone();
        probe.add(item, count) == 0
    }

    /// Item totals in item-id order.
    pub fn totals(&self) -> Vec<(ItemId, u32)> {
        let mut t = std::collections::BTreeMap::new();
        for s in self.slots.iter().flatten() {
            *t.entry(s.item).or_insert(0) += s.count as u32;
        }
        t.into_iter().collect()
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CraftError {
    UnknownItem(String),
    NoRecipe(String),
    NeedsTable(String),
    MissingInputs(String),
    NeedsFurnace(String),
    NoFuel(String),
    InventoryFull(String),
}

impl std::fmt::Display for CraftError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CraftError::UnknownItem(s) => write!(f, "unknown item {s}"),
            CraftError::NoRecipe(s) => write!(f, "no recipe makes {s}"),
            CraftError::NeedsTable(s) => write!(f, "{s} needs a crafting table within reach"),
            CraftError::MissingInputs(s) => write!(f, "not enough ingredients for {s}"),
            CraftError::NeedsFurnace(s) => write!(f, "{s} needs a furnace within reach"),
            CraftError::NoFuel(s) => write!(f, "no fuel to smelt {s}"),
            CraftError::InventoryFull(s) => write!(f, "no room for {s}"),
        }
    }
}

/// The concrete items a recipe would take from this inventory, or `None`.
/// Tag ingredients take whichever accepted item the inventory holds most of.
pub fn plan_inputs(inv: &Inventory, recipe: &Recipe) -> Option<Vec<(ItemId, u32)>> {
    let mut avail: std::collections::BTreeMap<ItemId, u32> = inv.totals().into_iter().collect();
    let mut taken: Vec<(ItemId, u32)> = Vec::new();
    for (ing, mut need) in recipe.needs() {
        while need > 0 {
            let best = ing
                .options
                .iter()
                .filter_map(|o| avail.get(o).filter(|&&n| n > 0).map(|&n| (n, *o)))
                .max_by_key(|&(n, o)| (n, std::cmp::Reverse(o)))?;
            let take = best.0.min(need);
            *avail.get_mut(&best.1).unwrap() -= take;
            need -= take;
            match taken.iter_mut().find(|(i, _)| *i == best.1) {
                Some((_, n)) => *n += take,
                None => taken.push((best.1, take)),
            }
        }
    }
    Some(taken)
}

/// Put `count` of `item` into `slots`: onto stacks of it with room first,
/// then into empty slots, in slot order. Returns how many did not fit.
fn fill(slots: &mut [Option<Stack>], item: ItemId, mut count: u32) -> u32 {
    let max = data().item_def(item).stack as u32;
    for s in slots.iter_mut().flatten() {
        if count == 0 {
            break;
        }
        if s.item == item && (s.count as u32) < max {
            let take = (max - s.count as u32).min(count);
            s.count += take as u8;
            count -= take;
        }
    }
    for slot in slots.iter_mut() {
        if count == 0 {
            break;
        }
        if slot.is_none() {
            let take = max.min(count);
            *slot = Some(Stack {
                item,
                count: take as u8,
                wear: 0,
            });
            count -= take;
        }
    }
    count
}

/// The `craft(item)` macro: run the first recipe for `item` whose inputs the
/// inventory holds, once. `table` says whether a crafting table is within
/// reach. Returns how many items were made.
pub fn craft(inv: &mut Inventory, item: &str, table: bool) -> Result<u32, CraftError> {
    let d = data();
    let id = d
        .item_id(item)
        .ok_or_else(|| CraftError::UnknownItem(item.to_string()))?;
    let recipes: Vec<&Recipe> = d.recipes_for(id).collect();
    if recipes.is_empty() {
        return Err(CraftError::NoRecipe(item.to_string()));
    }
    let mut blocked_by_table = false;
    for r in recipes {
        let Some(inputs) = plan_inputs(inv, r) else {
            continue;
        };
        if r.needs_table && !table {
            blocked_by_table = true;
            continue;
        }
        let mut probe = inv.clone();
        for &(i, n) in &inputs {
            probe.remove(i, n);
        }
        if probe.add_to_hotbar(id, r.count as u32) != 0 {
            return Err(CraftError::InventoryFull(item.to_string()));
        }
        *inv = probe;
        return Ok(r.count as u32);
    }
    Err(if blocked_by_table {
        CraftError::NeedsTable(item.to_string())
    } else {
        CraftError::MissingInputs(item.to_string())
    })
}

/// Match a crafting grid (`size` 2 or 3, row-major `size × size` cells) against
/// the recipes: shaped recipes anywhere in the grid, mirrored or not;
/// shapeless ones by their multiset. Returns `(item, count)`.
pub fn match_grid(grid: &[Option<ItemId>], size: usize) -> Option<(ItemId, u8)> {
    assert_eq!(grid.len(), size * size, "grid has size × size cells");
    let filled: Vec<(usize, usize)> = (0..size * size)
        .filter(|&i| grid[i].is_some())
        .map(|i| (i % size, i / size))
        .collect();
    if filled.is_empty() {
        return None;
    }
    let x0 = filled.iter().map(|p| p.0).min().unwrap();
    let x1 = filled.iter().map(|p| p.0).max().unwrap();
    let y0 = filled.iter().map(|p| p.1).min().unwrap();
    let y1 = filled.iter().map(|p| p.1).max().unwrap();
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    let at = |x: usize, y: usize| grid[(y0 + y) * size + x0 + x];
    for r in &data().recipes {
        match &r.shape {
            Some((rw, rh, cells)) => {
                if *rw != w || *rh != h || *rw > size || *rh > size {
                    continue;
                }
                for mirror in [false, true] {
                    let ok = (0..h).all(|y| {
                        (0..w).all(|x| {
                            let cx = if mirror { w - 1 - x } else { x };
                            match (&cells[y * w + cx], at(x, y)) {
                                (None, None) => true,
                                (Some(ing), Some(item)) => ing.accepts(item),
                                _ => false,
                            }
                        })
                    });
                    if ok {
                        return Some((r.out, r.count));
                    }
                }
            }
            None => {
                if r.ingredients.len() != filled.len() || (size == 2 && r.needs_table) {
                    continue;
                }
                let mut items: Vec<ItemId> = filled
                    .iter()
                    .map(|&(x, y)| grid[y * size + x].unwrap())
                    .collect();
                let ok = r.ingredients.iter().all(|ing| {
                    match items.iter().position(|&i| ing.accepts(i)) {
                        Some(p) => {
                            items.swap_remove(p);
                            true
                        }
                        None => false,
                    }
                });
                if ok {
                    return Some((r.out, r.count));
                }
            }
        }
    }
    None
}

/// Fuel left burning in one furnace (ticks of smelting already paid for).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FurnaceFuel {
    pub burn_left: u32,
}

/// The `smelt(item)` macro: smelt one input into `item` in a furnace within
/// reach, burning fuel items (best fuel first) as needed. Returns the ticks
/// the smelt takes.
pub fn smelt(
    inv: &mut Inventory,
    item: &str,
    furnace: Option<&mut FurnaceFuel>,
) -> Result<u32, CraftError> {
    let d = data();
    let id = d
        .item_id(item)
        .ok_or_else(|| CraftError::UnknownItem(item.to_string()))?;
    let defs: Vec<_> = d.smelt_for(id).collect();
    if defs.is_empty() {
        return Err(CraftError::NoRecipe(item.to_string()));
    }
    let Some(furnace) = furnace else {
        return Err(CraftError::NeedsFurnace(item.to_string()));
    };
    for s in defs {
        let Some(input) = s
            .input
            .options
            .iter()
            .copied()
            .filter(|&o| inv.count(o) > 0)
            .max_by_key(|&o| (inv.count(o), std::cmp::Reverse(o)))
        else {
            continue;
        };
        let mut probe = inv.clone();
        probe.remove(input, 1);
        let mut fuel = *furnace;
        while fuel.burn_left < s.ticks {
            // Burn the fuel the inventory holds most burn time of, sparing
            // what the recipe makes, then what it takes (charcoal, then logs
            // when making charcoal) while any other fuel is left; never the
            // input being smelted.
            let best = probe
                .totals()
                .into_iter()
                .filter(|&(i, _)| d.item_def(i).fuel > 0)
                .max_by_key(|&(i, _)| {
                    (
                        i != id,
                        !s.input.accepts(i),
                        d.item_def(i).fuel,
                        std::cmp::Reverse(i),
                    )
                });
            let Some((f, _)) = best else {
                return Err(CraftError::NoFuel(item.to_string()));
            };
            probe.remove(f, 1);
            fuel.burn_left += d.item_def(f).fuel;
        }
        fuel.burn_left -= s.ticks;
        if probe.add(id, 1) != 0 {
            return Err(CraftError::InventoryFull(item.to_string()));
        }
        *inv = probe;
        *furnace = fuel;
        return Ok(s.ticks);
    }
    Err(CraftError::MissingInputs(item.to_string()))
}

/// How a held item meets a block: the mining speed and whether it drops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mining {
    /// Ticks of holding attack to break it; `None` = unbreakable.
    pub ticks: Option<u32>,
    pub harvests: bool,
    pub right_tool: bool,
}

/// Minecraft's rule: progress per tick = speed / hardness / 30 when the block
/// can be harvested with the held item, / 100 when not. `speed` is the tool
/// tier's speed when the tool suits the block (shears: 15 on leaves), else 1.
pub fn mining(block: BlockId, held: Option<ItemId>) -> Mining {
    let d = data();
    let def = d.block(block);
    let tool = held.and_then(|i| d.item_def(i).tool);
    let right_tool = match tool {
        Some(t) if t.kind == ToolKind::Shears => !def.shears.is_empty(),
        Some(t) => t.kind == def.tool && def.tool != ToolKind::None,
        None => false,
    };
    let harvests = def.level < 0 || (right_tool && tool.is_some_and(|t| t.level >= def.level));
    if def.hardness < 0.0 {
        return Mining {
            ticks: None,
            harvests: false,
            right_tool,
        };
    }
    if def.hardness == 0.0 {
        return Mining {
            ticks: Some(1),
            harvests,
            right_tool,
        };
    }
    let speed = match tool {
        Some(t) if right_tool && t.kind == ToolKind::Shears => 15.0,
        Some(t) if right_tool => t.speed,
        _ => 1.0,
    };
    let per_tick = speed / def.hardness / if harvests { 30.0 } else { 100.0 };
    let ticks = (1.0 / per_tick - 1e-4).ceil().max(1.0) as u32;
    Mining {
        ticks: Some(ticks),
        harvests,
        right_tool,
    }
}

/// What breaking `block` with `held` drops (random chances from `rng`).
pub fn drops(block: BlockId, held: Option<ItemId>, rng: &mut Rng) -> Vec<(ItemId, u32)> {
    let d: &Data = data();
    let def = d.block(block);
    let m = mining(block, held);
    if !m.harvests {
        return Vec::new();
    }
    let shears = held
        .and_then(|i| d.item_def(i).tool)
        .is_some_and(|t| t.kind == ToolKind::Shears);
    let table = if shears && !def.shears.is_empty() {
        &def.shears
    } else {
        &def.drops
    };
    let mut out = Vec::new();
    for drop in table {
        if drop.chance < 1.0 && rng.next_f64() >= drop.chance as f64 {
            continue;
        }
        let extra = if drop.extra > 0 {
            rng.below(drop.extra as u32 + 1)
        } else {
            0
        };
        out.push((drop.item, drop.count as u32 + extra));
    }
    out
}
