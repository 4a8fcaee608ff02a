//! 18_minecraft-clone-glm: the GameWorld Minecraft clone, played in the
//! `gw-world` voxel world. Arrow keys walk and strafe, Space jumps, 1–9 pick a
//! hotbar slot, the mouse looks around (each move turns the view by its offset
//! from the screen centre, as with a captured pointer), holding the left
//! button mines the block under the crosshair and a right click places the
//! held block. Tasks count items gained (`game_state.inventory.item_gains`).
//!
//! Spawn tuning: every start is on the surface under the world's shared
//! spawn rule (`gw_world::world::find_spawn`: dry land in a land biome with
//! trees nearby); a task's `init: {resource: …}` picks, among such spots, one
//! near that resource (a forest for wood and leaves, exposed stone, iron ore
//! a few blocks under the ground — the player heads underground to find it,
//! facing it), and the player starts with a toolkit (iron pickaxe, golden
//! axe, iron shovel, shears, golden pickaxe) so each target fits 100 actions with the reference hold
//! durations.

mod expert;
#[cfg(test)]
mod tests;

use gw_core::action::{InputEvent, MouseButton};
use gw_core::state::set;
use gw_core::{FixedStep, GameApiState, GameConfig, Outcome, TaskInfo, Terminal};
use gw_world::data::{BlockId, b, data};
use gw_world::terrain::{CHUNK, SEA_LEVEL, Terrain};
use gw_world::world::{REACH, find_spawn, find_spawn_where, trees_nearby};
use gw_world::{Action, World, WorldConfig};
use serde_json::{Map, Value, json};

pub const ID: &str = "18_minecraft-clone-glm";
const W: u32 = 1280;
const H: u32 = 720;
/// Degrees of turn per pixel of mouse offset from the centre.
pub const LOOK_DEG_PER_PX: f32 = 0.2;
/// The start hotbar: golden tools are the fastest (Minecraft speed 12) but
/// wear out after 32 uses and cannot harvest iron ore.
pub const TOOLKIT: [&str; 5] = [
    "iron_pickaxe",
    "golden_axe",
    "iron_shovel",
    "shears",
    "golden_pickaxe",
];

/// The reference game's item names and the world blocks/items they cover.
pub const REF_ITEMS: [(&str, &[&str]); 6] = [
    ("dirt", &["dirt"]),
    ("wood_log", &["oak_log", "birch_log", "spruce_log"]),
    ("leaves", &["oak_leaves", "birch_leaves", "spruce_leaves"]),
    ("stone", &["cobblestone", "stone"]),
    ("coal_ore", &["coal"]),
    ("iron_ore", &["iron_ore"]),
];

/// Reference name of a world block (logs → wood_log, leaves → leaves…).
pub fn ref_block_name(block: BlockId) -> String {
    let n = data().block_name(block);
    if n.ends_with("_log") {
        "wood_log".into()
    } else if n.ends_with("_leaves") {
        "leaves".into()
    } else if n == "grass_block" {
        "grass".into()
    } else if n == "cobblestone" {
        "stone".into()
    } else {
        n.to_string()
    }
}

/// Which blocks give a reference item when mined.
pub fn target_blocks(resource: &str) -> Vec<BlockId> {
    match resource {
        "dirt" => vec![b::DIRT, b::GRASS_BLOCK],
        "wood_log" | "wood" => vec![b::OAK_LOG, b::BIRCH_LOG, b::SPRUCE_LOG],
        "leaves" => vec![b::OAK_LEAVES, b::BIRCH_LEAVES, b::SPRUCE_LEAVES],
        "stone" => vec![b::STONE, b::COBBLESTONE],
        "coal_ore" => vec![b::COAL_ORE],
        "iron_ore" => vec![b::IRON_ORE],
        _ => vec![],
    }
}

pub struct MinecraftClone {
    pub world: World,
    seed: u64,
    pub resource: String,
    clock: FixedStep,
    keys: std::collections::BTreeSet<String>,
    mouse_left: bool,
    pending: Action,
    pub terminal: Terminal,
    deaths: u32,
    time_ms: u64,
}

impl Default for MinecraftClone {
    fn default() -> Self {
        Self::new()
    }
}

