//! The expert executor: target item → plan (from the current inventory,
//! counting stations placed nearby) → skill policy per sub-goal, re-planning
//! from the current inventory whenever a sub-goal fails. Zombies that come
//! close are fought first.
//!
//! [`Expert::new`] is the fair expert, the one the datasets and the
//! benchmark's `expert` agent use: it knows the blocks and mobs that have
//! been in its view ([`crate::sight`]), its inventory, the recipes and where
//! ores occur, and explores when nothing it needs is known. Every action it
//! returns is VPT-exact ([`gw_world::action::vpt_exact`]): turns are spread
//! over ticks of at most one camera bin. [`Expert::all_seeing`] reads every
//! loaded block and mob instead; it is kept for solvability checks only.

use crate::goal::{GoalKind, SubGoal};
use crate::graph::{CRAFTING_TABLE, FURNACE, world_graph};
use crate::plan::{inventory_map, plan};
use crate::sight::{Knowledge, Sight};
use crate::skills::{
    STATION_RANGE, SkillPolicy, Status, attack_mob, expendable_slot, free_hotbar_slot,
    nearest_within, surplus_slot, throw_away, usable_inventory,
};
use gw_world::data::b;
use gw_world::world::{TICKS_PER_SECOND, WorldConfig};
use gw_world::{Action, World};
use std::collections::BTreeMap;

/// The 67 long-horizon targets of Optimus-2/3 (Optimus-1 benchmark), by
/// group, as world item ids.
pub const LONG_HORIZON: &[(&str, &[&str])] = &[
    (
        "wood",
        &[
            "wooden_shovel",
            "wooden_pickaxe",
            "wooden_axe",
            "wooden_hoe",
            "stick",
            "crafting_table",
            "wooden_sword",
            "chest",
            "bowl",
            "ladder",
        ],
    ),
    (
        "stone",
        &[
            "stone_shovel",
            "stone_pickaxe",
            "stone_axe",
            "stone_hoe",
            "charcoal",
            "smoker",
            "stone_sword",
            "furnace",
            "torch",
        ],
    ),
    (
        "iron",
        &[
            "iron_shovel",
            "iron_pickaxe",
            "iron_axe",
            "iron_hoe",
            "bucket",
            "hopper",
            "rail",
            "iron_sword",
            "shears",
            "smithing_table",
            "tripwire_hook",
            "chain",
            "iron_bars",
            "iron_nugget",
            "blast_furnace",
            "stonecutter",
        ],
    ),
    (
        "gold",
        &[
            "golden_shovel",
            "golden_pickaxe",
            "golden_axe",
            "golden_hoe",
            "golden_sword",
            "gold_ingot",
        ],
    ),
    (
        "diamond",
        &[
            "diamond_shovel",
            "diamond_pickaxe",
            "diamond_axe",
            "diamond_hoe",
            "diamond_sword",
            "diamond",
            "jukebox",
        ],
    ),
    (
        "redstone",
        &[
            "piston",
            "redstone_torch",
            "activator_rail",
            "compass",
            "dropper",
            "note_block",
        ],
    ),
    (
        "armor",
        &[
            "shield",
            "iron_chestplate",
            "iron_boots",
            "iron_leggings",
            "iron_helmet",
            "diamond_helmet",
            "diamond_chestplate",
            "diamond_leggings",
            "diamond_boots",
            "golden_helmet",
            "golden_leggings",
            "golden_boots",
            "golden_chestplate",
        ],
    ),
];

/// Game-minute limits of the long-horizon groups (Optimus-1 benchmark
/// values): wood 2, stone 5, iron 20, the rest 30.
pub fn time_limit_minutes(group: &str) -> u32 {
    match group {
        "wood" => 2,
        "stone" => 5,
        "iron" => 20,
        _ => 30,
    }
}

/// Steps in `minutes` game minutes (20 per second).
pub fn minutes_to_steps(minutes: u32) -> u64 {
    minutes as u64 * 60 * TICKS_PER_SECOND as u64
}

