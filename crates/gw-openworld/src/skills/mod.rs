//! The skill policy: a goal-conditioned controller that turns the current
//! [`SubGoal`] into the world's factored actions (20 per game second). What
//! it knows of blocks and mobs comes from a [`Sight`]: for the fair expert
//! only what has been in view (see [`crate::sight`]); it also reads its own
//! inventory and the cells around its body it walks and digs through —
//! never future random draws.
//!
//! - `mine`: head for the nearest known block that drops the item and mine
//!   it with the right tool — walking, tunnelling, shafting down, pillaring
//!   up. With none known it explores as a player does: a look around, then
//!   legs across the land for what grows on the surface; for stone and ores
//!   a shaft down to the layer where they occur (general knowledge:
//!   [`ore_layer`]) and a strip-mining tunnel from there, seeing the ores its
//!   walls and the caves it crosses bare.
//! - `collect`: hunt the nearest mob seen whose loot has the item (explore
//!   the surface while none is known).
//! - `craft` / `smelt`: use a crafting table or furnace within reach, walk
//!   to a placed one nearby, or place one from the hotbar; then issue the
//!   craft/smelt macro until the count is held.
//! - Failure: a step fails when its inputs, tool or station are missing, or
//!   when it makes no progress for a while; the caller re-plans.

pub mod motor;

use crate::goal::{GoalKind, SubGoal};
use crate::graph::{CRAFTING_TABLE, FURNACE, Source, world_graph};
use crate::plan::inventory_map;
use crate::sight::Sight;
use gw_world::data::{BlockId, b, data};
use gw_world::terrain::{Biome, CHUNK, HEIGHT, column};
use gw_world::world::Event;
use gw_world::{Action, World};
use motor::{Cell, add, approach, equip_and_mine, feet, hotbar_slot, in_reach, place_nearby};
use std::collections::BTreeSet;

/// Where a skill stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Running,
    Done,
    Failed(String),
}

/// Ticks without progress after which a step gives up.
pub const STALL_TICKS: u64 = 2400;
/// Ticks one mining target may take before it is skipped.
const TARGET_TICKS: u64 = 900;
/// Ticks a plant target may go without the player drawing nearer before
/// it and the plants around it are skipped.
const PLANT_STUCK_TICKS: u64 = 100;
/// Ticks a surface exploration leg may go without drawing nearer its end
/// before the next leg is taken.
const LEG_STUCK_TICKS: u64 = 100;
/// Ticks a strip-mining leg, at its layer, may go without drawing nearer
/// its end before the next leg is taken (a drop into a cave, water or lava
/// ahead that the steps around it cannot pass): digging on takes at most a
/// few dozen ticks a block.
const TUNNEL_STUCK_TICKS: u64 = 400;
/// Ticks a surface exploration leg may spend digging its way (through a
/// hill or a mountain, bare-handed) before the next leg is taken: a player
/// walks around, over or away from rock rather than tunnel through it.
const LEG_DIG_TICKS: u32 = 60;
/// Squared distance (blocks) around a stuck plant target within which the
/// plants count as out of the way too.
const PLANT_PATCH: i32 = 9;
/// How far (blocks) a placed station may be to walk back to it.
pub const STATION_RANGE: i32 = 12;

/// The skill policy for one sub-goal.
#[derive(Clone, Debug)]
pub struct SkillPolicy {
    pub goal: SubGoal,
    node: String,
    status: Status,
    last_count: u32,
    last_progress: Option<u64>,
    target: Option<(Cell, u64)>,
    skipped: BTreeSet<Cell>,
    explore: Option<Cell>,
    refused: u32,
    /// Fair exploration: the heading of the current leg (degrees, world
    /// yaw), ticks of looking around left, and legs walked.
    heading: Option<f64>,
    sweep: u32,
    legs: u32,
    /// The nearest a plant target has been (squared distance) and when.
    closest: Option<(i32, u64)>,
    /// The fewest blocks (across the land) the surface leg has had left,
    /// and when.
    leg_best: Option<(i32, u64)>,
    /// Ticks the surface leg has spent digging.
    leg_dig: u32,
    /// Surface exploration's general direction (degrees, world yaw): legs
    /// keep near it, so the explorer covers new land instead of circling
    /// its start, and it turns only where the way is barred.
    bearing: Option<f64>,
    /// Surface legs given up in a row (barred: water, cliffs, rock).
    barred: u32,
    /// Blocks deeper each next underground leg goes after legs that found
    /// no way on (a tunnel under the sea floor, lava ahead).
    deeper: i32,
}

impl SkillPolicy {
    pub fn new(goal: SubGoal) -> SkillPolicy {
        let node = world_graph()
            .canonical(&goal.item)
            .unwrap_or_else(|| goal.item.clone());
        SkillPolicy {
            goal,
            node,
            status: Status::Running,
            last_count: 0,
            last_progress: None,
            target: None,
            skipped: BTreeSet::new(),
            explore: None,
            refused: 0,
            heading: None,
            sweep: 0,
            legs: 0,
            closest: None,
            leg_best: None,
            leg_dig: 0,
            bearing: None,
            barred: 0,
            deeper: 0,
        }
    }

