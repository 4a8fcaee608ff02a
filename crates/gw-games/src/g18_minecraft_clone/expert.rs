//! Scripted expert: picks the tool for the task's resource, mines it when it
//! is under the crosshair, otherwise turns towards the cheapest view (in look
//! steps) that puts a target block under the crosshair, otherwise walks
//! towards the nearest exposed target block, digging through whatever stands
//! in the way. It reads the world's state, never future random draws.

use super::{LOOK_DEG_PER_PX, MinecraftClone, exposed_near, target_blocks};
use gw_core::TaskInfo;
use gw_world::data::BlockId;
use gw_world::world::{REACH, raycast_blocks};

/// Degrees one look_* action turns (100 px from the centre).
const STEP_DEG: f64 = 100.0 * LOOK_DEG_PER_PX as f64;

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

pub fn choose(g: &MinecraftClone, task: &TaskInfo) -> &'static str {
    let res = resource_of(task);
    let kinds: Vec<BlockId> = target_blocks(res);
    let w = &g.world;
    let tools: &[&str] = match res {
        "wood_log" => &["golden_axe", "iron_axe"],
        "dirt" => &["iron_shovel"],
        "leaves" => &["shears"],
        "stone" => &["golden_pickaxe", "iron_pickaxe"],
        _ => &["iron_pickaxe"],
    };
    let d = gw_world::data::data();
    let slot = tools.iter().find_map(|t| {
        (0..9).find(|&i| w.player.inventory.slots[i].is_some_and(|s| d.item_name(s.item) == *t))
    });
    if let Some(slot) = slot
        && w.player.selected != slot
    {
        return SELECT[slot];
    }
    let eye = w.eye();
    let (yaw, pitch) = (w.player.yaw, w.player.pitch);
    let hit = |y: f64, p: f64| raycast_blocks(&w.terrain, eye, dir(y, p), REACH);
    if let Some(t) = hit(yaw, pitch)
        && kinds.contains(&t.block)
    {
        return "mine_target";
    }
    // Cheapest view within three look steps each way that targets the resource.
    let mut best: Option<(i32, i32, i32)> = None;
    for dy in -3i32..=3 {
        for dp in -3i32..=3 {
            let np = pitch + dp as f64 * STEP_DEG;
            if !(-90.0..=90.0).contains(&np) {
                continue;
            }
            if let Some(t) = hit(yaw + dy as f64 * STEP_DEG, np)
                && kinds.contains(&t.block)
            {
                let cost = dy.abs() + dp.abs();
                if best.is_none_or(|(c, _, _)| cost < c) {
                    best = Some((cost, dy, dp));
                }
            }
        }
    }
    if let Some((_, dy, dp)) = best {
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
    let goal = exposed_near(&w.terrain, c, 16, &kinds)
        .into_iter()
        .filter(|p| (p[1] - c[1]).abs() <= 3 && (p[0] - c[0]).abs().max((p[2] - c[2]).abs()) >= 1)
        .min_by_key(|p| {
            let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
            d[0] * d[0] + 2 * d[1] * d[1] + d[2] * d[2]
        });
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

/// Walk forward, first levelling the view; if a block blocks the way at
/// head or foot height, mine it.
fn forward_or_dig(g: &MinecraftClone, pitch: f64) -> &'static str {
    let w = &g.world;
    let eye = w.eye();
    let d = dir(w.player.yaw, 0.0);
    let ahead = |dy: f64| {
        let (x, y, z) = (eye[0] + d[0] * 0.9, eye[1] + dy, eye[2] + d[2] * 0.9);
        let v = w.terrain.get(
            libm::floor(x) as i32,
            libm::floor(y) as i32,
            libm::floor(z) as i32,
        );
        gw_world::data::data().block(v).solid
    };
    let head = ahead(0.0);
    let feet = ahead(-1.0);
    let step_ok = !ahead(1.0) && !head;
    if head || (feet && !step_ok) {
        // Aim at the blocking block and dig.
        let want = if head { 0.0 } else { STEP_DEG * 2.0 };
        if (pitch - want).abs() > STEP_DEG / 2.0 {
            return if pitch < want { "look_down" } else { "look_up" };
        }
        return "mine_target";
    }
    if pitch.abs() > STEP_DEG / 2.0 {
        return if pitch > 0.0 { "look_up" } else { "look_down" };
    }
    "move_forward"
}
