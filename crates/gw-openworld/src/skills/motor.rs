//! Motor primitives over the world's privileged state: aim at a block face,
//! mine what the crosshair needs, equip from the hotbar, step cell by cell
//! (tunnelling through what stands in the way, climbing steps, digging a
//! shaft down, pillaring up) and place a block. Each returns one tick's
//! [`Action`].

use gw_world::data::{BlockId, ItemId, ToolKind, b, data};
use gw_world::inventory::HOTBAR;
use gw_world::terrain::UNLOADED;
use gw_world::world::{REACH, dist_to_box, raycast_blocks};
use gw_world::{Action, World};

/// Largest camera turn per tick, degrees: the VPT camera bins' limit, so
/// every turn is one a VPT label holds exactly.
pub const MAX_TURN: f64 = 10.0;

pub type Cell = [i32; 3];

pub fn add(c: Cell, d: Cell) -> Cell {
    [c[0] + d[0], c[1] + d[1], c[2] + d[2]]
}

/// Squared distance between two cells.
pub fn dist2(a: Cell, b: Cell) -> i32 {
    (a[0] - b[0]).pow(2) + (a[1] - b[1]).pow(2) + (a[2] - b[2]).pow(2)
}

pub fn block(w: &World, c: Cell) -> BlockId {
    w.terrain.get(c[0], c[1], c[2])
}

pub fn solid(w: &World, c: Cell) -> bool {
    let v = block(w, c);
    v == UNLOADED || data().block(v).solid
}

fn liquid(v: BlockId) -> bool {
    v == b::LAVA || v == b::WATER
}

/// The cell the player's feet are in.
pub fn feet(w: &World) -> Cell {
    let p = w.player.body.pos;
    [
        libm::floor(p[0]) as i32,
        libm::floor(p[1] + 0.01) as i32,
        libm::floor(p[2]) as i32,
    ]
}

fn dir(yaw: f64, pitch: f64) -> [f64; 3] {
    let (y, p) = (yaw.to_radians(), pitch.to_radians());
    [
        -libm::sin(y) * libm::cos(p),
        -libm::sin(p),
        libm::cos(y) * libm::cos(p),
    ]
}

/// Yaw and pitch that look from the eye at point `p`.
pub fn angles_to(w: &World, p: [f64; 3]) -> (f64, f64) {
    let e = w.eye();
    let d = [p[0] - e[0], p[1] - e[1], p[2] - e[2]];
    let yaw = libm::atan2(-d[0], d[2]).to_degrees();
    let pitch = -libm::atan2(d[1], libm::hypot(d[0], d[2])).to_degrees();
    (yaw, pitch)
}

pub fn wrap(a: f64) -> f64 {
    (a + 540.0).rem_euclid(360.0) - 180.0
}

/// Camera deltas that turn towards `yaw`, `pitch`: clamped to
/// [`MAX_TURN`] and snapped to the VPT bin centres (a turn under a third of
/// a degree is no turn).
pub fn turn(w: &World, yaw: f64, pitch: f64) -> (f32, f32) {
    let dy = wrap(yaw - w.player.yaw).clamp(-MAX_TURN, MAX_TURN);
    let dp = (pitch - w.player.pitch).clamp(-MAX_TURN, MAX_TURN);
    let snap = gw_world::action::camera::snap;
    (snap(dy as f32), snap(dp as f32))
}

pub fn look(w: &World, yaw: f64, pitch: f64) -> Action {
    let (y, p) = turn(w, yaw, pitch);
    Action {
        yaw: y,
        pitch: p,
        ..Default::default()
    }
}

/// Whether the sky shows straight above the head: no block but leaves,
/// logs or plants up to the top of the world (what a player sees looking up).
pub fn sky_above(w: &World) -> bool {
    let f = feet(w);
    (f[1] + 2..gw_world::terrain::HEIGHT).all(|y| {
        let v = block(w, [f[0], y, f[2]]);
        let d = data().block(v);
        !d.solid || d.name.ends_with("_leaves") || d.name.ends_with("_log")
    })
}

