//! Platform-game physics shared by the platformer games: axis-aligned boxes,
//! a body that moves through a [`TileMap`] and stops at solid tiles (with an
//! optional small step-up onto ledges and one-way platforms), a jump helper
//! with coyote time and jump buffering, and a scrolling camera.
//!
//! Units are tiles (one tile = 1.0), y grows downward, time in seconds. The
//! games call [`move_body`] once per fixed physics tick; a body must move less
//! than one tile per tick (checked in debug builds) so it cannot pass through
//! a tile.

use crate::tilemap::TileMap;

const EPS: f64 = 1e-9;

/// An axis-aligned box: top-left corner and size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Aabb {
    pub const fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Aabb { x, y, w, h }
    }
    pub fn right(&self) -> f64 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f64 {
        self.y + self.h
    }
    pub fn center_x(&self) -> f64 {
        self.x + self.w / 2.0
    }
    pub fn center_y(&self) -> f64 {
        self.y + self.h / 2.0
    }
    /// Strict overlap (touching edges do not overlap).
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.x < o.right() - EPS
            && o.x < self.right() - EPS
            && self.y < o.bottom() - EPS
            && o.y < self.bottom() - EPS
    }
    /// Straight-line distance from the box's centre to the centre of tile
    /// `(tx, ty)` (a distance to a flag or checkpoint).
    pub fn distance_to_tile(&self, tx: i64, ty: i64) -> f64 {
        let dx = tx as f64 + 0.5 - self.center_x();
        let dy = ty as f64 + 0.5 - self.center_y();
        (dx * dx + dy * dy).sqrt()
    }
    /// Range of tile columns and rows the box covers, half-open.
    pub fn tile_span(&self) -> (i64, i64, i64, i64) {
        (
            self.x.floor() as i64,
            self.y.floor() as i64,
            (self.right() - EPS).floor() as i64 + 1,
            (self.bottom() - EPS).floor() as i64 + 1,
        )
    }
}

/// How a tile character blocks a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solidity {
    /// Passes through (air, coins, hazards the game checks itself).
    Empty,
    /// Blocks from every side.
    Solid,
    /// Blocks only a body falling onto its top (a jump-through platform).
    OneWay,
}

/// A moving box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    pub aabb: Aabb,
    pub vx: f64,
    pub vy: f64,
    /// Standing on something after the last move.
    pub on_ground: bool,
}

impl Body {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Self {
        Body {
            aabb: Aabb::new(x, y, w, h),
            vx: 0.0,
            vy: 0.0,
            on_ground: false,
        }
    }
}

/// Which sides touched something during one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Contacts {
    pub left: bool,
    pub right: bool,
    /// Bumped a ceiling.
    pub top: bool,
    /// Landed or stands on ground.
    pub bottom: bool,
    /// Climbed onto a ledge with the step-up.
    pub stepped: bool,
    /// The tile that stopped the body moving up (for "hit a block from
    /// below"), as tile coordinates.
    pub head_tile: Option<(i64, i64)>,
}

/// The tile world a body collides with.
pub struct Collider<'a, F: Fn(u8) -> Solidity> {
    pub map: &'a TileMap,
    /// Classifies each tile character.
    pub kind: F,
    /// The tile assumed beyond the map's edges.
    pub outside: u8,
    /// Highest ledge (in tiles) a body walking into it is lifted onto
    /// instead of being stopped; 0 disables the step-up.
    pub step_up: f64,
}

impl<'a, F: Fn(u8) -> Solidity> Collider<'a, F> {
    /// A map whose outside is empty air, without a step-up.
    pub fn plain(map: &'a TileMap, kind: F) -> Self {
        Collider {
            map,
            kind,
            outside: crate::tilemap::EMPTY,
            step_up: 0.0,
        }
    }

    fn kind_at(&self, x: i64, y: i64) -> Solidity {
        (self.kind)(self.map.at(x, y, self.outside))
    }

    /// Whether `b` overlaps any solid tile.
    pub fn hits_solid(&self, b: &Aabb) -> bool {
        let (x0, y0, x1, y1) = b.tile_span();
        (y0..y1).any(|y| (x0..x1).any(|x| self.kind_at(x, y) == Solidity::Solid))
    }