    /// Takes the block under the crosshair as the mining target when it is
    /// one this sub-goal mines, the hotbar can harvest it, and it is in
    /// reach; returns whether it did. The expert's own runs never call
    /// this; a labeller does (DAgger), whose player went somewhere of its
    /// own: a log in front of it is the one to chop, not the one the
    /// expert had picked before.
    pub fn aim_at_crosshair(&mut self, w: &World) -> bool {
        if self.goal.kind != GoalKind::Mine || self.status != Status::Running {
            return false;
        }
        let Some(t) = w.target() else {
            return false;
        };
        if !in_reach(w, t.pos)
            || self.skipped.contains(&t.pos)
            || !self.mined_kinds(w).contains(&t.block)
        {
            return false;
        }
        if self.target.map(|(c, _)| c) != Some(t.pos) {
            self.target = Some((t.pos, w.tick));
            self.closest = None;
        }
        true
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// Carry on after `ticks` spent on something else (throwing surplus
    /// away): the step's clocks (progress, target, leg) move on with them.
    pub fn resume_after(&mut self, ticks: u64) {
        let later = |t: &mut u64| *t += ticks;
        if let Some(t) = &mut self.last_progress {
            later(t);
        }
        if let Some((_, t)) = &mut self.target {
            later(t);
        }
        if let Some((_, t)) = &mut self.closest {
            later(t);
        }
        if let Some((_, t)) = &mut self.leg_best {
            later(t);
        }
    }

    /// How many of the goal's item the player holds.
    pub fn held(&self, w: &World) -> u32 {
        world_graph().held(&usable_inventory(w), &self.node)
    }

    fn fail(&mut self, why: String) -> Action {
        self.status = Status::Failed(why);
        Action::noop()
    }

    /// One tick, knowing what `sight` knows.
    pub fn act(&mut self, w: &World, sight: &mut Sight) -> Action {
        if self.status != Status::Running {
            return Action::noop();
        }
        let held = self.held(w);
        if held >= self.goal.count {
            self.status = Status::Done;
            return Action::noop();
        }
        match self.last_progress {
            None => {
                self.last_progress = Some(w.tick);
                self.last_count = held;
            }
            Some(t) => {
                if held > self.last_count {
                    self.last_count = held;
                    self.last_progress = Some(w.tick);
                } else if w.tick.saturating_sub(t) > STALL_TICKS {
                    return self.fail(format!(
                        "no progress on {} for {STALL_TICKS} ticks",
                        self.goal
                    ));
                }
            }
        }
        for e in &w.events {
            if let Event::Failed { .. } = e {
                self.refused += 1;
            }
        }
        if self.refused > 5 {
            return self.fail(format!("the world refused {} repeatedly", self.goal));
        }
        match self.goal.kind {
            GoalKind::Mine => self.mine(w, sight),
            GoalKind::Collect => self.collect(w, sight),
            GoalKind::Craft => self.craft(w),
            GoalKind::Smelt => self.smelt(w),
        }
    }

    fn mine(&mut self, w: &World, sight: &mut Sight) -> Action {
        let a = self.mine_step(w, sight);
        let kinds = self.mined_kinds(w);
        if !kinds.is_empty() && kinds.iter().all(|&k| mowable(k)) {
            mow(w, a, &kinds)
        } else {
            a
        }
    }

    /// The blocks mined for the goal's item that the hotbar's tools can
    /// harvest now.
    fn mined_kinds(&self, w: &World) -> Vec<BlockId> {
        let d = data();
        let mut kinds = Vec::new();
        for s in world_graph().sources.get(&self.node).into_iter().flatten() {
            if let Source::Mine { blocks, tool, .. } = s
                && tool.as_ref().is_none_or(|t| hotbar_has_tool(w, t))
            {
                kinds.extend(blocks.iter().filter_map(|n| d.block_id(n)));
            }
        }
        kinds
    }

    fn mine_step(&mut self, w: &World, sight: &mut Sight) -> Action {
        let g = world_graph();
        let d = data();
        let inv = inventory_map(&w.player.inventory);
        let mut kinds: Vec<BlockId> = Vec::new();
        let mut missing_tool = None;
        for s in g.sources.get(&self.node).into_iter().flatten() {
            if let Source::Mine { blocks, tool, .. } = s {
                if let Some(t) = tool
                    && !hotbar_has_tool(w, t)
                {
                    missing_tool = Some(if g.has_tool(&inv, t) {
                        format!("a {} of level {} is not in the hotbar", t.kind, t.level)
                    } else {
                        format!("no {} of level {} to mine {}", t.kind, t.level, self.node)
                    });
                    continue;
                }
                kinds.extend(blocks.iter().filter_map(|n| d.block_id(n)));
            }
        }
        if kinds.is_empty() {
            return self
                .fail(missing_tool.unwrap_or_else(|| format!("{} is not mined", self.node)));
        }
        // Keep the target while it is known to be there and not overdue.
        if let Some((c, _)) = self.target
            && motor::dist2(feet(w), c) <= 64
        {
            sight.verify(w, c);
        }
        let plants = kinds.iter().all(|&k| mowable(k));
        if let Some((c, since)) = self.target {
            let there = sight.block(w, c).is_some_and(|v| kinds.contains(&v));
            // A plant is broken at the first hit: one not drawing nearer for
            // a few seconds is out of the way (below a cliff, across
            // water), and so are the plants around it.
            let d = motor::dist2(feet(w), c);
            let stuck = plants
                && match self.closest {
                    Some((best, t)) if d >= best => w.tick - t > PLANT_STUCK_TICKS,
                    _ => {
                        self.closest = Some((d, w.tick));
                        false
                    }
                };
            if stuck {
                let near: Vec<Cell> = sight
                    .known()
                    .filter(|&(k, v)| kinds.contains(&v) && motor::dist2(k, c) <= PLANT_PATCH)
                    .map(|(k, _)| k)
                    .collect();
                self.skipped.extend(near);
            }
            if !there || stuck || w.tick - since > TARGET_TICKS {
                if there {
                    self.skipped.insert(c);
                }
                self.target = None;
            }
        }
        if self.target.is_none() {
            self.target = sight.nearest(w, &kinds, &self.skipped).map(|c| (c, w.tick));
            self.closest = None;
            if self.target.is_some() {
                // A new leg starts after this target.
                self.heading = None;
                self.explore = None;
            }
        }
        let Some((c, _)) = self.target else {
            return if sight.all_seeing() {
                self.explore(w, &kinds)
            } else {
                self.explore_fair(w, &kinds)
            };
        };
        if in_reach(w, c)
            && let Some(a) = equip_and_mine(w, c)
        {
            return a;
        }
        match approach(w, c, w.tick) {
            Some(a) => a,
            None => {
                self.skipped.insert(c);
                self.target = None;
                Action::noop()
            }
        }
    }

    /// The all-seeing expert's exploration: walk towards the nearest wooded
    /// column (logs) the terrain generator reports, or any land.
    fn explore(&mut self, w: &World, kinds: &[BlockId]) -> Action {
        let f = feet(w);
        if self
            .explore
            .is_none_or(|e| (e[0] - f[0]).abs() + (e[2] - f[2]).abs() < 4)
        {
            let woody = kinds.iter().any(|&k| d_name(k).ends_with("_log"));
            let seed = w.terrain.seed;
            let mut best = None;
            'rings: for r in (24..=320).step_by(8) {
                for i in 0..(r / 2) {
                    let a = i as f64 / (r / 2) as f64 * std::f64::consts::TAU;
                    let x = f[0] + (libm::cos(a) * r as f64) as i32;
                    let z = f[2] + (libm::sin(a) * r as f64) as i32;
                    let col = column(seed, x, z);
                    let good = if woody {
                        matches!(col.biome, Biome::Forest | Biome::Taiga)
                    } else {
                        col.biome != Biome::Ocean
                    };
                    if good && !self.skipped.contains(&[x, 0, z]) {
                        best = Some([x, col.height + 1, z]);
                        break 'rings;
                    }
                }
            }
            self.explore = Some(best.unwrap_or([f[0] + 64, f[1], f[2]]));
        }
        let goal = self.explore.unwrap_or(f);
        approach(w, goal, w.tick).unwrap_or_else(|| {
            self.skipped.insert([goal[0], 0, goal[2]]);
            self.explore = None;
            Action::noop()
        })
    }