/// A planner's answer when the expert asks for a plan.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanAnswer {
    Plan(Vec<SubGoal>),
    /// No plan can be made (logged; the expert waits).
    Error(String),
    /// Not now (a model planner waiting for a frame): the expert idles this
    /// tick and asks again on the next.
    Later,
}

/// The graph planner as a [`PlanAnswer`].
pub fn graph_answer(target: &str, count: u32, inventory: &BTreeMap<String, u32>) -> PlanAnswer {
    match plan(target, count, inventory) {
        Ok(p) => PlanAnswer::Plan(p),
        Err(e) => PlanAnswer::Error(e.to_string()),
    }
}

/// Planks the expert keeps beyond the plan: one crafting table's worth.
pub const SPARE_PLANKS: u32 = 8;

/// Sticks the expert carries beyond the plan when it strip-mines for an ore
/// of the deep layers (gold, lapis, redstone, diamond): the handles of four
/// more pickaxes, should the ones it has wear out in the long tunnels far
/// from any tree (cobblestone and iron it finds on the way). Spare pickaxes
/// made up front were tried: they fill the hotbar, and the iron pickaxe then
/// has no slot to land in.
pub const SPARE_STICKS: u32 = 8;

/// The expert's plan: the graph plan, keeping [`SPARE_PLANKS`] spare when
/// it goes mining below the surface and crafts at a table afterwards — a
/// table left on the surface can then be made again underground, where no
/// logs grow. The spare is dropped when it would need more logs while the
/// player is already underground.
pub fn expert_answer(
    w: &World,
    target: &str,
    count: u32,
    inventory: &BTreeMap<String, u32>,
) -> PlanAnswer {
    let plain = match plan(target, count, inventory) {
        Ok(p) => p,
        Err(e) => return PlanAnswer::Error(e.to_string()),
    };
    let d = gw_world::data();
    if let Some(p) = pickaxe_for_the_way_up(w, &plain, inventory) {
        return PlanAnswer::Plan(p);
    }
    let table_after_mine = plain.iter().enumerate().any(|(i, s)| {
        s.kind == GoalKind::Mine
            && s.item != "logs"
            && plain[i + 1..].iter().any(|c| {
                c.kind == GoalKind::Craft
                    && d.item_id(&c.item)
                        .is_some_and(|id| d.recipes_for(id).all(|r| r.needs_table))
            })
    });
    // Strip-mining for an ore of the deep layers (general knowledge: gold,
    // lapis, redstone and diamond lie below y 25).
    let deep = plain.iter().any(|s| {
        s.kind == GoalKind::Mine
            && world_graph()
                .sources
                .get(&s.item)
                .into_iter()
                .flatten()
                .any(|src| match src {
                    crate::graph::Source::Mine { blocks, .. } => blocks.iter().any(|n| {
                        d.block_id(n)
                            .and_then(crate::skills::ore_layer)
                            .is_some_and(|top| top <= 24)
                    }),
                    _ => false,
                })
    });
    if !table_after_mine && !deep {
        return PlanAnswer::Plan(plain);
    }
    let mut spare = Vec::new();
    if table_after_mine {
        spare.push(("planks", SPARE_PLANKS));
    }
    if deep {
        spare.push(("stick", SPARE_STICKS));
    }
    let spared = match crate::plan::plan_with_spare(world_graph(), target, count, inventory, &spare)
    {
        Ok(p) => p,
        Err(_) => return PlanAnswer::Plan(plain),
    };
    let logs = |p: &[SubGoal]| p.iter().find(|s| s.item == "logs").map_or(0, |s| s.count);
    if logs(&spared) > logs(&plain) && underground(w) {
        return PlanAnswer::Plan(plain);
    }
    PlanAnswer::Plan(spared)
}

