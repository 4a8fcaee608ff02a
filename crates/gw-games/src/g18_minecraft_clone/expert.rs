//! Scripted expert: picks the tool for the task's resource, mines it when it
//! is under the crosshair, otherwise turns towards the cheapest view (in look
//! steps, any yaw) that puts a target block under the crosshair, counting
//! only blocks whose drop lands within the item magnet's pull; otherwise it
//! walks towards the exposed target block quickest to reach (distance plus
//! the turn to face it), digging whatever stands in
//! the body's way (head height, an un-steppable foot block, a low ceiling over
//! a step up) and side-stepping a block under one shoulder. It reads the
//! world's state, never future random draws.

use super::{LOOK_DEG_PER_PX, MinecraftClone, exposed_near, target_blocks};
use gw_core::TaskInfo;
use gw_world::data::BlockId;
use gw_world::data::b;
use gw_world::world::{REACH, TICKS_PER_SECOND, raycast_blocks};

/// Degrees one look_* action turns (100 px from the centre).
const STEP_DEG: f64 = 100.0 * LOOK_DEG_PER_PX as f64;

/// Blocks whose centre lies within this distance of the player's middle
/// drop items the world's magnet (radius 5) pulls in.
const MAGNET_SAFE: f64 = 4.4;

const SELECT: [&str; 9] = [
    "select_slot_1",
    "select_slot_2",
    "select_slot_3",
    "select_slot_4",
    "select_slot_5",
    "select_slot_6",
    "select_slot_7",
    "select_slot_8",
    "select_slot_9",
];

fn dir(yaw: f64, pitch: f64) -> [f64; 3] {
    let (y, p) = (yaw.to_radians(), pitch.to_radians());
    [
        -libm::sin(y) * libm::cos(p),
        -libm::sin(p),
        libm::cos(y) * libm::cos(p),
    ]
}

fn resource_of(task: &TaskInfo) -> &str {
    task.score_field.rsplit('.').next().unwrap_or("")
}

/// The task's resource tools, best first.
fn resource_tools(res: &str) -> &'static [&'static str] {
    match res {
        "wood_log" => &["golden_axe", "iron_axe"],
        "dirt" => &["iron_shovel"],
        "leaves" => &["shears"],
        "stone" => &["golden_pickaxe", "iron_pickaxe"],
        _ => &["iron_pickaxe"],
    }
}

/// Mining actions (one second, [`TICKS_PER_SECOND`] ticks, each) `block`
/// takes with `item` held; None if it cannot be broken.
fn mine_actions(block: BlockId, item: Option<gw_world::data::ItemId>) -> Option<u32> {
    gw_world::inventory::mining(block, item)
        .ticks
        .map(|t| t.div_ceil(TICKS_PER_SECOND))
}

pub fn choose(g: &MinecraftClone, task: &TaskInfo) -> &'static str {
    let res = resource_of(task);
    let kinds: Vec<BlockId> = target_blocks(res);
    let w = &g.world;
    let d = gw_world::data::data();
    let slots = &w.player.inventory.slots;
    let slot_of =
        |name: &str| (0..9).find(|&i| slots[i].is_some_and(|s| d.item_name(s.item) == name));
    let tool = resource_tools(res).iter().find_map(|t| slot_of(t));
    let action = plan(g, &kinds, res);
    if action != "mine_target" {
        return action;
    }
    // Mining: the resource's tool on a resource block; on a block in the
    // way, the quickest tool when it saves more than the switch costs (the
    // shears take eight actions on stone that a pickaxe breaks in one).
    let eye = w.eye();
    let crosshair = raycast_blocks(&w.terrain, eye, dir(w.player.yaw, w.player.pitch), REACH);
    let want = match crosshair {
        Some(t) if !kinds.contains(&t.block) => {
            let held = slots[w.player.selected].map(|s| s.item);
            let now = mine_actions(t.block, held).unwrap_or(u32::MAX);
            (0..9)
                .filter_map(|i| Some((mine_actions(t.block, slots[i].map(|s| s.item))?, i)))
                .min()
                .filter(|&(n, _)| n + 1 < now)
                .map(|(_, i)| i)
        }
        _ => tool,
    };
    match want {
        Some(slot) if slot != w.player.selected => SELECT[slot],
        _ => action,
    }
}