    /// Top row of the solid tiles in column `col` between rows `y0..y1`.
    fn top_solid_in_column(&self, col: i64, y0: i64, y1: i64) -> Option<i64> {
        (y0..y1).find(|&y| self.kind_at(col, y) == Solidity::Solid)
    }
}

/// Move `body` by its velocity for `dt` seconds: horizontally first, then
/// vertically, stopping at solid tiles (velocity on that axis becomes 0).
/// One-way tiles stop only a falling body whose bottom was at or above their
/// top. Sets `body.on_ground`.
pub fn move_body<F: Fn(u8) -> Solidity>(body: &mut Body, world: &Collider<F>, dt: f64) -> Contacts {
    let mut c = Contacts::default();
    let (dx, dy) = (body.vx * dt, body.vy * dt);
    debug_assert!(
        dx.abs() < 1.0 && dy.abs() < 1.0,
        "moved a tile or more in one tick"
    );

    // Horizontal.
    if dx != 0.0 {
        let mut b = body.aabb;
        b.x += dx;
        let col = if dx > 0.0 {
            (b.right() - EPS).floor() as i64
        } else {
            b.x.floor() as i64
        };
        let (_, y0, _, y1) = b.tile_span();
        if let Some(top) = world.top_solid_in_column(col, y0, y1) {
            let lift = b.bottom() - top as f64;
            let mut lifted = b;
            lifted.y -= lift;
            if world.step_up > 0.0 && lift <= world.step_up + EPS && !world.hits_solid(&lifted) {
                b = lifted;
                c.stepped = true;
                body.vy = body.vy.min(0.0);
            } else {
                if dx > 0.0 {
                    b.x = col as f64 - b.w;
                    c.right = true;
                } else {
                    b.x = (col + 1) as f64;
                    c.left = true;
                }
                body.vx = 0.0;
            }
        }
        body.aabb = b;
    }

    // Vertical.
    body.on_ground = c.stepped;
    let old_bottom = body.aabb.bottom();
    let mut b = body.aabb;
    b.y += dy;
    let (x0, _, x1, _) = b.tile_span();
    if dy > 0.0 {
        let row = (b.bottom() - EPS).floor() as i64;
        let blocks = (x0..x1).any(|x| match world.kind_at(x, row) {
            Solidity::Solid => true,
            Solidity::OneWay => old_bottom <= row as f64 + EPS,
            Solidity::Empty => false,
        });
        if blocks {
            b.y = row as f64 - b.h;
            body.vy = 0.0;
            c.bottom = true;
            body.on_ground = true;
        }
    } else if dy < 0.0 {
        let row = b.y.floor() as i64;
        if let Some(x) = (x0..x1).find(|&x| world.kind_at(x, row) == Solidity::Solid) {
            b.y = (row + 1) as f64;
            body.vy = 0.0;
            c.top = true;
            // Report the tile nearest the body's centre.
            let cx = b.center_x().floor() as i64;
            c.head_tile = Some(if world.kind_at(cx, row) == Solidity::Solid {
                (cx, row)
            } else {
                (x, row)
            });
        }
    }
    body.aabb = b;
    if !body.on_ground && dy == 0.0 {
        // Resting exactly on a surface: probe just below.
        let probe = Aabb::new(b.x, b.bottom(), b.w, 0.01);
        let (px0, py0, px1, _) = probe.tile_span();
        body.on_ground = (px0..px1).any(|x| world.kind_at(x, py0) != Solidity::Empty);
        c.bottom = body.on_ground;
    }
    c
}

/// Change a body's height keeping its feet where they are (crouching,
/// sliding, standing up). Growing fails, leaving the body as it was, when
/// the taller box would overlap a solid tile.
pub fn resize_keep_feet<F: Fn(u8) -> Solidity>(
    body: &mut Body,
    world: &Collider<F>,
    h: f64,
) -> bool {
    let b = body.aabb;
    let nb = Aabb::new(b.x, b.bottom() - h, b.w, h);
    if h > b.h && world.hits_solid(&nb) {
        return false;
    }
    body.aabb = nb;
    true
}