/// Sent up for logs from deep underground with no pickaxe at hand (the last
/// one wore out in the tunnels), the way up is rock that a bare hand digs at
/// a block in seven seconds: first a stone pickaxe from the cobblestone,
/// sticks (or planks) and crafting table it carries, when it carries them.
/// `None`: the plan stands as it is.
fn pickaxe_for_the_way_up(
    w: &World,
    plain: &[SubGoal],
    inventory: &BTreeMap<String, u32>,
) -> Option<Vec<SubGoal>> {
    let d = gw_world::data();
    let pickaxe = (0..gw_world::inventory::HOTBAR).any(|i| {
        w.player.inventory.slots[i].is_some_and(|s| {
            d.item_def(s.item)
                .tool
                .is_some_and(|t| t.kind == gw_world::data::ToolKind::Pickaxe)
        })
    });
    let for_logs = plain
        .first()
        .is_some_and(|s| s.kind == GoalKind::Mine && s.item == "logs");
    if pickaxe || !for_logs || !underground(w) {
        return None;
    }
    let held = |item: &str| crate::plan::held(inventory, item);
    let sticks = held("stick");
    if held("cobblestone") < 3 || held(CRAFTING_TABLE) == 0 || (sticks < 2 && held("planks") < 2) {
        return None;
    }
    let mut p = Vec::new();
    if sticks < 2 {
        p.push(SubGoal {
            kind: GoalKind::Craft,
            item: "stick".into(),
            count: sticks + 4,
        });
    }
    p.push(SubGoal {
        kind: GoalKind::Craft,
        item: "stone_pickaxe".into(),
        count: 1,
    });
    p.extend(plain.iter().cloned());
    Some(p)
}

/// Whether the player's feet are well below the terrain surface.
fn underground(w: &World) -> bool {
    let f = crate::skills::motor::feet(w);
    let col = gw_world::terrain::column(w.terrain.seed, f[0], f[2]);
    f[1] < col.height - 4
}

/// What the expert (and a hierarchical agent) plans from: the usable
/// inventory plus one crafting table / furnace for each placed within
/// [`STATION_RANGE`].
pub fn planning_inventory(w: &World) -> BTreeMap<String, u32> {
    let mut inv = usable_inventory(w);
    for (block, item) in [(b::CRAFTING_TABLE, CRAFTING_TABLE), (b::FURNACE, FURNACE)] {
        if nearest_within(w, block, STATION_RANGE).is_some() {
            *inv.entry(item.to_string()).or_insert(0) += 1;
        }
    }
    inv
}

/// The goal count the expert pursues on atomic tasks, which count items
/// until time runs out: more than two game minutes could ever yield.
pub const KEEP_COLLECTING: u32 = 100_000;

/// How many re-plans the expert makes before it gives up (and explores).
pub const MAX_REPLANS: u32 = 50;

#[derive(Clone, Debug)]
pub struct Expert {
    pub target: String,
    pub count: u32,
    plan: Vec<SubGoal>,
    index: usize,
    skill: Option<SkillPolicy>,
    /// The tick the current skill started.
    skill_since: u64,
    planned: bool,
    /// Ticks left to pick placed stations back up before moving on.
    pickup: u32,
    /// How many times the plan was rebuilt after a failed step.
    pub replans: u32,
    /// Ticks one sub-goal may run before it counts as failed (re-plan);
    /// `None`: only the skill's own stall rule applies.
    pub subgoal_timeout: Option<u64>,
    /// What happened: plans and failures, for logs and tests.
    pub log: Vec<String>,
    /// What the expert knows of the world.
    pub sight: Sight,
    /// Exploring once the plan is given up (no idling).
    wander: Option<SkillPolicy>,
    /// Throwing surplus away: the tick it began.
    throwing: Option<u64>,
    /// No throwing before this tick (after a try that freed too little).
    throw_rest: u64,
}