    /// One tick of exploring the surface (looking around and walking legs),
    /// whatever the goal.
    pub fn explore_now(&mut self, w: &World, sight: &Sight) -> Action {
        if sight.all_seeing() {
            self.explore(w, &[])
        } else {
            self.explore_fair(w, &[])
        }
    }

    fn collect(&mut self, w: &World, sight: &mut Sight) -> Action {
        let e = w.eye();
        let mob = sight
            .mobs(w)
            .into_iter()
            .filter(|(_, kind, _)| kind.loot().any(|item| item == self.node))
            .min_by(|a, b| {
                let da = libm::hypot(a.2[0] - e[0], a.2[2] - e[2]);
                let db = libm::hypot(b.2[0] - e[0], b.2[2] - e[2]);
                da.total_cmp(&db).then(a.0.cmp(&b.0))
            });
        let Some((id, _, pos)) = mob else {
            return if sight.all_seeing() {
                self.explore(w, &[])
            } else {
                self.explore_fair(w, &[])
            };
        };
        // Close by: the mob is in reach of the senses whether or not in view.
        if let Some(m) = w.mobs.iter().find(|m| m.id == id)
            && let Some(a) = attack_mob(w, m)
        {
            return a;
        }
        let c = [
            libm::floor(pos[0]) as i32,
            libm::floor(pos[1]) as i32,
            libm::floor(pos[2]) as i32,
        ];
        if motor::dist2(feet(w), c) <= 2 {
            // It was here and is gone (or it was killed): look elsewhere.
            sight.forget_mob(id);
        }
        approach(w, c, w.tick).unwrap_or_else(|| {
            sight.forget_mob(id);
            self.explore_fair(w, &[])
        })
    }