/// Which side a body touches a wall on: 1 right, -1 left, 0 none (a probe
/// `reach` tiles out, ignoring the top and bottom tenth so floors and
/// ceilings do not count).
pub fn wall_side<F: Fn(u8) -> Solidity>(b: &Aabb, world: &Collider<F>, reach: f64) -> i8 {
    let probe = |dx: f64| world.hits_solid(&Aabb::new(b.x + dx, b.y + 0.1, b.w, b.h - 0.2));
    if probe(reach) {
        1
    } else if probe(-reach) {
        -1
    } else {
        0
    }
}

/// Whether a disc (a saw blade) overlaps a box.
pub fn disc_hits(b: &Aabb, cx: f64, cy: f64, r: f64) -> bool {
    let nx = cx.clamp(b.x, b.right());
    let ny = cy.clamp(b.y, b.bottom());
    (nx - cx).powi(2) + (ny - cy).powi(2) < r * r
}

/// Call `f(x, y, tile)` for every tile `b` overlaps (hazards, pick-ups).
pub fn for_each_overlapping(map: &TileMap, b: &Aabb, mut f: impl FnMut(i64, i64, u8)) {
    let (x0, y0, x1, y1) = b.tile_span();
    for y in y0..y1 {
        for x in x0..x1 {
            if let Some(t) = map.get(x, y) {
                f(x, y, t);
            }
        }
    }
}

/// Move `body` like [`move_body`], and also stop it at the free-standing
/// solid boxes `solids` (moving platforms, crates: solids that are not
/// tiles). Each axis moves through the tiles first and is then cut back at
/// the first solid box it entered, so the body ends touching it; landing on a
/// box's top sets `on_ground`. The step-up only climbs tiles.
pub fn move_body_among<F: Fn(u8) -> Solidity>(
    body: &mut Body,
    world: &Collider<F>,
    solids: &[Aabb],
    dt: f64,
) -> Contacts {
    // Horizontal pass.
    let vy = body.vy;
    body.vy = 0.0;
    let x0 = body.aabb.x;
    let mut c = move_body(body, world, dt);
    body.vy = vy;
    let dx = body.aabb.x - x0;
    for s in solids {
        if body.aabb.overlaps(s) {
            if dx > 0.0 {
                body.aabb.x = s.x - body.aabb.w;
                c.right = true;
            } else if dx < 0.0 {
                body.aabb.x = s.right();
                c.left = true;
            }
            body.vx = 0.0;
        }
    }
    // Vertical pass.
    let vx = body.vx;
    body.vx = 0.0;
    let y0 = body.aabb.y;
    let v = move_body(body, world, dt);
    body.vx = vx;
    c.top |= v.top;
    c.bottom = v.bottom;
    c.head_tile = v.head_tile;
    let dy = body.aabb.y - y0;
    for s in solids {
        if body.aabb.overlaps(s) {
            if dy > 0.0 {
                body.aabb.y = s.y - body.aabb.h;
                c.bottom = true;
                body.on_ground = true;
            } else if dy < 0.0 {
                body.aabb.y = s.bottom();
                c.top = true;
            }
            body.vy = 0.0;
        }
    }
    c
}

/// Whether box `b` rests on top of box `s`: its bottom on `s`'s top and the
/// two overlapping horizontally.
pub fn rests_on(b: &Aabb, s: &Aabb) -> bool {
    (b.bottom() - s.y).abs() < 1e-6 && b.right() > s.x + EPS && b.x < s.right() - EPS
}