/// Exposed blocks of `kinds` (touching air) within `r` of `c`, in order of
/// x, then y, then z (heights 1..=126).
///
/// Read column by column from the chunks' occupancy bits (`Chunk::filled`,
/// exact after every edit): a cell touches air where a neighbour's bit is
/// clear, and only such cells' blocks are looked up, so the state's 13³
/// neighbourhood costs a few thousand instructions instead of reading every
/// cell and its six neighbours.
pub fn exposed_near(t: &Terrain, c: [i32; 3], r: i32, kinds: &[BlockId]) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    let (y0, y1) = ((c[1] - r).max(1), (c[1] + r).min(126));
    if y0 > y1 || r < 0 {
        return out;
    }
    // Bits y0..=y1; their neighbours (y0 - 1 ≥ 0, y1 + 1 ≤ 127) are inside
    // the world's height, so one column's bits hold them all.
    let ys = (u128::MAX >> (127 - y1)) & (u128::MAX << y0);
    // Air bits of column (x, z); none in an unloaded chunk (its cells read
    // as `UNLOADED`).
    let air = |x: i32, z: i32| -> u128 {
        t.chunk(x >> 4, z >> 4).map_or(0, |ch| {
            !ch.filled[((x & (CHUNK - 1)) * CHUNK + (z & (CHUNK - 1))) as usize]
        })
    };
    let block = |x: i32, y: i32, z: i32| t.get(x, y, z);
    let air_counts = kinds.contains(&b::AIR);
    let (z0, z1) = (c[2] - r, c[2] + r);
    let n = (z1 - z0 + 3) as usize;
    // Air bits of the columns of slices x - 1, x and x + 1, for z0 - 1..=z1 + 1.
    let row = |x: i32| (z0 - 1..=z1 + 1).map(|z| air(x, z)).collect::<Vec<u128>>();
    let (mut prev, mut cur) = (row(c[0] - r - 1), row(c[0] - r));
    let mut cand = vec![0u128; n];
    for x in c[0] - r..=c[0] + r {
        let next = row(x + 1);
        let mut any = 0u128;
        for k in 1..n - 1 {
            let a = cur[k];
            let open = (a << 1) | (a >> 1) | prev[k] | next[k] | cur[k - 1] | cur[k + 1];
            let mut m = ys & open;
            if !air_counts {
                m &= !a;
            }
            cand[k] = m;
            any |= m;
        }
        while any != 0 {
            let y = any.trailing_zeros() as i32;
            any &= any - 1;
            for (k, m) in cand.iter().enumerate().take(n - 1).skip(1) {
                let z = z0 + k as i32 - 1;
                if m >> y & 1 != 0 && kinds.contains(&block(x, y, z)) {
                    out.push([x, y, z]);
                }
            }
        }
        (prev, cur) = (cur, next);
    }
    out
}

/// Iron ore under ground block `g`: within [`IRON_REACH`] blocks
/// horizontally and 2 to [`IRON_DEPTH`] blocks down.
const IRON_REACH: i32 = 3;
const IRON_DEPTH: i32 = 7;
/// Iron ore blocks a surface start for iron needs under it.
const IRON_NEED: usize = 10;

fn iron_below(t: &Terrain, g: [i32; 3]) -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for dx in -IRON_REACH..=IRON_REACH {
        for dz in -IRON_REACH..=IRON_REACH {
            for dy in 2..=IRON_DEPTH {
                let c = [g[0] + dx, g[1] - dy, g[2] + dz];
                if t.get(c[0], c[1], c[2]) == b::IRON_ORE {
                    out.push(c);
                }
            }
        }
    }
    out
}

/// A spawn spot near the resource, searched ring by ring from the origin:
/// a surface spot under the shared spawn rule (trees nearby) where one is
/// near the resource, else any surface spot near it.
fn spawn_for(terrain: &mut Terrain, resource: &str) -> [f64; 3] {
    let kinds = target_blocks(resource);
    let need = match resource {
        "wood_log" => 20,
        "leaves" => 40,
        "stone" => 16,
        "dirt" => 30,
        _ => 0,
    };
    if resource == "iron_ore" {
        for rule in [true, false] {
            if let Some(p) = find_spawn_where(terrain, 0, 0, 160, |t, g| {
                (!rule || trees_nearby(t, g)) && iron_below(t, g).len() >= IRON_NEED
            }) {
                return p;
            }
        }
    } else if need > 0 {
        for rule in [true, false] {
            let found = find_spawn_where(terrain, 0, 0, 160, |t, g| {
                if rule && !trees_nearby(t, g) {
                    return false;
                }
                let c = [g[0], g[1] + 1, g[2]];
                // Count only blocks at about the spawn's height (not ones bared by a
                // cave further down).
                let n = exposed_near(t, c, 5, &kinds)
                    .iter()
                    .filter(|p| p[1] >= c[1] - 2)
                    .count();
                n >= need && (resource != "dirt" || t.get(g[0], g[1], g[2]) == b::GRASS_BLOCK)
            });
            if let Some(p) = found {
                return p;
            }
        }
        // No stone cliff nearby: start in a cave instead.
        if resource == "stone"
            && let Some(p) = cave_spawn(terrain, &kinds, 30)
        {
            return p;
        }
    }
    find_spawn(terrain, 0, 0)
}