    /// Exploration as a player does it, knowing only what it has seen:
    /// for stone and ores ([`ore_layer`]) a shaft down to their layer and a
    /// strip-mining tunnel along a heading; for anything else a look around
    /// (a full turn of the camera), then a leg of [`LEG`] blocks across the
    /// land, the next leg turned away from the last.
    fn explore_fair(&mut self, w: &World, kinds: &[BlockId]) -> Action {
        let f = feet(w);
        let layer = kinds.iter().filter_map(|&k| ore_layer(k)).max();
        // What grows on the surface is found there: under a roof of rock
        // (after mining), climb out first.
        if layer.is_none()
            && !motor::sky_above(w)
            && let Some(a) = approach(w, add(f, [0, 8, 0]), w.tick)
        {
            return a;
        }
        if self.heading.is_none() {
            // A new leg. Underground: the first along the view, each next
            // one turned by an amount that varies with the leg (not a square
            // path). On the surface: near the bearing (the first leg's
            // heading), a little to either side; after a barred leg, turned
            // further and further from it, and after three barred legs in a
            // row the bearing itself turns to the last heading tried.
            let heading = if layer.is_some() {
                let turn = [0.0, 110.0, 250.0, 75.0, 200.0, 140.0][self.legs as usize % 6];
                w.player.yaw + turn
            } else {
                let bearing = *self.bearing.get_or_insert(w.player.yaw);
                let h = if self.barred == 0 {
                    bearing + [0.0, 25.0, -25.0][self.legs as usize % 3]
                } else {
                    bearing + [70.0, -70.0, 140.0, -140.0][(self.barred as usize - 1) % 4]
                };
                if self.barred >= 3 {
                    self.bearing = Some(h);
                    self.barred = 0;
                }
                h
            };
            self.heading = Some(heading);
            self.legs += 1;
            self.explore = None;
            self.leg_best = None;
            self.leg_dig = 0;
            if layer.is_none() {
                self.sweep = SWEEP_TICKS;
            }
        }
        if self.sweep > 0 && layer.is_none() {
            self.sweep -= 1;
            let pitch = if w.player.pitch > 15.0 {
                -5.0
            } else if w.player.pitch < 5.0 {
                5.0
            } else {
                0.0
            };
            return Action {
                yaw: gw_world::action::camera::decode(gw_world::action::camera::BINS - 1),
                pitch: gw_world::action::camera::snap(pitch),
                ..Default::default()
            };
        }
        let h = self.heading.unwrap_or(0.0).to_radians();
        let (sx, sz) = (-libm::sin(h), libm::cos(h));
        let goal = *self.explore.get_or_insert_with(|| {
            let y = match layer {
                // Stone: under the soil, a few blocks down.
                Some(top) if top >= 60 => (f[1] - 8 - self.deeper).max(8),
                Some(top) => (top.min(f[1]) - self.deeper).max(12),
                None => f[1],
            };
            let len = if layer.is_some() { TUNNEL_LEG } else { LEG };
            [
                f[0] + (sx * len as f64) as i32,
                y,
                f[2] + (sz * len as f64) as i32,
            ]
        });
        let reached = (goal[0] - f[0]).abs() + (goal[2] - f[2]).abs() < 3
            && (layer.is_none() || (goal[1] - f[1]).abs() < 2);
        // A surface leg that has not drawn nearer its end for a while (a
        // cliff out of the water, a wall it would have to tunnel bare-handed)
        // is given up for the next one, as a player turns away.
        // The same holds for a strip-mining leg once at its layer (the
        // shaft down does not draw nearer across the land).
        let left = (goal[0] - f[0]).abs() + (goal[2] - f[2]).abs();
        let at_layer = layer.is_none() || f[1] <= goal[1] + 1;
        let stuck = if layer.is_none() {
            LEG_STUCK_TICKS
        } else {
            TUNNEL_STUCK_TICKS
        };
        let blocked = at_layer
            && match self.leg_best {
                Some((best, t)) if left >= best => w.tick - t > stuck,
                _ => {
                    self.leg_best = Some((left, w.tick));
                    false
                }
            };
        if reached || blocked {
            self.leg_best = None;
            self.heading = None;
            self.barred = if blocked { self.barred + 1 } else { 0 };
            return self.explore_fair(w, kinds);
        }
        // Shaft down to the layer first, then tunnel along the heading.
        if layer.is_some()
            && f[1] > goal[1] + 1
            && let Some(a) = motor::dig_down(w)
        {
            return a;
        }
        // On the surface the leg's end is aimed at from a block above the
        // feet, so a rise ahead is climbed, not dug through.
        let aim = if layer.is_none() {
            [goal[0], f[1] + 1, goal[2]]
        } else {
            goal
        };
        match approach(w, aim, w.tick) {
            Some(a) if layer.is_none() && a.attack => {
                // Digging through the land on a surface leg: a little (a
                // bush, a dirt step) is fine; a hill's worth is not.
                self.leg_dig += 1;
                if self.leg_dig > LEG_DIG_TICKS {
                    self.leg_best = None;
                    self.heading = None;
                    self.barred += 1;
                    return motor::look(w, w.player.yaw + 90.0, 0.0);
                }
                a
            }
            Some(a) => a,
            None => {
                self.heading = None;
                self.explore = None;
                self.barred += 1;
                if layer.is_some() {
                    self.deeper = (self.deeper + 3).min(24);
                }
                // Turn away at once (no idle tick).
                motor::look(w, w.player.yaw + 90.0, 0.0)
            }
        }
    }

    fn craft(&mut self, w: &World) -> Action {
        let d = data();
        let g = world_graph();
        let names: Vec<String> = g
            .groups
            .get(&self.node)
            .cloned()
            .unwrap_or_else(|| vec![self.node.clone()]);
        let inv = &w.player.inventory;
        let mut pick: Option<(String, bool)> = None;
        for n in &names {
            let Some(id) = d.item_id(n) else { continue };
            if let Some(r) = d
                .recipes_for(id)
                .find(|r| gw_world::inventory::plan_inputs(inv, r).is_some())
            {
                pick = Some((n.clone(), r.needs_table));
                break;
            }
        }
        let Some((name, needs_table)) = pick else {
            return self.fail(format!("missing ingredients for {}", self.node));
        };
        if needs_table && w.block_in_reach(b::CRAFTING_TABLE).is_none() {
            return self.station(w, b::CRAFTING_TABLE, CRAFTING_TABLE);
        }
        // A tool or station must land in the hotbar to be used: free a slot
        // by building with a stack of filler blocks first.
        let out = d.item(&name);
        let def = d.item_def(out);
        let must_select = used_from_hotbar(def);
        // A tool does not stack: each one made needs a slot of its own.
        if must_select && (def.tool.is_some() || hotbar_slot(w, out).is_none()) {
            if let Some(a) = free_hotbar_slot(w) {
                return a;
            }
            // Made now, it would land out of reach in the main inventory.
            if (0..gw_world::inventory::HOTBAR).all(|i| w.player.inventory.slots[i].is_some()) {
                if hotbar_slot(w, out).is_some() {
                    // One is at hand already: the rest were spares.
                    self.status = Status::Done;
                    return Action::noop();
                }
                // Nothing to place or drop here (swimming, a cramped
                // spot): move on a few blocks and try again there, as a
                // player looks for room; the stall rule ends a hopeless try.
                if let Some(a) = step_aside(w) {
                    return a;
                }
                return self.fail(format!("no hotbar slot free for the {name}"));
            }
        }
        Action {
            craft: Some(name),
            ..Default::default()
        }
    }