/// Whether the crosshair could reach block `c`.
pub fn in_reach(w: &World, c: Cell) -> bool {
    dist_to_box(w.eye(), c) <= REACH - 0.1
}

/// A point on block `c` the eye sees it by: the centre of a face open to
/// the air and facing the eye whose ray hits `c` first, else its centre.
fn aim_point(w: &World, c: Cell) -> ([f64; 3], bool) {
    let e = w.eye();
    let centre = [c[0] as f64 + 0.5, c[1] as f64 + 0.5, c[2] as f64 + 0.5];
    let mut best: Option<(f64, [f64; 3])> = None;
    for n in [
        [0, 1, 0],
        [0, -1, 0],
        [1, 0, 0],
        [-1, 0, 0],
        [0, 0, 1],
        [0, 0, -1],
    ] {
        let nb = add(c, n);
        if solid(w, nb) && block(w, nb) != b::TALL_GRASS {
            continue;
        }
        let f = [
            centre[0] + n[0] as f64 * 0.49,
            centre[1] + n[1] as f64 * 0.49,
            centre[2] + n[2] as f64 * 0.49,
        ];
        let to_eye = [e[0] - f[0], e[1] - f[1], e[2] - f[2]];
        if to_eye[0] * n[0] as f64 + to_eye[1] * n[1] as f64 + to_eye[2] * n[2] as f64 <= 0.0 {
            continue;
        }
        let (yaw, pitch) = angles_to(w, f);
        let hit = raycast_blocks(&w.terrain, e, dir(yaw, pitch), REACH);
        if hit.is_some_and(|t| t.pos == c) {
            let d = libm::sqrt(to_eye.iter().map(|v| v * v).sum());
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, f));
            }
        }
    }
    match best {
        Some((_, f)) => (f, true),
        None => (centre, false),
    }
}

/// Whether mining block `c` is safe and useful: breakable, and not the floor
/// over a drop into lava or water.
pub fn breakable(w: &World, c: Cell) -> bool {
    let v = block(w, c);
    if v == UNLOADED
        || v == b::AIR
        || liquid(v)
        || data().block(v).hardness < 0.0
        || v == b::CRAFTING_TABLE
        || v == b::FURNACE
    {
        // Stations placed by the player are kept, never dug through.
        return false;
    }
    // Never open a ceiling of liquid (no fluid flow, but a hole to fall in).
    let f = feet(w);
    if liquid(block(w, add(c, [0, 1, 0]))) && c[1] >= f[1] {
        return false;
    }
    // Nor a floor below the feet with lava under it: the next step, or the
    // body itself, would drop in.
    c[1] >= f[1] || drop_below(w, c).1 != b::LAVA
}

/// One tick of mining block `c`: aim at it and hold attack once the
/// crosshair is on it; an unbreakable block in the way gives `None`, a
/// breakable one in the way is mined first. `None` when out of reach.
pub fn mine_at(w: &World, c: Cell) -> Option<Action> {
    if !in_reach(w, c) {
        return None;
    }
    let e = w.eye();
    let now = raycast_blocks(&w.terrain, e, w.look_dir(), REACH);
    if let Some(t) = now
        && t.pos == c
    {
        return Some(Action {
            attack: true,
            ..Default::default()
        });
    }
    let (p, clear) = aim_point(w, c);
    let (yaw, pitch) = angles_to(w, p);
    let (mut dy, mut dp) = turn(w, yaw, pitch);
    if dy == 0.0 && dp == 0.0 {
        // Off the block by less than the smallest camera bin: nudge by
        // that bin towards the aim point; on it already and still not
        // hitting it (out of reach along this line): let the caller move.
        let ry = wrap(yaw - w.player.yaw);
        let rp = pitch - w.player.pitch;
        let nudge = gw_world::action::camera::decode(gw_world::action::camera::NULL_BIN + 1);
        if ry.abs() < 0.05 && rp.abs() < 0.05 {
            return None;
        }
        if ry.abs() >= rp.abs() {
            dy = nudge.copysign(ry as f32);
        } else {
            dp = nudge.copysign(rp as f32);
        }
    }
    if (dy.abs() as f64) < MAX_TURN - 0.5 && (dp.abs() as f64) < MAX_TURN - 0.5 {
        // On target after this turn: see what the crosshair will hit.
        let after = raycast_blocks(
            &w.terrain,
            e,
            dir(w.player.yaw + dy as f64, w.player.pitch + dp as f64),
            REACH,
        );
        if !clear
            && let Some(t) = after
            && t.pos != c
            && !breakable(w, t.pos)
        {
            return None;
        }
        if after.is_none() && now.is_none() && dy.abs() < 1.0 && dp.abs() < 1.0 {
            // Aimed, yet nothing within reach along the line: get closer.
            return None;
        }
    }
    Some(Action {
        yaw: dy,
        pitch: dp,
        attack: now.is_some_and(|t| t.pos != c && !clear && breakable(w, t.pos))
            && dy.abs() < 1.0
            && dp.abs() < 1.0,
        ..Default::default()
    })
}

