//! Scripted expert: picks the tool for the task's resource, mines it when it
//! is under the crosshair, otherwise turns towards the cheapest view (in look
//! steps, any yaw) that puts a target block under the crosshair, counting
//! only blocks whose drop lands within the item magnet's pull; otherwise it
//! walks towards the exposed target block quickest to reach (distance plus
//! the turn to face it), digging whatever stands in
//! the body's way (head height, an un-steppable foot block, a low ceiling over
//! a step up) and side-stepping a block under one shoulder. Ore (iron,
//! coal) lies out of sight inside the stone: [`plan_ore`] digs a shaft down
//! from the surface and tunnels along view rays to the ore it knows of. It
//! reads the world's state, never future random draws.

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
    let ore = matches!(res, "iron_ore" | "coal_ore");
    let action = ore
        .then(|| plan_ore(g, task, &kinds, res))
        .flatten()
        .unwrap_or_else(|| plan(g, &kinds, res));
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

/// Mining actions charged for a block the ore planner cannot break.
const UNBREAKABLE: u32 = u32::MAX / 4;

/// A view the look actions reach from the current one: the look steps it
/// takes (yaw steps, pitch steps; pitch clamps at ±90°) and its direction.
struct View {
    dy: i32,
    dp: i32,
    dir: [f64; 3],
}

/// Every view within half a turn of yaw and any pitch (pitch steps that end
/// on the same clamped pitch counted once, at the fewest steps).
fn views(yaw: f64, pitch: f64) -> Vec<View> {
    let mut pitches: Vec<(f64, i32)> = Vec::new();
    for k in 0..=9i32 {
        for dp in [k, -k] {
            let np = (pitch + dp as f64 * STEP_DEG).clamp(-90.0, 90.0);
            if !pitches.iter().any(|(p, _)| (p - np).abs() < 1e-6) {
                pitches.push((np, dp));
            }
        }
    }
    let mut out = Vec::new();
    for dy in -9i32..=8 {
        for &(np, dp) in &pitches {
            out.push(View {
                dy,
                dp,
                dir: dir(yaw + dy as f64 * STEP_DEG, np),
            });
        }
    }
    out
}

/// The blocks a ray from `eye` meets within reach, in order (air and
/// fluids skipped, as the crosshair does; cells `open` says are dug read as
/// air). Stops at an unloaded cell.
fn ray_blocks(
    g: &MinecraftClone,
    eye: [f64; 3],
    d: [f64; 3],
    open: &impl Fn([i32; 3]) -> bool,
) -> Vec<([i32; 3], BlockId)> {
    let t = &g.world.terrain;
    let mut walk = gw_world::ray::VoxelWalk::new(eye, d);
    let mut out = Vec::new();
    loop {
        let c = walk.cell;
        let v = if open(c) {
            b::AIR
        } else {
            t.get(c[0], c[1], c[2])
        };
        if v == gw_world::terrain::UNLOADED {
            return out;
        }
        if v != b::AIR && v != b::WATER && v != b::LAVA {
            out.push((c, v));
        }
        if walk.advance().1 > REACH {
            return out;
        }
    }
}

/// Where a body standing with its feet in cell `feet` comes to rest once the
/// block under it is dug out: the new feet cell, or None when the fall is
/// longer than three blocks (it would hurt) or ends in a fluid.
fn fall_from(g: &MinecraftClone, feet: [i32; 3], open: &impl Fn([i32; 3]) -> bool) -> Option<i32> {
    let t = &g.world.terrain;
    let at = |y: i32| {
        let c = [feet[0], y, feet[2]];
        if open(c) {
            b::AIR
        } else {
            t.get(c[0], c[1], c[2])
        }
    };
    let mut y = feet[1] - 1;
    loop {
        let v = at(y - 1);
        if v == b::WATER || v == b::LAVA || v == gw_world::terrain::UNLOADED || y < 1 {
            return None;
        }
        if gw_world::data::data().block(v).solid {
            return Some(y);
        }
        y -= 1;
        if feet[1] - y > 3 {
            return None;
        }
    }
}