    fn smelt(&mut self, w: &World) -> Action {
        if w.block_in_reach(b::FURNACE).is_none() {
            return self.station(w, b::FURNACE, FURNACE);
        }
        Action {
            smelt: Some(self.node.clone()),
            ..Default::default()
        }
    }

    /// Get within reach of a station: walk to a placed one nearby, or place
    /// one from the hotbar.
    fn station(&mut self, w: &World, block: BlockId, item: &str) -> Action {
        if let Some(c) = nearest_within(w, block, STATION_RANGE)
            && let Some(a) = approach(w, c, w.tick)
        {
            return a;
        }
        let d = data();
        match hotbar_slot(w, d.item(item)) {
            Some(slot) => place_nearby(w, slot)
                .or_else(|| dig_pocket(w))
                .unwrap_or_else(|| {
                    // No free spot in view: step aside and try again.
                    step_aside(w).unwrap_or_default()
                }),
            None if w.player.inventory.count(d.item(item)) > 0 => {
                self.fail(format!("the {item} is not in the hotbar"))
            }
            None => self.fail(format!("no {item} placed nearby or held")),
        }
    }
}

/// One tick of walking a few blocks aside (digging if need be), the
/// direction turning every few seconds: a new spot when this one has no
/// room to place a block or a station.
fn step_aside(w: &World) -> Option<Action> {
    const ASIDE: [Cell; 4] = [[3, 0, 1], [-1, 0, 3], [-3, 0, -1], [1, 0, -3]];
    let f = feet(w);
    approach(w, add(f, ASIDE[(w.tick / 80) as usize % 4]), w.tick)
}

/// How far down (degrees) the camera looks while mowing plants on the
/// move: the crosshair then crosses the plants one to three blocks ahead.
pub const MOW_PITCH: f64 = 30.0;

/// Plants that break at the first hit (tall grass): gathered by mowing.
fn mowable(k: BlockId) -> bool {
    let d = data().block(k);
    !d.solid && d.hardness == 0.0
}

/// Mowing, as a player gathers seeds from a meadow: whatever the step does
/// (walk to the next plant, aim at it, explore), hit a wanted plant the
/// crosshair is on this tick, and walk looking down at [`MOW_PITCH`] so the
/// crosshair sweeps the plants ahead rather than the horizon. Steps that
/// select, use or mine something else are left as they are.
fn mow(w: &World, mut a: Action, kinds: &[BlockId]) -> Action {
    if a.attack || a.use_item || a.hotbar.is_some() || a.craft.is_some() || a.smelt.is_some() {
        return a;
    }
    let hit =
        gw_world::world::raycast_blocks(&w.terrain, w.eye(), w.look_dir(), gw_world::world::REACH);
    if hit.is_some_and(|t| kinds.contains(&t.block)) {
        a.attack = true;
    }
    if a.forward && !w.player.body.in_water {
        let dp = (MOW_PITCH - w.player.pitch).clamp(-motor::MAX_TURN, motor::MAX_TURN);
        a.pitch = gw_world::action::camera::snap(dp as f32);
    }
    a
}

/// In a cramped tunnel or shaft with no spot to place a station: one tick
/// of mining a wall block beside the feet or the head (no liquid beyond or
/// above), which opens such a spot. Never a block that drops filler (dirt,
/// sand, …): that would undo the filler just placed to free a hotbar slot,
/// and the player would place and dig the same block forever.
fn dig_pocket(w: &World) -> Option<Action> {
    let f = feet(w);
    [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 0, 1],
        [0, 0, -1],
        [1, 1, 0],
        [-1, 1, 0],
        [0, 1, 1],
        [0, 1, -1],
    ]
    .iter()
    .map(|&n| (n, add(f, n)))
    .find(|&(n, c)| {
        motor::solid(w, c)
            && motor::breakable(w, c)
            && !drops_filler(motor::block(w, c))
            && ![add(c, [n[0], 0, n[2]]), add(c, [0, 1, 0])]
                .iter()
                .any(|&o| matches!(motor::block(w, o), v if v == b::LAVA || v == b::WATER))
    })
    .and_then(|(_, c)| equip_and_mine(w, c))
}

/// Whether mining block `v` yields a filler item ([`FILLER`]).
fn drops_filler(v: BlockId) -> bool {
    let d = data();
    d.block(v)
        .drops
        .iter()
        .any(|x| FILLER.contains(&d.item_name(x.item)))
}