/// The hotbar slot (0-based) holding `item`, if any.
pub fn hotbar_slot(w: &World, item: ItemId) -> Option<usize> {
    (0..HOTBAR).find(|&i| w.player.inventory.slots[i].is_some_and(|s| s.item == item))
}

/// The hotbar slot to hold while mining block `v`: the lowest-tier tool of
/// the right kind that harvests it (sparing better tools' durability for
/// what needs them), else a slot that holds no tool.
pub fn slot_for_block(w: &World, v: BlockId) -> usize {
    let d = data();
    let def = d.block(v);
    let mut best: Option<((i8, i32), usize)> = None;
    for i in 0..HOTBAR {
        if let Some(s) = w.player.inventory.slots[i]
            && let Some(t) = d.item_def(s.item).tool
            && t.kind == def.tool
            && def.tool != ToolKind::None
            && t.level >= def.level
        {
            let key = (t.level, -(t.speed as i32));
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, i));
            }
        }
    }
    if let Some((_, i)) = best {
        return i;
    }
    let cur = w.player.selected;
    let no_tool =
        |i: usize| w.player.inventory.slots[i].is_none_or(|s| d.item_def(s.item).tool.is_none());
    if no_tool(cur) {
        return cur;
    }
    (0..HOTBAR).find(|&i| no_tool(i)).unwrap_or(cur)
}

/// Select hotbar slot `i` (an action) unless it is already selected.
pub fn select(w: &World, i: usize) -> Option<Action> {
    (w.player.selected != i).then(|| Action {
        hotbar: Some(i as u8 + 1),
        ..Default::default()
    })
}

/// Equip for and mine `c` (one tick).
pub fn equip_and_mine(w: &World, c: Cell) -> Option<Action> {
    let t = raycast_blocks(&w.terrain, w.eye(), w.look_dir(), REACH);
    let v = match t {
        Some(t) if t.pos == c => block(w, c),
        Some(t) => t.block,
        None => block(w, c),
    };
    if let Some(a) = select(w, slot_for_block(w, v)) {
        return Some(a);
    }
    mine_at(w, c)
}

/// How far one falls stepping into cell `c` (0 = its floor is solid), and
/// what one lands on: a solid block, water or lava (air when the drop goes
/// on past six blocks).
fn drop_below(w: &World, c: Cell) -> (i32, BlockId) {
    for k in 1..=6 {
        let v = block(w, add(c, [0, -k, 0]));
        if liquid(v) || v == UNLOADED || data().block(v).solid {
            return (k - 1, v);
        }
    }
    (6, b::AIR)
}

const DIRS: [Cell; 4] = [[1, 0, 0], [-1, 0, 0], [0, 0, 1], [0, 0, -1]];