/// The ore planner (iron and coal lie inside the stone, out of sight): the
/// expert knows where the ore blocks are. It weighs digging straight down
/// through the floor (a one-block shaft: one action a block, the body
/// following each block down) against mining from where it stands, and from
/// a spot it keeps, aims along the view whose ray reaches ore for the
/// fewest actions per ore (look steps plus every block on the ray before the
/// ore, mined one after another), counting only ore whose drop the magnet
/// pulls in. None when no ore is in reach from the shaft at any depth (the
/// general planner walks on).
fn plan_ore(
    g: &MinecraftClone,
    task: &TaskInfo,
    kinds: &[BlockId],
    res: &str,
) -> Option<&'static str> {
    let w = &g.world;
    let d = gw_world::data::data();
    let pick = resource_tools(res)
        .iter()
        .find_map(|t| {
            w.player
                .inventory
                .slots
                .iter()
                .flatten()
                .find(|s| d.item_name(s.item) == *t)
        })
        .map(|s| s.item);
    let cost_of = |v: BlockId| mine_actions(v, pick).unwrap_or(UNBREAKABLE);
    let body = &w.player.body;
    let (yaw, pitch) = (w.player.yaw, w.player.pitch);
    let pos = body.pos;
    let solid = |x: i32, y: i32, z: i32| d.block(w.terrain.get(x, y, z)).solid;
    let mut feet = [
        libm::floor(pos[0]) as i32,
        libm::floor(pos[1] + 0.01) as i32,
        libm::floor(pos[2]) as i32,
    ];
    // Falling (down the shaft): plan from where the body lands.
    if !body.on_ground {
        for _ in 0..16 {
            if feet[1] <= 1 || solid(feet[0], feet[1] - 1, feet[2]) {
                break;
            }
            feet[1] -= 1;
        }
    }
    // The body can stand on the edge of a block with air under its middle;
    // then the shaft is not its way down.
    let centred = solid(feet[0], feet[1] - 1, feet[2]);
    let all_views = views(yaw, pitch);
    // Ore still to collect: the target less what is gained and in flight.
    let item = d.item_id(res);
    let gained = item.map_or(0, |i| w.obtained.get(&i).copied().unwrap_or(0));
    let flying: u32 = w
        .items
        .iter()
        .filter(|it| Some(it.item) == item)
        .map(|it| it.count)
        .sum();
    let need = ((task.target.ceil() as i64 - gained as i64 - flying as i64).max(1)) as usize;

    // Digging out the floor under feet level `f`: where the body lands,
    // the block dug and the actions it takes. A held button carries on into
    // the next floor within the same action (stone breaks in under half of
    // one), so a floor is dug only where the one under the landing spot
    // could be dug safely too (or cannot be dug at all): a cave under the
    // shaft is never fallen into.
    let dig = |f: i32| -> Option<(i32, BlockId, u32)> {
        let floor = w.terrain.get(feet[0], f - 1, feet[2]);
        let n = cost_of(floor);
        if !d.block(floor).solid || n >= UNBREAKABLE {
            return None;
        }
        let none = |_: [i32; 3]| false;
        let land = fall_from(g, [feet[0], f, feet[2]], &none)?;
        Some((land, floor, n))
    };
    let may_dig = |f: i32| -> Option<(i32, BlockId, u32)> {
        let (land, floor, n) = dig(f)?;
        let under = w.terrain.get(feet[0], land - 1, feet[2]);
        (cost_of(under) >= UNBREAKABLE || dig(land).is_some()).then_some((land, floor, n))
    };

    // The shaft: each level the body can reach by digging out the floor,
    // with the actions that takes (turning the view down first) and the ore
    // dug on the way.
    let down_turns = if pitch >= 80.0 - 1e-6 {
        0
    } else {
        ((80.0 - pitch) / STEP_DEG).ceil() as u32
    };
    let mut levels: Vec<(u32, i32, usize)> = vec![(0, feet[1], 0)];
    if centred {
        let (mut f, mut cost, mut dug) = (feet[1], down_turns, 0usize);
        for _ in 0..10 {
            let Some((land, floor, n)) = may_dig(f) else {
                break;
            };
            cost += n;
            dug += usize::from(kinds.contains(&floor));
            f = land;
            levels.push((cost, f, dug));
        }
    }

    // Per level: the actions the cheapest `need` ore blocks take from there
    // (each on its cheapest ray), ore the level cannot reach at a high price.
    let est = |li: usize| -> u32 {
        let (cost, f, dug) = levels[li];
        let open =
            |c: [i32; 3]| c[0] == feet[0] && c[2] == feet[2] && c[1] >= f && c[1] <= feet[1] + 1;
        let eye = [pos[0], f as f64 + gw_world::world::EYE, pos[2]];
        let pc = [pos[0], f as f64 + 0.9, pos[2]];
        let mut best: Vec<([i32; 3], u32)> = Vec::new();
        for v in &all_views {
            let mut acc = 0u32;
            for (c, b) in ray_blocks(g, eye, v.dir, &open) {
                if c == [feet[0], f - 1, feet[2]] {
                    break;
                }
                acc = acc.saturating_add(cost_of(b));
                if acc >= UNBREAKABLE {
                    break;
                }
                if kinds.contains(&b) && pulled_from(pc, c) {
                    match best.iter_mut().find(|(p, _)| *p == c) {
                        Some(e) => e.1 = e.1.min(acc),
                        None => best.push((c, acc)),
                    }
                }
            }
        }
        let mut costs: Vec<u32> = best.into_iter().map(|(_, n)| n).collect();
        costs.sort_unstable();
        let want = need.saturating_sub(dug);
        let missing = want.saturating_sub(costs.len()) as u32;
        cost + costs.iter().take(want).sum::<u32>() + 12 * missing
    };
    let ests: Vec<u32> = (0..levels.len()).map(est).collect();
    let (best_level, best_est) = ests
        .iter()
        .enumerate()
        .min_by_key(|&(i, e)| (*e, i))
        .map(|(i, e)| (i, *e))?;
    if best_est >= 12 * need as u32 {
        // No ore within reach from any depth of the shaft.
        return None;
    }
    let floor = [feet[0], feet[1] - 1, feet[2]];
    let target = raycast_blocks(&w.terrain, w.eye(), dir(yaw, pitch), REACH);
    if best_level > 0 {
        // Dig down: aim at the floor, mine it (and a plant standing in the
        // way, as tall grass where the body stands).
        if target
            .is_some_and(|t| (t.pos[0], t.pos[2]) == (floor[0], floor[2]) && t.pos[1] >= floor[1])
        {
            return Some("mine_target");
        }
        return (pitch < 90.0 - 1e-6).then_some("look_down");
    }
    // Mine from here: the view with the fewest actions per ore.
    let eye = [pos[0], feet[1] as f64 + gw_world::world::EYE, pos[2]];
    let pc = [pos[0], feet[1] as f64 + 0.9, pos[2]];
    let none = |_: [i32; 3]| false;
    let safe_floor = centred && may_dig(feet[1]).is_some();
    let mut choice: Option<((u64, u32), i32, i32)> = None;
    for v in &all_views {
        let turns = (v.dy.abs() + v.dp.abs()) as u32;
        let (mut acc, mut ores) = (turns, 0u32);
        let mut rate: Option<(u64, u32)> = None;
        for (c, b) in ray_blocks(g, eye, v.dir, &none) {
            let ore = kinds.contains(&b) && pulled_from(pc, c);
            if c == floor && !(ore && safe_floor) {
                break;
            }
            acc = acc.saturating_add(cost_of(b));
            if acc >= UNBREAKABLE {
                break;
            }
            if ore {
                ores += 1;
                // Actions per ore, scaled to compare without floats; ties
                // go to the fewer look steps.
                let r = (acc as u64 * 1000 / ores as u64, turns);
                if rate.is_none_or(|x| r < x) {
                    rate = Some(r);
                }
            }
            if c == floor {
                break;
            }
        }
        if let Some(r) = rate
            && choice.is_none_or(|(x, _, _)| r < x)
        {
            choice = Some((r, v.dy, v.dp));
        }
    }
    let (_, dy, dp) = choice?;
    Some(if (dy, dp) == (0, 0) {
        "mine_target"
    } else {
        look(dy, dp)
    })
}

/// Whether a block's drop (at its centre) lies within [`MAGNET_SAFE`] of the
/// player's middle `pc`.
fn pulled_from(pc: [f64; 3], p: [i32; 3]) -> bool {
    let d = [
        p[0] as f64 + 0.5 - pc[0],
        p[1] as f64 + 0.5 - pc[1],
        p[2] as f64 + 0.5 - pc[2],
    ];
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < MAGNET_SAFE * MAGNET_SAFE
}