/// A cave floor under ground with at least `min` exposed blocks of `kinds`
/// within 4 blocks, nearest the origin.
fn cave_spawn(terrain: &mut Terrain, kinds: &[BlockId], min: usize) -> Option<[f64; 3]> {
    for r in 0..8i32 {
        for cx in -r..=r {
            for cz in -r..=r {
                if cx.abs() != r && cz.abs() != r {
                    continue;
                }
                for dx in -1..=1 {
                    for dz in -1..=1 {
                        terrain.load(cx + dx, cz + dz);
                    }
                }
                let mut best: Option<(usize, [i32; 3])> = None;
                for x in cx * 16..cx * 16 + 16 {
                    for z in cz * 16..cz * 16 + 16 {
                        for y in 12..SEA_LEVEL - 4 {
                            let floor = terrain.get(x, y - 1, z);
                            if terrain.get(x, y, z) == b::AIR
                                && terrain.get(x, y + 1, z) == b::AIR
                                && data().block(floor).solid
                                && floor != b::LAVA
                            {
                                if terrain.get(x, y - 2, z) == b::LAVA {
                                    continue;
                                }
                                let n = exposed_near(terrain, [x, y + 1, z], 4, kinds).len();
                                if n >= min && best.is_none_or(|(bn, _)| n > bn) {
                                    best = Some((n, [x, y, z]));
                                }
                            }
                        }
                    }
                }
                if let Some((_, p)) = best {
                    return Some([p[0] as f64 + 0.5, p[1] as f64, p[2] as f64 + 0.5]);
                }
            }
        }
    }
    None
}

impl MinecraftClone {
    pub fn new() -> Self {
        MinecraftClone {
            world: World::new(WorldConfig {
                seed: 0,
                spawn: Some([0.5, 80.0, 0.5]),
                passive_mobs: false,
                hostile_mobs: false,
                ..Default::default()
            }),
            seed: 0,
            resource: String::new(),
            clock: FixedStep::new(50),
            keys: Default::default(),
            mouse_left: false,
            pending: Action::noop(),
            terminal: Terminal::running(),
            deaths: 0,
            time_ms: 0,
        }
    }

    fn build(&mut self, episode: u32) {
        let world_seed = self
            .seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(episode as u64 * 7 + 1);
        let mut terrain = Terrain::new(world_seed);
        let spawn = spawn_for(&mut terrain, &self.resource);
        let mut w = World::new(WorldConfig {
            seed: world_seed,
            spawn: Some(spawn),
            start_time: 1000,
            start_inventory: TOOLKIT.iter().map(|t| (t.to_string(), 1)).collect(),
            ..Default::default()
        });
        // Face the nearest target block so the first frame shows the task
        // (iron: the ore under the ground, where the way down starts).
        let kinds = target_blocks(&self.resource);
        let eye = w.eye();
        let c = [eye[0] as i32, eye[1] as i32, eye[2] as i32];
        let ground = [
            libm::floor(spawn[0]) as i32,
            libm::floor(spawn[1]) as i32 - 1,
            libm::floor(spawn[2]) as i32,
        ];
        let near = if self.resource == "iron_ore" {
            iron_below(&w.terrain, ground)
        } else {
            exposed_near(&w.terrain, c, 8, &kinds)
        };
        if let Some(p) = near
            .into_iter()
            .filter(|p| (p[0], p[2]) != (c[0], c[2]))
            .min_by_key(|p| (p[0] - c[0]).pow(2) + (p[2] - c[2]).pow(2))
        {
            let (dx, dz) = (p[0] as f64 + 0.5 - eye[0], p[2] as f64 + 0.5 - eye[2]);
            w.player.yaw = (libm::atan2(-dx, dz).to_degrees() / 20.0).round() * 20.0;
            w.player.yaw = w.player.yaw.rem_euclid(360.0);
        }
        self.world = w;
        self.keys.clear();
        self.mouse_left = false;
        self.pending = Action::noop();
        self.terminal = Terminal::running();
        self.clock.clear();
        self.time_ms = 0;
    }