/// Blocks a step into the neighbour cell `n` (from `c`) needs removed, and
/// whether the step is allowed at all. `up`: climb onto a block at `n`.
fn step_plan(w: &World, c: Cell, n: Cell, prefer_up: bool) -> Option<Vec<Cell>> {
    let head = add(n, [0, 1, 0]);
    let above = add(n, [0, 2, 0]);
    let own_above = add(c, [0, 2, 0]);
    let mut mine = Vec::new();
    let v = block(w, n);
    if v == b::LAVA || block(w, head) == b::LAVA {
        return None;
    }
    if solid(w, n) {
        if prefer_up || !breakable(w, n) {
            // Climb: n stays as the step; clear head room on both sides.
            for x in [own_above, above, head] {
                if solid(w, x) {
                    if !breakable(w, x) {
                        return None;
                    }
                    mine.push(x);
                }
            }
            if block(w, add(above, [0, 1, 0])) == b::LAVA {
                return None;
            }
            return Some(mine);
        }
        for x in [head, n] {
            if solid(w, x) {
                if !breakable(w, x) {
                    return None;
                }
                mine.push(x);
            }
        }
        return Some(mine);
    }
    if solid(w, head) {
        if !breakable(w, head) {
            return None;
        }
        mine.push(head);
    }
    let (fall, landing) = drop_below(w, n);
    if fall > 3 || landing == b::LAVA {
        return None;
    }
    Some(mine)
}

/// Walk one cell towards `n` (a neighbour of the feet cell), after mining
/// what is in the way. `None` when the step is not possible.
fn step_to(w: &World, n: Cell, prefer_up: bool) -> Option<Action> {
    let c = feet(w);
    let mine = step_plan(w, c, n, prefer_up)?;
    if let Some(&x) = mine.first() {
        return equip_and_mine(w, x);
    }
    let p = w.player.body.pos;
    let (tx, tz) = (n[0] as f64 + 0.5, n[2] as f64 + 0.5);
    let yaw = libm::atan2(-(tx - p[0]), tz - p[2]).to_degrees();
    // Face along the axis of the step; keep the body centred across it.
    let axis_yaw = libm::atan2(-((n[0] - c[0]) as f64), (n[2] - c[2]) as f64).to_degrees();
    let (dy, dp) = turn(w, axis_yaw, 0.0);
    let mut a = Action {
        yaw: dy,
        pitch: dp,
        forward: wrap(yaw - w.player.yaw).abs() < 60.0,
        jump: w.player.body.in_water,
        ..Default::default()
    };
    // Centre across the walking axis.
    let off = if n[0] != c[0] {
        p[2] - (c[2] as f64 + 0.5)
    } else {
        p[0] - (c[0] as f64 + 0.5)
    };
    if off.abs() > 0.15 {
        // Left strafe moves along (cos yaw, sin yaw).
        let yr = w.player.yaw.to_radians();
        let left = [libm::cos(yr), libm::sin(yr)];
        let along = if n[0] != c[0] { left[1] } else { left[0] };
        let go_left = (along > 0.0) == (off < 0.0);
        a.left = go_left;
        a.right = !go_left;
    }
    Some(a)
}

/// Whether the body sits inside one column (so digging below drops it).
fn centred(w: &World) -> bool {
    let p = w.player.body.pos;
    let fx = p[0] - libm::floor(p[0]);
    let fz = p[2] - libm::floor(p[2]);
    (0.32..=0.68).contains(&fx) && (0.32..=0.68).contains(&fz)
}

fn centre_move(w: &World) -> Action {
    let p = w.player.body.pos;
    let c = feet(w);
    let (tx, tz) = (c[0] as f64 + 0.5, c[2] as f64 + 0.5);
    let yaw = libm::atan2(-(tx - p[0]), tz - p[2]).to_degrees();
    let (dy, _) = turn(w, yaw, w.player.pitch);
    Action {
        yaw: dy,
        forward: wrap(yaw - w.player.yaw).abs() < 30.0,
        sneak: true,
        ..Default::default()
    }
}