/// Move a free-standing solid box (a moving platform, a pushed crate) by
/// `(dx, dy)`, carrying the bodies that rest on it, and those resting on
/// them in turn. `bodies` are the movable boxes around it (not the solid
/// itself); `blocked` says whether a box would overlap the fixed world
/// (tiles, other platforms; not this solid).
///
/// All or nothing: the move is refused (nothing moves, `false`) when the
/// solid is blocked or would overlap a body that does not ride it, or when
/// moving up would press a rider into something (a lift stops rather than
/// crush). A rider that cannot follow a sideways or downward move stays
/// where it is (it slides off, or keeps standing on the ledge it also
/// touches).
pub fn move_carrier(
    solid: &mut Aabb,
    dx: f64,
    dy: f64,
    bodies: &mut [&mut Body],
    blocked: impl Fn(&Aabb) -> bool,
) -> bool {
    let shift = |a: &Aabb| Aabb::new(a.x + dx, a.y + dy, a.w, a.h);
    let moved = shift(solid);
    if blocked(&moved) {
        return false;
    }
    let n = bodies.len();
    let mut decided = vec![false; n];
    let mut carried = vec![false; n];
    // Riders layer by layer: on the solid, then on the riders carried.
    let mut supports = vec![*solid];
    while !supports.is_empty() {
        let mut next = Vec::new();
        for i in 0..n {
            let a = bodies[i].aabb;
            if decided[i] || !supports.iter().any(|s| rests_on(&a, s)) {
                continue;
            }
            decided[i] = true;
            if blocked(&shift(&a)) {
                if dy < 0.0 {
                    return false;
                }
            } else {
                carried[i] = true;
                next.push(a);
            }
        }
        supports = next;
    }
    for i in (0..n).filter(|&i| !carried[i]) {
        let a = bodies[i].aabb;
        if moved.overlaps(&a) || (0..n).any(|j| carried[j] && shift(&bodies[j].aabb).overlaps(&a)) {
            return false;
        }
    }
    *solid = moved;
    for (i, b) in bodies.iter_mut().enumerate() {
        if carried[i] {
            b.aabb = shift(&b.aabb);
        }
    }
    true
}

/// Landing on a free-standing one-way platform (one that is not a tile, such
/// as the moving platforms of a vertical climber): true when a falling body
/// whose bottom was at or above `top` last tick is now at or below it while
/// overlapping the platform horizontally.
pub fn lands_on(prev_bottom: f64, body: &Aabb, vy: f64, left: f64, right: f64, top: f64) -> bool {
    vy >= 0.0
        && prev_bottom <= top + EPS
        && body.bottom() >= top - EPS
        && body.right() > left + EPS
        && body.x < right - EPS
}

/// Horizontal control: with `dir` (-1, 0 or 1) pressed, move `vx` towards
/// `dir * speed` by at most `accel * dt`; with nothing pressed, slow it
/// towards 0 by `decel * dt` (pass 0 to keep drifting).
pub fn steer(vx: f64, dir: f64, speed: f64, accel: f64, decel: f64, dt: f64) -> f64 {
    if dir != 0.0 {
        let target = dir * speed;
        let a = accel * dt;
        if vx < target {
            (vx + a).min(target)
        } else {
            (vx - a).max(target)
        }
    } else {
        let f = decel * dt;
        if vx > 0.0 {
            (vx - f).max(0.0)
        } else {
            (vx + f).min(0.0)
        }
    }
}

/// The four arrow keys a side-view role holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrows {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
}

impl Arrows {
    /// Record an arrow key going down or up; true when it is a fresh press
    /// (down now, up before). Other keys are ignored.
    pub fn set(&mut self, key: &str, down: bool) -> bool {
        let held = match key {
            "ArrowLeft" => &mut self.left,
            "ArrowRight" => &mut self.right,
            "ArrowUp" => &mut self.up,
            "ArrowDown" => &mut self.down,
            _ => return false,
        };
        let fresh = down && !*held;
        *held = down;
        fresh
    }

    /// Horizontal direction held: -1, 0 or 1.
    pub fn dir(&self) -> f64 {
        (self.right as i8 - self.left as i8) as f64
    }
}

/// Jump input forgiveness: a press counts for `buffer` seconds (so a press
/// just before landing still jumps) and the ground counts for `coyote`
/// seconds after walking off a ledge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JumpAssist {
    pub coyote: f64,
    pub buffer: f64,
    /// Time since the body last stood on ground (∞ right after a jump).
    air_time: f64,
    /// Age of the pending press, if any.
    press_age: Option<f64>,
}