    /// Item gains under the reference names plus every world item's own name.
    pub fn gains(&self) -> Map<String, Value> {
        let d = data();
        let mut m = Map::new();
        for (name, items) in REF_ITEMS {
            let n: u32 = items
                .iter()
                .filter_map(|i| d.item_id(i))
                .map(|id| self.world.obtained.get(&id).copied().unwrap_or(0))
                .sum();
            m.insert(name.to_string(), json!(n));
        }
        for (id, n) in &self.world.obtained {
            let name = d.item_name(*id);
            if !m.contains_key(name) {
                m.insert(name.to_string(), json!(n));
            }
        }
        m
    }

    fn counts(&self) -> Map<String, Value> {
        let d = data();
        let mut m = Map::new();
        for (name, items) in REF_ITEMS {
            let n: u32 = items
                .iter()
                .filter_map(|i| d.item_id(i))
                .map(|id| self.world.player.inventory.count(id))
                .sum();
            m.insert(name.to_string(), json!(n));
        }
        for (k, v) in gw_world::state::inventory_counts(&self.world) {
            m.entry(k).or_insert(v);
        }
        m
    }

    fn tick(&mut self) {
        let mut a = std::mem::take(&mut self.pending);
        a.forward = self.keys.contains("ArrowUp");
        a.back = self.keys.contains("ArrowDown");
        a.left = self.keys.contains("ArrowLeft");
        a.right = self.keys.contains("ArrowRight");
        a.jump = self.keys.contains("Space");
        a.attack = self.mouse_left;
        self.world.step(&a);
        if self.world.player.dead && !self.terminal.is_terminal {
            self.deaths += 1;
            self.terminal = Terminal::ended(Outcome::Fail, "the player died");
        }
    }
}

impl gw_core::Game for MinecraftClone {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn viewport(&self) -> (u32, u32) {
        (W, H)
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.resource = config
            .options
            .get("resource")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        self.deaths = 0;
        self.build(0);
    }

    fn reset(&mut self, episode: u32) {
        self.build(episode);
    }

    fn state(&self) -> GameApiState {
        let w = &self.world;
        let d = data();
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.time_ms,
            self.terminal.status(),
            self.terminal.clone(),
        );
        let gains = self.gains();
        let counts = self.counts();
        let total: u64 = w.obtained.values().map(|&n| n as u64).sum();
        let sel = w.player.selected;
        let held = w.player.inventory.slots[sel];
        let held_name = held.map(|h| d.item_name(h.item).to_string());
        let target = w.target();
        let tb = target.map(|t| ref_block_name(t.block));
        let pos = w.player.body.pos;
        let (px, py, pz) = (
            libm::floor(pos[0]) as i32,
            libm::floor(pos[1]) as i32,
            libm::floor(pos[2]) as i32,
        );
        let below = ref_block_name(w.terrain.get(px, py - 1, pz));
        let surface = w.terrain.surface_y(px, pz).unwrap_or(py - 1);
        let depth = (surface + 1 - py).max(0);
        let eye = w.eye();
        let c = [px, py + 1, pz];
        let near = |kinds: &[BlockId]| {
            let v = exposed_near(&w.terrain, c, 6, kinds);
            let nearest = v
                .iter()
                .map(|p| gw_world::world::dist_to_box(eye, *p))
                .fold(f64::INFINITY, f64::min);
            (
                v.len(),
                if nearest.is_finite() {
                    json!((nearest * 100.0).round() / 100.0)
                } else {
                    Value::Null
                },
            )
        };
        let (stone_n, stone_d) = near(&target_blocks("stone"));
        let (iron_n, iron_d) = near(&[b::IRON_ORE]);
        let tool = held.and_then(|h| d.item_def(h.item).tool);
        let tool_matches = target
            .map(|t| gw_world::inventory::mining(t.block, held.map(|h| h.item)).right_tool)
            .unwrap_or(false);
        let progress = w
            .player
            .breaking
            .map(|b| ((b.ticks as f64 / b.needed.max(1) as f64) * 100.0).round() / 100.0)
            .unwrap_or(0.0);