/// Dig the block under the feet (centred, looking down) if the fall is
/// safe; `None` when it is not.
pub fn dig_down(w: &World) -> Option<Action> {
    let c = feet(w);
    let below = add(c, [0, -1, 0]);
    if !breakable(w, below) || c[1] <= 6 {
        return None;
    }
    let (fall, landing) = drop_below(w, below);
    if fall > 2 || liquid(landing) {
        return None;
    }
    if !w.player.body.on_ground {
        return Some(Action::default());
    }
    if !centred(w) {
        return Some(centre_move(w));
    }
    if let Some(a) = select(w, slot_for_block(w, block(w, below))) {
        return Some(a);
    }
    if w.player.pitch < 80.0 {
        return Some(look(w, w.player.yaw, 90.0));
    }
    mine_at(w, below)
}

/// Items good to build with (placed under the feet to climb).
const FILLER: [&str; 6] = [
    "dirt",
    "sand",
    "sandstone",
    "stone",
    "grass_block",
    "cobblestone",
];

/// Jump and place a block under the feet to rise one cell.
fn pillar_up(w: &World) -> Option<Action> {
    let c = feet(w);
    let up2 = add(c, [0, 2, 0]);
    // Head room is cleared standing: at the top of a jump the feet reach the
    // next cell, whose head room may be a roof, and aiming up at it then
    // would miss the moment to place under the feet (jumping forever).
    if solid(w, up2) && w.player.body.on_ground {
        return if breakable(w, up2) {
            equip_and_mine(w, up2)
        } else {
            None
        };
    }
    let d = data();
    let slot = FILLER
        .iter()
        .find_map(|n| d.item_id(n).and_then(|id| hotbar_slot(w, id)))?;
    if let Some(a) = select(w, slot) {
        return Some(a);
    }
    if w.player.pitch < 85.0 {
        return Some(look(w, w.player.yaw, 90.0));
    }
    if !centred(w) && w.player.body.on_ground {
        return Some(centre_move(w));
    }
    if w.player.body.on_ground {
        return Some(Action {
            jump: true,
            ..Default::default()
        });
    }
    // Airborne: once the cell under the feet is free and the body is clear
    // of it, place into it (the use press needs a release in between).
    let under = add(c, [0, -1, 0]);
    let p = w.player.body.pos;
    let free = !solid(w, under) && p[1] >= under[1] as f64 + 1.0;
    Some(Action {
        use_item: free && w.tick.is_multiple_of(2),
        ..Default::default()
    })
}

/// One tick towards standing where block `goal` is within reach: shaft
/// down when it is well below, pillar up when it is well above and near,
/// else step along the axis with the larger gap (the other if that one is
/// barred). `None` when no move is possible.
pub fn approach(w: &World, goal: Cell, tick: u64) -> Option<Action> {
    let c = feet(w);
    let (dx, dy, dz) = (goal[0] - c[0], goal[1] - c[1], goal[2] - c[2]);
    let flat = dx.abs().max(dz.abs());
    if w.player.body.in_water && !w.player.body.on_ground {
        // Swim: keep the head up and head for the goal.
        let mut a = step_to(
            w,
            add(
                c,
                if dx.abs() >= dz.abs() {
                    [dx.signum(), 0, 0]
                } else {
                    [0, 0, dz.signum()]
                },
            ),
            true,
        )
        .unwrap_or_default();
        a.jump = true;
        return Some(a);
    }
    // Shaft down only once above the goal: far off, walk (down slopes,
    // through hills) first — digging stone bare-handed towards a tree in the
    // valley costs minutes.
    if dy <= -2
        && flat <= 1
        && let Some(a) = dig_down(w)
    {
        return Some(a);
    }
    if dy >= 3
        && flat <= 1
        && let Some(a) = pillar_up(w)
    {
        return Some(a);
    }
    let prefer_up = dy > 0;
    let mut dirs: Vec<Cell> = Vec::new();
    let sx = [dx.signum(), 0, 0];
    let sz = [0, 0, dz.signum()];
    if dx.abs() >= dz.abs() {
        if dx != 0 {
            dirs.push(sx);
        }
        if dz != 0 {
            dirs.push(sz);
        }
    } else {
        if dz != 0 {
            dirs.push(sz);
        }
        if dx != 0 {
            dirs.push(sx);
        }
    }
    // Side-steps, in a fixed order that changes every few seconds.
    let k = (tick / 60) as usize;
    for i in 0..4 {
        let d = DIRS[(i + k) % 4];
        if !dirs.contains(&d) {
            dirs.push(d);
        }
    }
    for d in dirs {
        if let Some(mut a) = step_to(w, add(c, d), prefer_up) {
            // Far from the goal on open ground, in the goal's direction: sprint.
            a.sprint = a.forward
                && flat > 4
                && w.player.body.on_ground
                && !w.player.body.in_water
                && w.player.food > 6.0
                && (d[0] == dx.signum() && d[0] != 0 || d[2] == dz.signum() && d[2] != 0);
            return Some(a);
        }
    }
    if dy < 0 {
        return dig_down(w);
    }
    pillar_up(w)
}