impl JumpAssist {
    pub fn new(coyote: f64, buffer: f64) -> Self {
        JumpAssist {
            coyote,
            buffer,
            air_time: f64::INFINITY,
            press_age: None,
        }
    }

    /// The jump key went down.
    pub fn press(&mut self) {
        self.press_age = Some(0.0);
    }

    /// Forget a pending press (e.g. the key was released and the game wants
    /// no late jump).
    pub fn cancel(&mut self) {
        self.press_age = None;
    }

    /// Advance timers by one tick, knowing whether the body stands now.
    pub fn update(&mut self, on_ground: bool, dt: f64) {
        if on_ground {
            self.air_time = 0.0;
        } else {
            self.air_time += dt;
        }
        if let Some(a) = self.press_age.as_mut() {
            *a += dt;
            if *a > self.buffer + EPS {
                self.press_age = None;
            }
        }
    }

    /// Whether a jump starts now; consumes the press and the ground.
    pub fn take(&mut self) -> bool {
        if self.press_age.is_some() && self.air_time <= self.coyote + EPS {
            self.press_age = None;
            self.air_time = f64::INFINITY;
            true
        } else {
            false
        }
    }

    /// Whether the body may still jump off the ground it left.
    pub fn can_jump(&self) -> bool {
        self.air_time <= self.coyote + EPS
    }

    pub fn pending(&self) -> bool {
        self.press_age.is_some()
    }
}

/// A scrolling camera over a world measured in tiles, drawn at `scale`
/// pixels per tile with its top-left corner at screen `origin`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Top-left corner of the view, tiles.
    pub x: f64,
    pub y: f64,
    /// View size, tiles.
    pub w: f64,
    pub h: f64,
    /// Pixels per tile.
    pub scale: f64,
    /// Screen position of the view's top-left corner, px.
    pub origin: (f64, f64),
}

impl Camera {
    pub fn new(w: f64, h: f64, scale: f64, origin: (f64, f64)) -> Self {
        Camera {
            x: 0.0,
            y: 0.0,
            w,
            h,
            scale,
            origin,
        }
    }

    /// A side view across the 1280 px frame: `rows` tiles of `tile_px`
    /// pixels high, starting `top` pixels down (below a HUD bar).
    pub fn side_view(tile_px: f64, rows: usize, top: f64) -> Self {
        Camera::new(1280.0 / tile_px, rows as f64, tile_px, (0.0, top))
    }

    /// Put `(tx, ty)` at the fraction `anchor` of the view (0.3 = 30 % from
    /// the left/top), clamped so the view stays inside
    /// `[0, world_w] × [0, world_h]` (a world smaller than the view pins the
    /// view at 0).
    pub fn follow(&mut self, tx: f64, ty: f64, anchor: (f64, f64), world_w: f64, world_h: f64) {
        self.x = (tx - anchor.0 * self.w).clamp(0.0, (world_w - self.w).max(0.0));
        self.y = (ty - anchor.1 * self.h).clamp(0.0, (world_h - self.h).max(0.0));
    }

    /// Screen position of world point `(x, y)`.
    pub fn to_screen(&self, x: f64, y: f64) -> (f32, f32) {
        (
            (self.origin.0 + (x - self.x) * self.scale) as f32,
            (self.origin.1 + (y - self.y) * self.scale) as f32,
        )
    }

    /// Tile rectangle in view, half-open, one tile of margin on each side.
    pub fn visible_tiles(&self) -> (i64, i64, i64, i64) {
        (
            self.x.floor() as i64 - 1,
            self.y.floor() as i64 - 1,
            (self.x + self.w).ceil() as i64 + 1,
            (self.y + self.h).ceil() as i64 + 1,
        )
    }