/// The next action with the held tool as it is.
fn plan(g: &MinecraftClone, kinds: &[BlockId], res: &str) -> &'static str {
    let w = &g.world;
    let eye = w.eye();
    let (yaw, pitch) = (w.player.yaw, w.player.pitch);
    let hit = |y: f64, p: f64| raycast_blocks(&w.terrain, eye, dir(y, p), REACH);
    // Cheapest view (in look steps, any yaw) that targets a resource block
    // whose drop lands within the item magnet's pull of the player.
    let body = w.player.body.pos;
    let pc = [body[0], body[1] + 0.9, body[2]];
    let pulled = |p: [i32; 3]| {
        let d = [
            p[0] as f64 + 0.5 - pc[0],
            p[1] as f64 + 0.5 - pc[1],
            p[2] as f64 + 0.5 - pc[2],
        ];
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < MAGNET_SAFE * MAGNET_SAFE
    };
    let mut best: Option<(i32, i32, i32)> = None;
    for dy in -9i32..=9 {
        for dp in -4i32..=4 {
            let np = pitch + dp as f64 * STEP_DEG;
            if !(-90.0..=90.0).contains(&np) {
                continue;
            }
            if let Some(t) = hit(yaw + dy as f64 * STEP_DEG, np)
                && kinds.contains(&t.block)
                && pulled(t.pos)
            {
                let cost = dy.abs() + dp.abs();
                if best.is_none_or(|(c, _, _)| cost < c) {
                    best = Some((cost, dy, dp));
                }
            }
        }
    }
    if let Some((cost, dy, dp)) = best {
        if cost == 0 {
            return "mine_target";
        }
        return look(dy, dp);
    }
    // Walk towards the nearest exposed target block.
    let c = [
        libm::floor(eye[0]) as i32,
        libm::floor(eye[1]) as i32,
        libm::floor(eye[2]) as i32,
    ];
    // Only blocks near eye height count (ones exposed to a cave far below
    // are not reachable on foot), and not ones straight underfoot.
    let goal = exposed_near(&w.terrain, c, 16, kinds)
        .into_iter()
        .filter(|p| (p[1] - c[1]).abs() <= 3 && (p[0] - c[0]).abs().max((p[2] - c[2]).abs()) >= 1)
        .min_by(|a, b| goal_cost(a, c, eye, yaw).total_cmp(&goal_cost(b, c, eye, yaw)));
    let Some(goal) = goal else {
        // Nothing exposed nearby: stone and ores lie under the soil, so dig
        // a staircase down (aim steeply ahead, mine, step in); other
        // resources: walk on.
        if matches!(res, "stone" | "iron_ore" | "coal_ore") {
            let want = STEP_DEG * 3.0;
            if (pitch - want).abs() > STEP_DEG / 2.0 {
                return if pitch < want { "look_down" } else { "look_up" };
            }
            return if hit(yaw, pitch).is_some() {
                "mine_target"
            } else {
                "move_forward"
            };
        }
        return forward_or_dig(g, pitch);
    };
    // The goal is within reach but hidden behind other blocks (leaves, or
    // the soil over a mountain's stone): aim along the grid view nearest
    // its direction and clear what is in the way.
    let held = w.player.inventory.slots[w.player.selected].map(|s| s.item);
    let in_the_way = |t: Option<gw_world::world::Target>| {
        t.is_some_and(|t| {
            !kinds.contains(&t.block) && gw_world::inventory::mining(t.block, held).ticks.is_some()
        })
    };
    if gw_world::world::dist_to_box(eye, goal) < REACH - 0.3
        && pulled(goal)
        && !kinds.contains(&b::OAK_LEAVES)
    {
        let v = [
            goal[0] as f64 + 0.5 - eye[0],
            goal[1] as f64 + 0.5 - eye[1],
            goal[2] as f64 + 0.5 - eye[2],
        ];
        let n = libm::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        let mut aim = (f64::NEG_INFINITY, 0, 0);
        for dy in -9i32..=9 {
            for dp in -4i32..=4 {
                let np = pitch + dp as f64 * STEP_DEG;
                if !(-90.0..=90.0).contains(&np) {
                    continue;
                }
                let r = dir(yaw + dy as f64 * STEP_DEG, np);
                let cos = (r[0] * v[0] + r[1] * v[1] + r[2] * v[2]) / n;
                if cos > aim.0 + 1e-9 {
                    aim = (cos, dy, dp);
                }
            }
        }
        let (ay, ap) = (aim.1, aim.2);
        let aimed = hit(yaw + ay as f64 * STEP_DEG, pitch + ap as f64 * STEP_DEG);
        if in_the_way(aimed) {
            return if (ay, ap) == (0, 0) {
                "mine_target"
            } else {
                look(ay, ap)
            };
        }
    }
    let (dx, dz) = (goal[0] as f64 + 0.5 - eye[0], goal[2] as f64 + 0.5 - eye[2]);
    let want = libm::atan2(-dx, dz).to_degrees();
    let diff = (want - yaw + 540.0).rem_euclid(360.0) - 180.0;
    if diff.abs() > STEP_DEG * 0.75 {
        return if diff > 0.0 {
            "look_right"
        } else {
            "look_left"
        };
    }
    forward_or_dig(g, pitch)
}

/// Blocks one move_forward (0.5 s at 4.3 blocks/s) covers, roughly.
const WALK_PER_STEP: f64 = 2.0;