/// Whether an item works only from the hotbar: a tool (held to use) or a
/// station (placed from the hand). Anywhere else it is out of reach.
fn used_from_hotbar(def: &gw_world::data::ItemDef) -> bool {
    def.tool.is_some()
        || def
            .places
            .is_some_and(|p| p == b::CRAFTING_TABLE || p == b::FURNACE)
}

/// Inventory totals as the plan may count on them: tools and stations only
/// where the hotbar can select them (the factored actions cannot move an
/// item out of the main inventory).
pub fn usable_inventory(w: &World) -> std::collections::BTreeMap<String, u32> {
    let d = gw_world::data();
    let mut m = std::collections::BTreeMap::new();
    for (i, s) in w.player.inventory.slots.iter().enumerate() {
        let Some(s) = s else { continue };
        let def = d.item_def(s.item);
        if used_from_hotbar(def) && i >= gw_world::inventory::HOTBAR {
            continue;
        }
        *m.entry(def.name.clone()).or_insert(0) += s.count as u32;
    }
    m
}

fn d_name(b: BlockId) -> &'static str {
    &data().block(b).name
}

fn hotbar_has_tool(w: &World, need: &crate::graph::ToolNeed) -> bool {
    let d = data();
    (0..gw_world::inventory::HOTBAR).any(|i| {
        w.player.inventory.slots[i].is_some_and(|s| {
            d.item_def(s.item)
                .tool
                .is_some_and(|t| t.kind.name() == need.kind && t.level >= need.level)
        })
    })
}

/// Blocks of one exploring leg on the surface.
pub const LEG: i32 = 40;
/// Blocks of one strip-mining tunnel leg underground before it turns. Long
/// legs keep the tunnel's walls on rock not seen yet (a turn of 75–250°
/// after a short leg soon crosses or runs beside the tunnel already dug);
/// with 80 instead of 40 the fair expert found the diamonds and gold of the
/// armor tasks in time about 10 points more often (seeds 9300–9329).
pub const TUNNEL_LEG: i32 = 80;
/// Ticks of a look around (36 × 10° = a full turn).
pub const SWEEP_TICKS: u32 = 36;

/// General knowledge of where a block is found below ground: the highest
/// y worth strip-mining at for it (`None`: a surface block). Stone lies
/// under the soil everywhere; coal and iron occur up to y 127 and 63 (well
/// spread below that), gold and lapis up to 31, redstone and diamond up to
/// 15 — so a player tunnels a few blocks under those tops.
pub fn ore_layer(v: BlockId) -> Option<i32> {
    match d_name(v) {
        "stone" | "cobblestone" => Some(60),
        "coal_ore" => Some(56),
        "iron_ore" => Some(48),
        "gold_ore" | "lapis_ore" => Some(24),
        "redstone_ore" | "diamond_ore" => Some(11),
        _ => None,
    }
}

/// The nearest block of the given kinds in the loaded chunks (horizontal
/// distance plus 1.5× the height gap), skipping `skip` and blocks next to
/// lava or under water: the all-seeing expert's search.
pub fn nearest_loaded(w: &World, kinds: &[BlockId], skip: &BTreeSet<Cell>) -> Option<Cell> {
    let f = feet(w);
    let (fcx, fcz) = (f[0].div_euclid(CHUNK), f[2].div_euclid(CHUNK));
    let r = gw_world::world::VIEW_CHUNKS;
    let mut best: Option<(i64, Cell)> = None;
    for cx in fcx - r..=fcx + r {
        for cz in fcz - r..=fcz + r {
            let Some(ch) = w.terrain.chunk(cx, cz) else {
                continue;
            };
            for x in 0..CHUNK {
                for z in 0..CHUNK {
                    let base = ((x * CHUNK + z) * HEIGHT) as usize;
                    let col = &ch.blocks[base..base + HEIGHT as usize];
                    for (y, &v) in col.iter().enumerate().skip(1) {
                        if !kinds.contains(&v) {
                            continue;
                        }
                        let c = [cx * CHUNK + x, y as i32, cz * CHUNK + z];
                        let dx = (c[0] - f[0]) as i64;
                        let dz = (c[2] - f[2]) as i64;
                        let dy = (c[1] - f[1]) as i64;
                        let cost = dx * dx + dz * dz + 3 * dy * dy;
                        if best.is_some_and(|(bc, _)| cost >= bc) || skip.contains(&c) {
                            continue;
                        }
                        let risky = [[0, 1, 0], [1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]]
                            .iter()
                            .any(|&n| {
                                let v = motor::block(w, add(c, n));
                                v == b::LAVA || v == b::WATER
                            });
                        if !risky {
                            best = Some((cost, c));
                        }
                    }
                }
            }
        }
    }
    best.map(|(_, c)| c)
}

/// The nearest block of a kind within `r` blocks of the feet.
pub fn nearest_within(w: &World, block: BlockId, r: i32) -> Option<Cell> {
    let f = feet(w);
    let mut best: Option<(i32, Cell)> = None;
    for x in -r..=r {
        for y in -r..=r {
            for z in -r..=r {
                let c = add(f, [x, y, z]);
                if motor::block(w, c) == block {
                    let dd = x * x + y * y + z * z;
                    if best.is_none_or(|(bd, _)| dd < bd) {
                        best = Some((dd, c));
                    }
                }
            }
        }
    }
    best.map(|(_, c)| c)
}