    /// Whether a world box is at least partly in view.
    pub fn sees(&self, b: &Aabb) -> bool {
        b.right() > self.x && b.x < self.x + self.w && b.bottom() > self.y && b.y < self.y + self.h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(t: u8) -> Solidity {
        match t {
            b'#' => Solidity::Solid,
            b'-' => Solidity::OneWay,
            _ => Solidity::Empty,
        }
    }

    fn world(map: &TileMap, step_up: f64) -> Collider<'_, fn(u8) -> Solidity> {
        Collider {
            map,
            kind: kind as fn(u8) -> Solidity,
            outside: b'.',
            step_up,
        }
    }

    fn run(body: &mut Body, w: &Collider<fn(u8) -> Solidity>, ticks: u32, g: f64) -> Contacts {
        let mut last = Contacts::default();
        for _ in 0..ticks {
            body.vy += g * 0.01;
            let c = move_body(body, w, 0.01);
            last.left |= c.left;
            last.right |= c.right;
            last.top |= c.top;
            last.bottom |= c.bottom;
            last.stepped |= c.stepped;
            last.head_tile = last.head_tile.or(c.head_tile);
        }
        last
    }

    #[test]
    fn falls_onto_ground_and_stands() {
        let map = TileMap::parse("....\n....\n....\n####").unwrap();
        let w = world(&map, 0.0);
        let mut b = Body::new(1.0, 0.0, 0.8, 0.8);
        let c = run(&mut b, &w, 200, 30.0);
        assert!(c.bottom && b.on_ground);
        assert!((b.aabb.bottom() - 3.0).abs() < 1e-9, "{:?}", b.aabb);
        assert_eq!(b.vy, 0.0, "landing stops the fall");
    }

    #[test]
    fn walls_stop_and_ledges_within_step_up_are_climbed() {
        let map = TileMap::parse("......\n...#..\n..##..\n######").unwrap();
        // Low ledge (one tile) with a 0.3 step-up: stopped.
        let mut b = Body::new(0.0, 2.0, 1.0, 1.0);
        b.vx = 5.0;
        let c = run(&mut b, &world(&map, 0.3), 50, 30.0);
        assert!(c.right && !c.stepped);
        assert!((b.aabb.right() - 2.0).abs() < 1e-9);
        // Almost on top of the ledge: lifted onto it.
        let mut b = Body::new(0.8, 1.35, 1.0, 0.8);
        b.vx = 5.0;
        let c = move_body(&mut b, &world(&map, 0.3), 0.1);
        assert!(c.stepped && b.on_ground, "{c:?}");
        assert!((b.aabb.bottom() - 2.0).abs() < 1e-9);
    }

    #[test]
    fn ceilings_report_the_tile_above_and_one_way_tiles_only_block_falls() {
        let map = TileMap::parse("..#..\n.....\n.----\n.....\n#####").unwrap();
        let mut b = Body::new(2.0, 3.0, 0.9, 0.9);
        b.vy = -9.0;
        let c = run(&mut b, &world(&map, 0.0), 30, 0.0);
        assert!(c.top);
        assert_eq!(
            c.head_tile,
            Some((2, 0)),
            "passed up through the one-way row"
        );
        let mut b = Body::new(2.0, 0.5, 0.9, 0.9);
        let c = run(&mut b, &world(&map, 0.0), 100, 30.0);
        assert!(c.bottom);
        assert!(
            (b.aabb.bottom() - 2.0).abs() < 1e-9,
            "lands on the one-way row"
        );
    }

    #[test]
    fn jump_assist_buffers_presses_and_allows_coyote_time() {
        let mut j = JumpAssist::new(0.1, 0.1);
        // Press in the air, land 0.05 s later: jumps.
        j.update(false, 0.01);
        j.press();
        for _ in 0..5 {
            j.update(false, 0.01);
            assert!(!j.take());
        }
        j.update(true, 0.01);
        assert!(j.take());
        assert!(!j.take(), "one press, one jump");
        // Leave a ledge, press 0.08 s later: still jumps; 0.2 s later: not.
        j.update(true, 0.01);
        for _ in 0..8 {
            j.update(false, 0.01);
        }
        j.press();
        assert!(j.take());
        j.update(true, 0.01);
        for _ in 0..20 {
            j.update(false, 0.01);
        }
        j.press();
        assert!(!j.take());
        // A stale press expires.
        for _ in 0..15 {
            j.update(false, 0.01);
        }
        j.update(true, 0.01);
        assert!(!j.take());
    }