        let gs = &mut s.game_state;
        set(gs, "score", json!(total));
        set(gs, "level", 1);
        set(gs, "progress", json!(total));
        set(
            gs,
            "inventory",
            json!({"item_gains": gains, "item_counts": counts, "selected_slot": sel + 1}),
        );
        set(
            gs,
            "environment",
            json!({
                "targeted_block": {
                    "block_type": tb,
                    "position": target.map(|t| t.pos),
                    "distance": target.map(|t| (t.distance * 100.0).round() / 100.0),
                },
                "break_progress": progress,
                "player_context": {"block_below": below, "surface_y": surface, "biome": w.biome_here().name()},
                "nearby_resources": {"stone": {"count": stone_n}, "iron_ore": {"count": iron_n}},
                "time_of_day": w.time_of_day(),
            }),
        );
        set(
            gs,
            "player",
            json!({"position": [pos[0], pos[1], pos[2]], "yaw": w.player.yaw, "pitch": w.player.pitch,
                "health": w.player.health, "food": w.player.food}),
        );
        let m = &mut s.metrics;
        set(m, "items_total", json!(total));
        set(m, "items_unique", json!(w.obtained.len()));
        set(m, "held_selected_item_type", json!(held_name));
        set(
            m,
            "held_selected_item_count",
            json!(held.map(|h| h.count).unwrap_or(0)),
        );
        set(m, "selected_tool_type", json!(tool.map(|t| t.kind.name())));
        set(m, "selected_tool_matches_target", json!(tool_matches));
        set(m, "targeted_block_exists", json!(target.is_some()));
        set(m, "targeted_block_type", json!(tb));
        set(
            m,
            "targeted_block_distance",
            json!(target.map(|t| (t.distance * 100.0).round() / 100.0)),
        );
        set(m, "depth_below_surface", json!(depth));
        set(m, "is_underground", json!(depth > 2));
        set(m, "nearby_stone_count", json!(stone_n));
        set(m, "nearest_stone_distance", stone_d);
        set(m, "nearby_iron_ore_count", json!(iron_n));
        set(m, "nearest_iron_ore_distance", iron_d);
        set(m, "deaths", json!(self.deaths));
        set(&mut s.raw, "world", gw_world::state::privileged(w));
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        if self.terminal.is_terminal {
            return;
        }
        match event {
            InputEvent::KeyDown { key } => {
                if let Some(n) = key.parse::<u8>().ok().filter(|n| (1..=9).contains(n)) {
                    self.pending.hotbar = Some(n);
                    self.world.player.selected = (n - 1) as usize;
                } else {
                    self.keys.insert(key.clone());
                }
            }
            InputEvent::KeyUp { key } => {
                self.keys.remove(key);
            }
            InputEvent::MouseMove { x, y } => {
                let (dx, dy) = (*x - W as f32 / 2.0, *y - H as f32 / 2.0);
                let p = &mut self.world.player;
                p.yaw = (p.yaw + (dx * LOOK_DEG_PER_PX) as f64).rem_euclid(360.0);
                p.pitch = (p.pitch + (dy * LOOK_DEG_PER_PX) as f64).clamp(-90.0, 90.0);
            }
            InputEvent::MouseDown { button, .. } => match button {
                MouseButton::Left => self.mouse_left = true,
                _ => self.pending.use_item = true,
            },
            InputEvent::MouseUp { button, .. } => {
                if *button == MouseButton::Left {
                    self.mouse_left = false;
                }
            }
            InputEvent::Scroll { .. } | InputEvent::Native { .. } => {}
        }
    }

    fn advance(&mut self, dt_ms: u64) {
        self.time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            if self.terminal.is_terminal {
                break;
            }
            self.tick();
        }
    }

    fn render(&self, pixmap: &mut tiny_skia::Pixmap) {
        let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
        // One ray per 4×4 pixels (a 320×180 view at 1280×720) with the HUD
        // at full resolution: the blocky look of 8×8 textures at 1/16 of
        // the rays, which keeps a step within the frame budget.
        gw_world::render::render_rgba_blocky(
            &self.world,
            w,
            h,
            VIEW_BLOCK,
            pixmap.data_mut(),
            true,
        );
    }

    fn expert_action(&self, task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self, task)})
    }
}

/// Pixels per traced ray along each axis of the 3D view.
pub const VIEW_BLOCK: usize = 4;

/// Reach used by the expert's look search.
pub const EXPERT_REACH: f64 = REACH;