/// One tick of hitting mob `m` when it is close: aim at its middle and
/// click (press and release on alternate ticks), sword in hand if held.
pub fn attack_mob(w: &World, m: &gw_world::world::Mob) -> Option<Action> {
    let e = w.eye();
    let c = [
        m.body.pos[0],
        m.body.pos[1] + m.body.height * 0.6,
        m.body.pos[2],
    ];
    let dist = libm::sqrt((c[0] - e[0]).powi(2) + (c[1] - e[1]).powi(2) + (c[2] - e[2]).powi(2));
    if dist > 3.2 {
        return None;
    }
    let d = data();
    // A mob behind a wall (in a cave beside the tunnel) cannot be hit:
    // aiming at it would hold the player still for as long as it stays.
    let to = [
        (c[0] - e[0]) / dist,
        (c[1] - e[1]) / dist,
        (c[2] - e[2]) / dist,
    ];
    if gw_world::world::raycast_blocks(&w.terrain, e, to, dist - 0.3)
        .is_some_and(|t| d.block(t.block).solid)
    {
        return None;
    }
    if let Some(slot) = (0..gw_world::inventory::HOTBAR).find(|&i| {
        w.player.inventory.slots[i].is_some_and(|s| {
            d.item_def(s.item)
                .tool
                .is_some_and(|t| t.kind == gw_world::data::ToolKind::Sword)
        })
    }) && let Some(a) = motor::select(w, slot)
    {
        return Some(a);
    }
    let (yaw, pitch) = motor::angles_to(w, c);
    let (dy, dp) = motor::turn(w, yaw, pitch);
    let on = w.target_mob().is_some_and(|i| w.mobs[i].id == m.id);
    Some(Action {
        yaw: dy,
        pitch: dp,
        attack: on && w.tick.is_multiple_of(2),
        back: m.kind.hostile() && dist < 1.2,
        ..Default::default()
    })
}

/// Blocks the expert builds with or throws away to free a hotbar slot.
const FILLER: [&str; 6] = [
    "dirt",
    "sand",
    "sandstone",
    "grass_block",
    "gravel",
    "stone",
];
/// Items that no recipe takes (saplings, flint, seeds, lapis, mob loot):
/// dropped when a slot must be freed and nothing can be placed.
const JUNK: [&str; 10] = [
    "oak_sapling",
    "birch_sapling",
    "spruce_sapling",
    "flint",
    "wheat_seeds",
    "lapis_lazuli",
    "rotten_flesh",
    "bone",
    "string",
    "gunpowder",
];
/// A stack of another item counts as filler when the inventory holds at
/// least this many more of it elsewhere (two cobblestone stacks underground).
const SURPLUS: u32 = 16;
/// The largest stack emptied by dropping it.
const DROP_MAX: u8 = 8;

/// When every hotbar slot is taken, one tick of emptying the smallest stack
/// of filler blocks (dirt, sand, …, or a stack of an item held in surplus
/// elsewhere): placing its blocks nearby, or — with no spot to place them
/// or nothing placeable — dropping filler or junk (saplings, flint) one item
/// a tick. `None` when a slot is free or nothing can go.
pub fn free_hotbar_slot(w: &World) -> Option<Action> {
    let d = data();
    let slots = &w.player.inventory.slots;
    if (0..gw_world::inventory::HOTBAR).any(|i| slots[i].is_none()) {
        return None;
    }
    let surplus = |i: usize| {
        slots[i].is_some_and(|s| {
            w.player
                .inventory
                .count(s.item)
                .saturating_sub(s.count as u32)
                >= SURPLUS
        })
    };
    let filler = |i: usize| {
        slots[i].is_some_and(|s| {
            let name = d.item_name(s.item);
            FILLER.contains(&name)
                || (surplus(i)
                    && d.item_def(s.item)
                        .places
                        .is_some_and(|p| p != b::CRAFTING_TABLE && p != b::FURNACE))
        })
    };
    let smallest = |ok: &dyn Fn(usize) -> bool| {
        (0..gw_world::inventory::HOTBAR)
            .filter(|&i| ok(i))
            .min_by_key(|&i| slots[i].map(|s| s.count))
    };
    let named = |i: usize| slots[i].is_some_and(|s| FILLER.contains(&d.item_name(s.item)));
    // Named filler first: a surplus stack is only placed when nothing else is.
    let place = smallest(&named).or_else(|| smallest(&filler));
    if let Some(slot) = place
        && motor::place_spot(w).is_some()
    {
        return place_nearby(w, slot);
    }
    // A small stack goes by throwing it away: thrown items are not pulled
    // back, and it is gone before the first can be picked up by touch.
    let junk = |i: usize| {
        slots[i].is_some_and(|s| {
            s.count <= DROP_MAX
                && (FILLER.contains(&d.item_name(s.item))
                    || JUNK.contains(&d.item_name(s.item))
                    || surplus(i))
        })
    };
    // A tool outdone by a better one of its kind in the hotbar (the wooden
    // pickaxe once a stone one is made), or a second of the same tool (a
    // spare), is junk too.
    let outdone = |i: usize| {
        slots[i].is_some_and(|s| {
            d.item_def(s.item).tool.is_some_and(|t| {
                (0..gw_world::inventory::HOTBAR).any(|j| {
                    slots[j].is_some_and(|o| {
                        j != i
                            && (o.item == s.item
                                || d.item_def(o.item)
                                    .tool
                                    .is_some_and(|u| u.kind == t.kind && u.level > t.level))
                    })
                })
            })
        })
    };
    if let Some(slot) = smallest(&junk).or_else(|| smallest(&outdone)) {
        return Some(throw_away(w, slot));
    }
    // No spot to place filler: open one in the wall (digging stone adds
    // cobblestone, so only named filler is placed this way).
    if smallest(&named).is_some() {
        return dig_pocket(w);
    }
    None
}