/// Throwing surplus away starts when at most this many inventory slots
/// are free: mined ores and crafted outputs need a free slot.
const THROW_AT_FREE: usize = 1;
/// … and goes on until this many are free.
const THROW_TO_FREE: usize = 3;
/// The longest one bout of throwing lasts (a cramped spot where the items
/// land within reach), and the rest after such a bout.
const THROW_MAX_TICKS: u64 = 400;
const THROW_REST_TICKS: u64 = 1200;

impl Expert {
    /// When the current sub-goal mines the block under the crosshair (in
    /// reach, harvestable now), that block becomes its target: labels for
    /// a player the expert does not steer (DAgger) then say "mine what you
    /// face" rather than "turn to the block I had chosen". Returns whether
    /// the target was set. Not used in the expert's own runs.
    pub fn aim_at_crosshair(&mut self, w: &World) -> bool {
        self.skill.as_mut().is_some_and(|s| s.aim_at_crosshair(w))
    }

    /// The fair expert: it knows only what has been in its view.
    pub fn new(target: &str, count: u32) -> Expert {
        Expert::with_knowledge(target, count, Knowledge::Fair)
    }

    /// The all-seeing expert (every loaded block and mob): for checks that a
    /// task can be solved at all, never for data.
    pub fn all_seeing(target: &str, count: u32) -> Expert {
        Expert::with_knowledge(target, count, Knowledge::AllSeeing)
    }

    pub fn with_knowledge(target: &str, count: u32, knowledge: Knowledge) -> Expert {
        Expert {
            target: target.to_string(),
            count,
            plan: Vec::new(),
            index: 0,
            skill: None,
            skill_since: 0,
            planned: false,
            pickup: 0,
            replans: 0,
            subgoal_timeout: None,
            log: Vec::new(),
            sight: Sight::new(knowledge),
            wander: None,
            throwing: None,
            throw_rest: 0,
        }
    }

    /// The plan being followed.
    pub fn plan(&self) -> &[SubGoal] {
        &self.plan
    }

    /// Whether the next tick asks the planner first.
    pub fn needs_plan(&self) -> bool {
        !self.planned
    }

    /// The sub-goal being worked on, if any.
    pub fn current(&self) -> Option<&SubGoal> {
        self.skill.as_ref().map(|s| &s.goal)
    }

    /// Whether the inventory holds the target count.
    pub fn done(&self, w: &World) -> bool {
        crate::plan::held(&inventory_map(&w.player.inventory), &self.target) >= self.count
    }