/// One tick of placing the block item in hotbar `slot` into a free cell
/// near the player, against a face of a solid neighbour the crosshair can
/// reach (ground in the open, a wall or ceiling in a tunnel). `None` when no
/// such cell is in reach.
pub fn place_nearby(w: &World, slot: usize) -> Option<Action> {
    let (f, p) = place_spot(w)?;
    if let Some(a) = select(w, slot) {
        return Some(a);
    }
    let e = w.eye();
    let now = raycast_blocks(&w.terrain, e, w.look_dir(), REACH);
    let on = now.is_some_and(|t| add(t.pos, t.normal) == p);
    if on {
        return Some(Action {
            use_item: w.tick.is_multiple_of(2),
            ..Default::default()
        });
    }
    // Aim without overshooting: the camera moves in bins, and a move
    // larger than twice the error left would swing past the face and back
    // for ever (place_spot picks faces hit within AIM_SLACK of the aim).
    let (yaw, pitch) = angles_to(w, f);
    let mut a = look(w, yaw, pitch);
    let dy = wrap(yaw - w.player.yaw);
    let dp = pitch - w.player.pitch;
    if (a.yaw as f64).abs() > 2.0 * dy.abs() {
        a.yaw = 0.0;
    }
    if (a.pitch as f64).abs() > 2.0 * dp.abs() {
        a.pitch = 0.0;
    }
    Some(a)
}

/// Degrees either way of the aim within which a place spot's face must be
/// hit: more than the error left when the camera's bins can get no closer
/// (half the smallest turn).
const AIM_SLACK: f64 = 0.4;

/// The nearest free cell a block could be placed into from here (and the
/// point on the face to aim at): air or water beside a solid block, in
/// view, not where the player stands.
pub fn place_spot(w: &World) -> Option<([f64; 3], Cell)> {
    let c = feet(w);
    let e = w.eye();
    let mut best: Option<(f64, [f64; 3], Cell)> = None;
    for dy in -1..=2 {
        for dx in -2i32..=2 {
            for dz in -2i32..=2 {
                let p = add(c, [dx, dy, dz]);
                let v = block(w, p);
                // Water takes a block too (a swimmer builds on the bed).
                if !(v == b::AIR || v == b::TALL_GRASS || v == b::WATER) || overlaps_body(w, p) {
                    continue;
                }
                for n in [
                    [0, -1, 0],
                    [1, 0, 0],
                    [-1, 0, 0],
                    [0, 0, 1],
                    [0, 0, -1],
                    [0, 1, 0],
                ] {
                    let s = add(p, n);
                    let sv = block(w, s);
                    if !solid(w, s) || sv == UNLOADED {
                        continue;
                    }
                    // The centre of the face of `s` that looks into `p`.
                    let f = [
                        p[0] as f64 + 0.5 + n[0] as f64 * 0.49,
                        p[1] as f64 + 0.5 + n[1] as f64 * 0.49,
                        p[2] as f64 + 0.5 + n[2] as f64 * 0.49,
                    ];
                    let (yaw, pitch) = angles_to(w, f);
                    let hits = |y: f64, q: f64| {
                        raycast_blocks(&w.terrain, e, dir(y, q), REACH)
                            .is_some_and(|t| t.pos == s && add(t.pos, t.normal) == p)
                    };
                    let k = AIM_SLACK;
                    if hits(yaw, pitch)
                        && [(k, k), (k, -k), (-k, k), (-k, -k)]
                            .iter()
                            .all(|&(dy, dp)| hits(yaw + dy, pitch + dp))
                    {
                        let d = dist_to_box(e, p) + if n[1] == -1 { 0.0 } else { 0.5 };
                        if best.as_ref().is_none_or(|(bd, _, _)| d < *bd) {
                            best = Some((d, f, p));
                        }
                    }
                }
            }
        }
    }
    best.map(|(_, f, p)| (f, p))
}