/// The actions walking to block `p` costs from eye cell `c`, roughly: the
/// distance (a level difference counted as more) at [`WALK_PER_STEP`] plus
/// the look steps turning to face it. Counting the turn keeps the expert on
/// the goal it faces instead of swinging between two goals at about the same
/// distance on either side.
fn goal_cost(p: &[i32; 3], c: [i32; 3], eye: [f64; 3], yaw: f64) -> f64 {
    let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
    let dist = ((d[0] * d[0] + 2 * d[1] * d[1] + d[2] * d[2]) as f64).sqrt();
    let (dx, dz) = (p[0] as f64 + 0.5 - eye[0], p[2] as f64 + 0.5 - eye[2]);
    let want = libm::atan2(-dx, dz).to_degrees();
    let diff = (want - yaw + 540.0).rem_euclid(360.0) - 180.0;
    let turns = ((diff.abs() - STEP_DEG * 0.75) / STEP_DEG).ceil().max(0.0);
    dist / WALK_PER_STEP + turns
}

fn look(dy: i32, dp: i32) -> &'static str {
    if dy > 0 {
        "look_right"
    } else if dy < 0 {
        "look_left"
    } else if dp > 0 {
        "look_down"
    } else {
        "look_up"
    }
}

/// The cheapest view (look steps from the current one, any yaw, pitch within
/// four steps) whose crosshair block satisfies `want`: (cost, yaw steps,
/// pitch steps).
fn cheapest_view(
    g: &MinecraftClone,
    yaw_steps: i32,
    want: impl Fn(&gw_world::world::Target) -> bool,
) -> Option<(i32, i32, i32)> {
    let w = &g.world;
    let eye = w.eye();
    let (yaw, pitch) = (w.player.yaw, w.player.pitch);
    let mut best: Option<(i32, i32, i32)> = None;
    for dy in -yaw_steps..=yaw_steps {
        for dp in -4i32..=4 {
            let np = pitch + dp as f64 * STEP_DEG;
            if !(-90.0..=90.0).contains(&np) {
                continue;
            }
            let cost = dy.abs() + dp.abs();
            if best.is_some_and(|(c, _, _)| c <= cost) {
                continue;
            }
            if let Some(t) =
                raycast_blocks(&w.terrain, eye, dir(yaw + dy as f64 * STEP_DEG, np), REACH)
                && want(&t)
            {
                best = Some((cost, dy, dp));
            }
        }
    }
    best
}

/// Walk forward, first levelling the view; if a block stands in the way of
/// the player's body (at head height, or at foot height where no step up is
/// possible), turn to it and mine it.
fn forward_or_dig(g: &MinecraftClone, pitch: f64) -> &'static str {
    let w = &g.world;
    let pos = w.player.body.pos;
    let d = dir(w.player.yaw, 0.0);
    let solid = |c: [i32; 3]| {
        gw_world::data::data()
            .block(w.terrain.get(c[0], c[1], c[2]))
            .solid
    };
    let feet_y = libm::floor(pos[1] + 0.01) as i32;
    // The cells the body's leading edge and both leading corners move into.
    let half = w.player.body.width / 2.0;
    let side = [-d[2], 0.0, d[0]];
    let mut blocking: Vec<[i32; 3]> = Vec::new();
    let own_above = [
        libm::floor(pos[0]) as i32,
        feet_y + 2,
        libm::floor(pos[2]) as i32,
    ];
    // Which leading corners are blocked: right, left.
    let mut corner = [false, false];
    for (k, off) in [0.0, half, -half].into_iter().enumerate() {
        let before = blocking.len();
        let (x, z) = (
            pos[0] + d[0] * (half + 0.45) + side[0] * off,
            pos[2] + d[2] * (half + 0.45) + side[2] * off,
        );
        let (cx, cz) = (libm::floor(x) as i32, libm::floor(z) as i32);
        let feet = [cx, feet_y, cz];
        let head = [cx, feet_y + 1, cz];
        let above = [cx, feet_y + 2, cz];
        if solid(head) {
            blocking.push(head);
        }
        if solid(feet) && (solid(above) || solid(head)) {
            blocking.push(feet);
            if solid(above) {
                blocking.push(above);
            }
        } else if solid(feet) && solid(own_above) && !blocking.contains(&own_above) {
            // Stepping up needs head room over the current spot too.
            blocking.push(own_above);
        }
        if k > 0 && blocking.len() > before {
            corner[k - 1] = true;
        }
    }
    if !blocking.is_empty() {
        // Dig what the crosshair can reach without turning away from the
        // walking direction; a block only under one shoulder: side-step.
        return match cheapest_view(g, 0, |t| blocking.contains(&t.pos)) {
            Some((0, _, _)) => "mine_target",
            Some((_, dy, dp)) => look(dy, dp),
            None if corner[0] && !corner[1] => "move_left",
            None if corner[1] && !corner[0] => "move_right",
            None => "jump",
        };
    }
    if pitch.abs() > STEP_DEG / 2.0 {
        return if pitch > 0.0 { "look_up" } else { "look_down" };
    }
    "move_forward"
}