    #[test]
    fn camera_follows_and_clamps_to_the_world() {
        let mut cam = Camera::new(20.0, 10.0, 48.0, (0.0, 56.0));
        cam.follow(5.0, 5.0, (0.3, 0.5), 100.0, 12.0);
        assert_eq!((cam.x, cam.y), (0.0, 0.0));
        cam.follow(50.0, 11.0, (0.3, 0.5), 100.0, 12.0);
        assert_eq!((cam.x, cam.y), (44.0, 2.0));
        cam.follow(99.0, 0.0, (0.3, 0.5), 100.0, 12.0);
        assert_eq!(cam.x, 80.0);
        assert_eq!(cam.to_screen(81.0, 1.0), (48.0, 104.0));
        assert!(cam.sees(&Aabb::new(99.5, 0.0, 1.0, 1.0)));
        assert!(!cam.sees(&Aabb::new(79.0, 0.0, 0.9, 1.0)));
    }

    #[test]
    fn resizing_keeps_the_feet_and_walls_and_discs_are_found() {
        let map = TileMap::parse("....\n#...\n....\n####").unwrap();
        let w = world(&map, 0.0);
        let mut b = Body::new(1.0, 2.0, 0.8, 1.0);
        assert!(resize_keep_feet(&mut b, &w, 0.5));
        assert_eq!((b.aabb.y, b.aabb.h), (2.5, 0.5));
        b.aabb.x = 0.5;
        assert!(!resize_keep_feet(&mut b, &w, 2.0), "the block above");
        assert_eq!(b.aabb.h, 0.5);
        let tall = Aabb::new(1.02, 1.0, 0.8, 1.9);
        assert_eq!(wall_side(&tall, &w, 0.05), -1);
        assert_eq!(wall_side(&Aabb::new(2.0, 1.0, 0.8, 1.9), &w, 0.05), 0);
        assert!(disc_hits(&tall, 2.2, 1.5, 0.4));
        assert!(!disc_hits(&tall, 2.3, 1.5, 0.4));
    }

    #[test]
    fn arrows_report_fresh_presses_and_shared_helpers_measure() {
        let mut k = Arrows::default();
        assert!(k.set("ArrowUp", true));
        assert!(!k.set("ArrowUp", true), "held, not pressed again");
        assert!(!k.set("Space", true));
        k.set("ArrowLeft", true);
        assert_eq!(k.dir(), -1.0);
        k.set("ArrowRight", true);
        assert_eq!(k.dir(), 0.0);
        assert!(!k.set("ArrowUp", false) && !k.up);
        let b = Aabb::new(0.0, 0.0, 1.0, 1.0);
        assert!((b.distance_to_tile(3, 4) - 5.0).abs() < 1e-12);
        let map = TileMap::parse("..\n##").unwrap();
        let w = Collider::plain(&map, kind);
        assert!(w.hits_solid(&Aabb::new(0.0, 1.5, 0.5, 0.2)));
        assert!(
            !w.hits_solid(&Aabb::new(-3.0, 1.5, 0.5, 0.2)),
            "air outside"
        );
        let cam = Camera::side_view(40.0, 16, 56.0);
        assert_eq!((cam.w, cam.h, cam.origin), (32.0, 16.0, (0.0, 56.0)));
    }

    #[test]
    fn free_platform_landing_needs_a_fall_from_above() {
        let b = Aabb::new(0.0, 1.05, 1.0, 1.0);
        assert!(lands_on(1.98, &b, 2.0, 0.5, 2.0, 2.0));
        assert!(!lands_on(2.2, &b, 2.0, 0.5, 2.0, 2.0), "came from below");
        assert!(!lands_on(1.98, &b, -2.0, 0.5, 2.0, 2.0), "rising");
        assert!(!lands_on(1.98, &b, 2.0, 1.0, 2.0, 2.0), "beside it");
    }