/// Whether the player's box overlaps cell `p`.
fn overlaps_body(w: &World, p: Cell) -> bool {
    let bd = &w.player.body;
    let hw = bd.width / 2.0 + 0.05;
    bd.pos[0] + hw > p[0] as f64
        && bd.pos[0] - hw < p[0] as f64 + 1.0
        && bd.pos[1] + bd.height > p[1] as f64
        && bd.pos[1] < p[1] as f64 + 1.0
        && bd.pos[2] + hw > p[2] as f64
        && bd.pos[2] - hw < p[2] as f64 + 1.0
}

/// How far below the feet [`keep_off_lava`] looks for lava.
const LAVA_LOOKDOWN: i32 = 8;

/// Whether a body would sink into lava from where it is: in it already, or
/// with nothing under it and lava below some part of its footprint higher
/// than any block it could land on.
fn lava_below(w: &World, body: &gw_world::world::Body) -> bool {
    if body.in_lava {
        return true;
    }
    if body.on_ground || body.in_water {
        return false;
    }
    let hw = body.width / 2.0;
    let p = body.pos;
    let (x0, x1) = (
        libm::floor(p[0] - hw) as i32,
        libm::floor(p[0] + hw - 1e-9) as i32,
    );
    let (z0, z1) = (
        libm::floor(p[2] - hw) as i32,
        libm::floor(p[2] + hw - 1e-9) as i32,
    );
    let top = libm::floor(p[1] + 0.01) as i32;
    let (mut land, mut lava) = (i32::MIN, i32::MIN);
    for x in x0..=x1 {
        for z in z0..=z1 {
            for y in (top - LAVA_LOOKDOWN..=top).rev() {
                let v = block(w, [x, y, z]);
                if v == b::LAVA {
                    lava = lava.max(y);
                    break;
                }
                if v == UNLOADED || v == b::WATER || data().block(v).solid {
                    land = land.max(y);
                    break;
                }
            }
        }
    }
    lava > land
}

/// Ticks of coasting (no key held) after a move that [`keep_off_lava`]
/// follows: a step off a ledge or a jump carries the body on for a while.
const COAST_TICKS: usize = 12;

/// Whether `a` and the coasting after it keep the body out of lava.
fn path_safe(w: &World, a: &Action) -> bool {
    !w.preview_path(a, COAST_TICKS)
        .iter()
        .any(|b| lava_below(w, b))
}

/// Never walk into lava. When this tick's move, and the drift after it,
/// would take the body over a drop that ends in lava (or into it), the move
/// keys change: let go, or else the first pairing of keys whose drift stays
/// clear (to brake a fall that drifts towards it); the camera and the hands
/// act as asked. A player looks before stepping towards an edge; the
/// skills' cell-by-cell steps refuse such cells already, and this catches
/// the drift of a turn, a side-step or a drop on the way.
pub fn keep_off_lava(w: &World, a: Action) -> Action {
    if path_safe(w, &a) {
        return a;
    }
    let keys = |forward, back, left, right| Action {
        forward,
        back,
        left,
        right,
        sprint: false,
        ..a.clone()
    };
    let tries = [
        keys(false, false, false, false),
        keys(true, false, false, false),
        keys(false, true, false, false),
        keys(false, false, true, false),
        keys(false, false, false, true),
        keys(true, false, true, false),
        keys(true, false, false, true),
        keys(false, true, true, false),
        keys(false, true, false, true),
    ];
    tries.into_iter().find(|t| path_safe(w, t)).unwrap_or(a)
}