/// Items of a filler or cobblestone stack kept when surplus is thrown away:
/// enough for a furnace, stone tools and some building.
const THROW_KEEP: u32 = 64;

/// The hotbar slot to throw away when the inventory is nearly full: the
/// smallest hotbar stack of junk, or of filler blocks or cobblestone of
/// which at least [`THROW_KEEP`] more are held elsewhere; never a stack of
/// `keep` (the task's item).
pub fn surplus_slot(w: &World, keep: &str) -> Option<usize> {
    let d = data();
    let g = world_graph();
    let keep = g.canonical(keep).unwrap_or_else(|| keep.to_string());
    let inv = &w.player.inventory;
    (0..gw_world::inventory::HOTBAR)
        .filter(|&i| {
            inv.slots[i].is_some_and(|s| {
                let name = d.item_name(s.item);
                if name == keep || g.canonical(name).is_some_and(|c| c == keep) {
                    return false;
                }
                let rest = inv.count(s.item).saturating_sub(s.count as u32);
                JUNK.contains(&name)
                    || ((FILLER.contains(&name) || name == "cobblestone") && rest >= THROW_KEEP)
            })
        })
        .min_by_key(|&i| inv.slots[i].map(|s| s.count))
}

/// The hotbar slot to throw away when the whole inventory is full and no
/// surplus is at hand (the main inventory full of cobblestone, out of the
/// hand's reach): the smallest hotbar stack of an item the target's recipe
/// chain from scratch never uses (redstone or gold ore on the way to
/// diamonds). Never a tool, a station, a fuel or the target.
pub fn expendable_slot(w: &World, target: &str) -> Option<usize> {
    let d = data();
    let g = world_graph();
    let canon = |n: &str| g.canonical(n).unwrap_or_else(|| n.to_string());
    let chain: BTreeSet<String> = crate::plan::plan(target, 1, &std::collections::BTreeMap::new())
        .ok()?
        .iter()
        .map(|s| canon(&s.item))
        .chain([canon(target)])
        .collect();
    let inv = &w.player.inventory;
    (0..gw_world::inventory::HOTBAR)
        .filter(|&i| {
            inv.slots[i].is_some_and(|s| {
                let def = d.item_def(s.item);
                !used_from_hotbar(def)
                    && def.fuel == 0
                    && !chain.contains(&canon(d.item_name(s.item)))
            })
        })
        .min_by_key(|&i| inv.slots[i].map(|s| s.count))
}

/// Open cells (free at feet and head height) in a row from the player along
/// the axis heading `yaw` (0, 90, 180 or -90), up to 6.
fn open_run(w: &World, yaw: f64) -> i32 {
    let f = feet(w);
    let (dx, dz) = match (yaw.rem_euclid(360.0) / 90.0).round() as i32 % 4 {
        0 => (0, 1),
        1 => (-1, 0),
        2 => (0, -1),
        _ => (1, 0),
    };
    (1..=6)
        .take_while(|&n| {
            let c = add(f, [dx * n, 0, dz * n]);
            !motor::solid(w, c) && !motor::solid(w, add(c, [0, 1, 0]))
        })
        .count() as i32
}

/// The heading (world yaw, one of the four axes) with the longest run of
/// open cells at feet and head height from the player, the way back along a
/// tunnel first on a tie: where thrown-away items fly off and stay behind.
fn open_yaw(w: &World) -> f64 {
    let behind = w.player.yaw + 180.0;
    let mut best: Option<(i32, f64, f64)> = None;
    for yaw in [0.0, 90.0, 180.0, -90.0] {
        let run = open_run(w, yaw);
        let off = motor::wrap(yaw - behind).abs();
        if best.is_none_or(|(r, o, _)| run > r || (run == r && off < o)) {
            best = Some((run, off, yaw));
        }
    }
    best.map_or(behind, |(_, _, yaw)| yaw)
}

/// Open cells a thrown item needs ahead to land out of reach (1.5 blocks).
const THROW_RUN: i32 = 2;

/// One tick of throwing the stack in hotbar `slot` away so that it stays
/// away: level along an axis with [`THROW_RUN`] open cells ahead (the one
/// faced, else the most open one), then select the slot and drop. Thrown at
/// a wall, an item lands at the feet and is picked up again two seconds
/// later; a player dropping the last of a stack to free a slot while
/// breaking a station would drop it again and again, and the station's
/// break time (longer than two seconds by hand) would never be reached.
/// Walled in on all sides, it drops where it looks.
pub fn throw_away(w: &World, slot: usize) -> Action {
    let drop = Action {
        drop: true,
        ..Default::default()
    };
    let axis = (w.player.yaw / 90.0).round() * 90.0;
    let yaw = if open_run(w, axis) >= THROW_RUN {
        axis
    } else {
        let best = open_yaw(w);
        if open_run(w, best) < THROW_RUN {
            return motor::select(w, slot).unwrap_or(drop);
        }
        best
    };
    if motor::wrap(yaw - w.player.yaw).abs() > 10.0 || w.player.pitch.abs() > 20.0 {
        return motor::look(w, yaw, 0.0);
    }
    motor::select(w, slot).unwrap_or(drop)
}

#[cfg(test)]
mod tests;