    #[test]
    fn bodies_stop_at_and_land_on_free_solids() {
        let map = TileMap::parse("........\n........\n........\n########").unwrap();
        let w = world(&map, 0.0);
        let crate_box = Aabb::new(4.0, 2.0, 1.0, 1.0);
        let mut b = Body::new(1.0, 2.2, 0.8, 0.8);
        b.vx = 5.0;
        let c = run_among(&mut b, &w, &[crate_box], 100);
        assert!(c.right);
        assert!((b.aabb.right() - 4.0).abs() < 1e-9, "{:?}", b.aabb);
        let mut b = Body::new(4.1, 0.0, 0.8, 0.8);
        run_among(&mut b, &w, &[crate_box], 100);
        assert!(b.on_ground);
        assert!((b.aabb.bottom() - 2.0).abs() < 1e-9, "stands on the box");
    }

    fn run_among(
        b: &mut Body,
        w: &Collider<fn(u8) -> Solidity>,
        solids: &[Aabb],
        ticks: u32,
    ) -> Contacts {
        let mut last = Contacts::default();
        for _ in 0..ticks {
            b.vy += 30.0 * 0.01;
            let c = move_body_among(b, w, solids, 0.01);
            last.right |= c.right;
            last.bottom |= c.bottom;
        }
        last
    }

    #[test]
    fn carriers_lift_riders_and_stop_instead_of_crushing() {
        let map = TileMap::parse("..#...\n......\n......\n......\n######").unwrap();
        let w = world(&map, 0.0);
        let blocked = |a: &Aabb| w.hits_solid(a);
        let mut lift = Aabb::new(0.0, 3.0, 2.0, 0.5);
        let mut rider = Body::new(0.2, 2.0, 0.6, 1.0);
        let mut stander = Body::new(4.0, 3.0, 0.6, 1.0);
        let mut stack = Body::new(0.3, 1.0, 0.5, 1.0);
        {
            let mut bodies = [&mut rider, &mut stander, &mut stack];
            assert!(move_carrier(&mut lift, 0.0, -0.5, &mut bodies, blocked));
        }
        assert_eq!(lift.y, 2.5);
        assert_eq!(rider.aabb.y, 1.5, "the rider went up with it");
        assert_eq!(stack.aabb.y, 0.5, "and what stands on the rider");
        assert_eq!(stander.aabb.y, 3.0, "a body beside it stays");
        // A rider under a ceiling: the lift refuses to crush it.
        let mut lift = Aabb::new(2.0, 3.0, 1.0, 0.5);
        let mut rider = Body::new(2.1, 1.0, 0.6, 2.0);
        let before = (lift, rider.aabb);
        assert!(!move_carrier(
            &mut lift,
            0.0,
            -0.2,
            &mut [&mut rider],
            blocked
        ));
        assert_eq!((lift, rider.aabb), before);
        // Moving sideways into a body that does not ride it: refused.
        let mut lift = Aabb::new(0.0, 3.5, 2.0, 0.5);
        let mut side = Body::new(2.05, 3.0, 0.6, 1.0);
        assert!(!move_carrier(
            &mut lift,
            0.1,
            0.0,
            &mut [&mut side],
            blocked
        ));
        assert!(move_carrier(
            &mut lift,
            0.05,
            0.0,
            &mut [&mut side],
            blocked
        ));
    }

    #[test]
    fn steering_accelerates_to_speed_and_slows_to_rest() {
        let mut v = 0.0;
        for _ in 0..10 {
            v = steer(v, 1.0, 5.0, 20.0, 10.0, 0.01);
        }
        assert!((v - 2.0).abs() < 1e-9);
        for _ in 0..100 {
            v = steer(v, 1.0, 5.0, 20.0, 10.0, 0.01);
        }
        assert_eq!(v, 5.0, "capped at the speed");
        v = steer(v, -1.0, 5.0, 20.0, 10.0, 0.01);
        assert!((v - 4.8).abs() < 1e-9, "turning uses the acceleration");
        for _ in 0..100 {
            v = steer(v, 0.0, 5.0, 20.0, 10.0, 0.01);
        }
        assert_eq!(v, 0.0, "released: slows to rest, not beyond");
    }
}