    /// Ask `planner` for a plan; false when it answered "later".
    fn replan(&mut self, w: &World, planner: &mut Planner) -> bool {
        let answer = planner(w, &planning_inventory(w));
        match answer {
            PlanAnswer::Later => {
                self.planned = false;
                return false;
            }
            PlanAnswer::Plan(p) => {
                self.log.push(format!(
                    "tick {}: plan {}",
                    w.tick,
                    p.iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                self.plan = p;
            }
            PlanAnswer::Error(e) => {
                self.log.push(format!("tick {}: cannot plan: {e}", w.tick));
                self.plan = Vec::new();
            }
        }
        self.index = 0;
        self.skill = None;
        self.planned = true;
        true
    }

    /// One tick with the graph planner.
    pub fn act(&mut self, w: &World) -> Action {
        let (target, count) = (self.target.clone(), self.count);
        self.act_with(w, &mut |w, inv| expert_answer(w, &target, count, inv))
    }

    /// One tick, asking `planner` whenever a plan is needed: at the start,
    /// when a sub-goal fails or times out, and when the plan runs out
    /// without the target. The action is VPT-exact.
    pub fn act_with(&mut self, w: &World, planner: &mut Planner) -> Action {
        if w.player.dead || self.done(w) {
            return Action::noop();
        }
        self.sight.update(w);
        let a = gw_world::action::vpt_exact(&self.decide(w, planner));
        crate::skills::motor::keep_off_lava(w, a)
    }

    /// Explore instead of idling once the plan is given up.
    fn wander(&mut self, w: &World) -> Action {
        let s = self.wander.get_or_insert_with(|| {
            SkillPolicy::new(SubGoal {
                kind: GoalKind::Collect,
                item: String::new(),
                count: u32::MAX,
            })
        });
        s.explore_now(w, &self.sight)
    }

    /// Keep room in the inventory as a player does deep in a mine: with at
    /// most [`THROW_AT_FREE`] slots free, throw surplus cobblestone, filler
    /// and junk away along the open side (back along the tunnel) until
    /// [`THROW_TO_FREE`] slots are free; with no slot free at all and no
    /// surplus in the hotbar, a stack the task never uses
    /// ([`expendable_slot`]). Thrown items are not pulled back.
    fn throw_surplus(&mut self, w: &World) -> Option<Action> {
        let free = w.player.inventory.free_slots();
        // With no slot free at all, what the task never uses goes too.
        let slot = surplus_slot(w, &self.target)
            .or_else(|| (free == 0).then(|| expendable_slot(w, &self.target))?);
        let Some(since) = self.throwing else {
            if free > THROW_AT_FREE || w.tick < self.throw_rest || slot.is_none() {
                return None;
            }
            self.throwing = Some(w.tick);
            self.log.push(format!(
                "tick {}: inventory full: throwing surplus away",
                w.tick
            ));
            return self.throw_surplus(w);
        };
        let spent = w.tick.saturating_sub(since);
        let over = spent > THROW_MAX_TICKS;
        let Some(slot) = slot.filter(|_| free < THROW_TO_FREE && !over) else {
            self.throwing = None;
            if over {
                self.throw_rest = w.tick + THROW_REST_TICKS;
            }
            if let Some(s) = self.skill.as_mut() {
                s.resume_after(spent);
            }
            return None;
        };
        Some(throw_away(w, slot))
    }

    fn decide(&mut self, w: &World, planner: &mut Planner) -> Action {
        // Fight a hostile mob within arm's reach.
        if let Some(m) = w.mobs.iter().find(|m| m.kind.hostile())
            && let Some(a) = w
                .mobs
                .iter()
                .filter(|m| m.kind.hostile())
                .find_map(|m| attack_mob(w, m))
                .or_else(|| attack_mob(w, m))
        {
            return a;
        }
        if !self.planned && !self.replan(w, planner) {
            return Action::noop();
        }
        if let Some(a) = self.throw_surplus(w) {
            return a;
        }
        if self.pickup > 0 {
            self.pickup -= 1;
            // The table first: it takes long to break by hand (a dropped item
            // may come back meanwhile) and its planks are scarce underground.
            for block in [b::CRAFTING_TABLE, b::FURNACE] {
                if let Some(c) = w.block_in_reach(block) {
                    // It must come back into the hotbar to be placed again.
                    if let Some(a) = free_hotbar_slot(w) {
                        return a;
                    }
                    if (0..gw_world::inventory::HOTBAR)
                        .all(|i| w.player.inventory.slots[i].is_some())
                    {
                        break;
                    }
                    if let Some(a) = pick_up(w, c) {
                        return a;
                    }
                }
            }
            self.pickup = 0;
        }
        let inv = usable_inventory(w);
        let g = world_graph();
        let mut failures = 0;
        loop {
            if self.skill.is_none() {
                let Some(step) = self.plan.get(self.index) else {
                    // The plan ran out without the target: plan again.
                    if self.replans > MAX_REPLANS {
                        return self.wander(w);
                    }
                    self.replans += 1;
                    if !self.replan(w, planner) {
                        return Action::noop();
                    }
                    if self.plan.is_empty() {
                        return self.wander(w);
                    }
                    continue;
                };
                let node = g.canonical(&step.item).unwrap_or_default();
                if g.held(&inv, &node) >= step.count {
                    self.index += 1;
                    continue;
                }
                self.skill = Some(SkillPolicy::new(step.clone()));
                self.skill_since = w.tick;
            }
            let timeout = self
                .subgoal_timeout
                .filter(|t| w.tick.saturating_sub(self.skill_since) > *t);
            let skill = self.skill.as_mut().expect("a skill is set");
            let (a, status) = match timeout {
                Some(t) => (
                    Action::noop(),
                    Status::Failed(format!("{} timed out after {t} ticks", skill.goal)),
                ),
                None => {
                    let a = skill.act(w, &mut self.sight);
                    (a, skill.status().clone())
                }
            };
            match status {
                Status::Running => return a,
                Status::Done => {
                    let was_station_work =
                        matches!(skill.goal.kind, GoalKind::Craft | GoalKind::Smelt);
                    self.index += 1;
                    self.skill = None;
                    // Leaving for the mines: take the stations along.
                    let next_moves = self
                        .plan
                        .get(self.index)
                        .is_some_and(|s| matches!(s.kind, GoalKind::Mine | GoalKind::Collect));
                    if was_station_work && next_moves {
                        self.pickup = 200;
                    }
                }
                Status::Failed(why) => {
                    self.log.push(format!("tick {}: {why}", w.tick));
                    self.replans += 1;
                    if self.replans > MAX_REPLANS {
                        return self.wander(w);
                    }
                    // Plan again and go on with the new plan this very tick
                    // (a step failing at once twice in a row: explore).
                    failures += 1;
                    if !self.replan(w, planner) {
                        return Action::noop();
                    }
                    if failures > 2 || self.plan.is_empty() {
                        return self.wander(w);
                    }
                }
            }
        }
    }
}

/// Where the expert gets its plans: the world and the planning inventory
/// in, a [`PlanAnswer`] out.
pub type Planner<'a> = dyn FnMut(&World, &BTreeMap<String, u32>) -> PlanAnswer + 'a;

/// One tick of breaking a placed station so it drops back into the
/// inventory (a pickaxe for the furnace).
fn pick_up(w: &World, c: [i32; 3]) -> Option<Action> {
    let v = w.terrain.get(c[0], c[1], c[2]);
    if let Some(a) = crate::skills::motor::select(w, crate::skills::motor::slot_for_block(w, v)) {
        return Some(a);
    }
    crate::skills::motor::mine_at(w, c)
}

/// The world a long-horizon run starts in: freshly generated from the seed,
/// default rules (day cycle, mobs), empty inventory, spawned by the world's
/// shared rule ([`gw_world::world::find_spawn`]: the surface of a land biome
/// with trees nearby, as Minecraft spawns; every Optimus task starts by
/// chopping wood).
pub fn task_world(seed: u64) -> World {
    World::new(WorldConfig {
        seed,
        spawn: None,
        ..Default::default()
    })
}

/// The outcome of one expert run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub success: bool,
    pub steps: u64,
    pub replans: u32,
    pub deaths: u32,
    pub log: Vec<String>,
}

/// Run the fair expert on `target` in `task_world(seed)` for at most
/// `max_steps` ticks (respawning after a death, the inventory kept).
pub fn run(target: &str, count: u32, seed: u64, max_steps: u64) -> Run {
    run_knowing(Knowledge::Fair, target, count, seed, max_steps)
}

/// [`run`] with the given knowledge (the all-seeing expert for solvability
/// checks).
pub fn run_knowing(
    knowledge: Knowledge,
    target: &str,
    count: u32,
    seed: u64,
    max_steps: u64,
) -> Run {
    let mut w = task_world(seed);
    let mut ex = Expert::with_knowledge(target, count, knowledge);
    let mut steps = 0;
    while steps < max_steps && !ex.done(&w) {
        if w.player.dead {
            w.respawn();
        }
        let a = ex.act(&w);
        w.step(&a);
        steps += 1;
    }
    Run {
        success: ex.done(&w),
        steps,
        replans: ex.replans,
        deaths: w.player.deaths,
        log: ex.log,
    }
}
