//! The scripted expert: one policy for both characters, computed from the
//! same privileged state by each role, so the two halves agree.
//!
//! Navigation is a shortest-path search over standing cells (a character is
//! two cells tall and stands on a solid tile that is not deadly to it) with
//! walk, jump (up to 3 rows up and 3 columns across, or across a gap) and
//! drop edges, rebuilt every step from the live map with the lifts and
//! boxes stamped in as solid blocks where they are. Coordination: a
//! character whose diamonds can only be reached with a mechanism on (a gate
//! slid open, a lift at its other end) "depends" on that mechanism's switch.
//! A lever is pushed by the nearer character; a button is held down by a
//! box when one stands on the button's floor (the nearer character pushes
//! it there), otherwise by the partner for as long as the dependency lasts.
//! A character waiting for a lift waits standing on it, so it rides up.
//! Every chosen action is checked on a copy of the world (the game's own
//! physics, no random draws involved) and replaced when it would kill.

use super::{Hero, Lift, SwitchKind, World, deadly, solidity};
use crate::platform::Solidity;
use crate::tilemap::TileMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

type Cell = (i64, i64);

fn empty(map: &TileMap, x: i64, y: i64) -> bool {
    solidity(map.at(x, y, b'#')) == Solidity::Empty
}

/// Whether `hero` can stand with its feet in cell `(x, y)`.
pub fn standable(map: &TileMap, hero: Hero, x: i64, y: i64) -> bool {
    let below = map.at(x, y + 1, b'#');
    empty(map, x, y)
        && empty(map, x, y - 1)
        && solidity(below) == Solidity::Solid
        && !deadly(below, hero)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    Walk,
    Jump,
    Drop,
}

fn neighbours(map: &TileMap, hero: Hero, (x, y): Cell, out: &mut Vec<(Cell, Edge, u32)>) {
    out.clear();
    for s in [-1i64, 1] {
        if standable(map, hero, x + s, y) {
            out.push(((x + s, y), Edge::Walk, 10));
        }
    }
    // Jumps: rise in this column, then cross at the top.
    for dy in 0..=3i64 {
        if !(1..=dy + 1).all(|k| empty(map, x, y - k)) {
            break;
        }
        for s in [-1i64, 1] {
            let max_dx = if dy == 0 { 4 } else { 3 };
            // A high jump drifts sideways while rising: the next column
            // must be open all the way up, or the head hits the ledge.
            let min_dx = if dy >= 2 { 2 } else { 1 };
            if dy >= 2 && !(0..=dy + 1).all(|k| empty(map, x + s, y - k)) {
                continue;
            }
            for dx in 1..=max_dx {
                let tx = x + s * dx;
                let corridor = (1..=dx).all(|i| {
                    let cx = x + s * i;
                    empty(map, cx, y - dy) && empty(map, cx, y - dy - 1)
                });
                if !corridor {
                    break;
                }
                if (dy == 0 && dx < 2) || dx < min_dx {
                    continue;
                }
                // A long flat jump needs room above to arc.
                if dy == 0
                    && !(0..=dx)
                        .all(|i| empty(map, x + s * i, y - 2) && empty(map, x + s * i, y - 3))
                {
                    break;
                }
                if standable(map, hero, tx, y - dy) {
                    out.push((
                        (tx, y - dy),
                        Edge::Jump,
                        15 + 10 * dx as u32 + 5 * dy as u32,
                    ));
                }
            }
        }
    }
    // Drops: step off an edge (up to two columns out) and fall.
    for s in [-1i64, 1] {
        for dx in 1..=2i64 {
            let cx = x + s * dx;
            if !(1..=dx).all(|i| empty(map, x + s * i, y) && empty(map, x + s * i, y - 1)) {
                break;
            }
            if standable(map, hero, cx, y) {
                break;
            }
            let mut yy = y;
            while yy < map.height() as i64 && empty(map, cx, yy + 1) {
                yy += 1;
            }
            if yy > y && standable(map, hero, cx, yy) {
                out.push((
                    (cx, yy),
                    Edge::Drop,
                    10 + 10 * dx as u32 + 2 * (yy - y) as u32,
                ));
            }
        }
    }
}

/// Shortest paths from `start` over standing cells.
pub struct Paths {
    w: i64,
    dist: Vec<u32>,
    prev: Vec<Option<(Cell, Edge)>>,
}

impl Paths {
    pub fn new(map: &TileMap, hero: Hero, start: Cell) -> Paths {
        let (w, h) = (map.width() as i64, map.height() as i64);
        let n = (w * h) as usize;
        let mut p = Paths {
            w,
            dist: vec![u32::MAX; n],
            prev: vec![None; n],
        };
        if start.0 < 0 || start.1 < 0 || start.0 >= w || start.1 >= h {
            return p;
        }
        let mut heap = BinaryHeap::new();
        let si = p.idx(start);
        p.dist[si] = 0;
        heap.push(Reverse((0u32, start.1, start.0)));
        let mut buf = Vec::new();
        while let Some(Reverse((d, y, x))) = heap.pop() {
            if d > p.dist[p.idx((x, y))] {
                continue;
            }
            neighbours(map, hero, (x, y), &mut buf);
            for &(c, e, cost) in &buf {
                let i = p.idx(c);
                if d + cost < p.dist[i] {
                    p.dist[i] = d + cost;
                    p.prev[i] = Some(((x, y), e));
                    heap.push(Reverse((d + cost, c.1, c.0)));
                }
            }
        }
        p
    }
    fn idx(&self, c: Cell) -> usize {
        (c.1 * self.w + c.0) as usize
    }
    pub fn dist(&self, c: Cell) -> Option<u32> {
        if c.0 < 0 || c.1 < 0 || c.0 >= self.w {
            return None;
        }
        self.dist
            .get(self.idx(c))
            .copied()
            .filter(|d| *d != u32::MAX)
    }
    /// The first hop from the start towards `target`.
    fn first_hop(&self, target: Cell) -> Option<(Cell, Edge)> {
        self.dist(target)?;
        let mut cur = target;
        let mut hop = None;
        while let Some((p, e)) = self.prev[self.idx(cur)] {
            hop = Some((cur, e));
            cur = p;
        }
        hop
    }
}

/// The cells a lift whose top-left corner is at `pos` blocks (to the
/// nearest whole cell).
fn lift_cells(l: &Lift, pos: (f64, f64)) -> impl Iterator<Item = Cell> {
    let (x0, y) = (pos.0.round() as i64, pos.1.round() as i64);
    (0..l.aabb.w.round() as i64).map(move |i| (x0 + i, y))
}

/// The cell a box blocks.
fn box_cell(b: &super::PushBox) -> Cell {
    let a = &b.body.aabb;
    (a.center_x().floor() as i64, a.center_y().floor() as i64)
}

/// The live map with the lifts and boxes stamped in as solid blocks.
pub fn plan_map(w: &World) -> TileMap {
    let mut map = w.map.clone();
    for l in &w.lifts {
        for (x, y) in lift_cells(l, (l.aabb.x, l.aabb.y)) {
            map.set(x, y, b'=');
        }
    }
    for b in &w.boxes {
        let (x, y) = box_cell(b);
        map.set(x, y, b'=');
    }
    map
}

/// The planning map with mechanism `id` forced on or off: its gates slid
/// open or shut, its lifts at the matching end.
fn with_mech(w: &World, id: u8, on: bool) -> TileMap {
    let mut map = plan_map(w);
    let base = &w.base;
    for g in w.gates.iter().filter(|g| g.id == id) {
        for &(x, y) in &g.cells {
            map.set(x, y, if on { base.at(x, y, b'#') } else { b'=' });
        }
    }
    for l in w.lifts.iter().filter(|l| l.id == id) {
        for (x, y) in lift_cells(l, (l.aabb.x, l.aabb.y)) {
            map.set(x, y, base.at(x, y, b'#'));
        }
        for (x, y) in lift_cells(l, l.at(if on { 1.0 } else { 0.0 })) {
            map.set(x, y, b'=');
        }
    }
    map
}

fn start_cell(w: &World, hero: Hero) -> Cell {
    let c = &w.chars[hero as usize];
    if c.body.on_ground {
        c.cell()
    } else {
        c.last_ground
    }
}

fn own_gems(w: &World, hero: Hero) -> Vec<Cell> {
    w.gems
        .iter()
        .filter(|g| g.hero == hero && !g.taken)
        .map(|g| (g.x, g.y))
        .collect()
}

/// What `hero` still has to reach: its diamonds, or its door once they
/// are all taken.
fn targets(w: &World, hero: Hero) -> Vec<Cell> {
    let gems = own_gems(w, hero);
    if gems.is_empty() {
        vec![w.doors[hero as usize]]
    } else {
        gems
    }
}

/// The switch `hero` needs operated: one whose mechanism, on, lets it reach
/// a target it cannot reach with the mechanism off.
fn dependency(w: &World, hero: Hero) -> Option<usize> {
    let goals = targets(w, hero);
    let start = start_cell(w, hero);
    for (i, s) in w.switches.iter().enumerate() {
        if s.kind == SwitchKind::Lever && s.on {
            continue;
        }
        let open = Paths::new(&with_mech(w, s.gate, true), hero, start);
        let closed_map = with_mech(w, s.gate, false);
        let closed = Paths::new(&closed_map, hero, start);
        let stands = standable(&closed_map, hero, start.0, start.1);
        let gain = goals
            .iter()
            .any(|&g| open.dist(g).is_some() && (!stands || closed.dist(g).is_none()));
        if gain {
            return Some(i);
        }
    }
    None
}

/// Whether a box stands on button `i` (and so holds it down).
fn box_holds(w: &World, i: usize) -> bool {
    let s = &w.switches[i];
    let cell = super::Aabb::new(s.x as f64, s.y as f64, 1.0, 1.0);
    w.boxes.iter().any(|b| {
        let a = &b.body.aabb;
        b.body.on_ground && a.overlaps(&cell) && (a.bottom() - 0.01).floor() as i64 == s.y
    })
}

/// A box that can be pushed along a flat, clear floor onto button `i`:
/// the box, the cell to push it from and the direction.
fn box_push(w: &World, map: &TileMap, i: usize) -> Option<(usize, Cell, i64)> {
    let s = &w.switches[i];
    w.boxes.iter().enumerate().find_map(|(bi, b)| {
        let a = &b.body.aabb;
        let row = (a.bottom() - 0.01).floor() as i64;
        if !b.body.on_ground || row != s.y {
            return None;
        }
        let dir = if s.x as f64 + 0.5 > a.center_x() {
            1
        } else {
            -1
        };
        let (bx, _) = box_cell(b);
        let clear = (bx.min(s.x)..=bx.max(s.x)).all(|x| {
            solidity(map.at(x, row + 1, b'#')) == Solidity::Solid && (x == bx || empty(map, x, row))
        });
        let from = if dir == 1 { a.x - 0.5 } else { a.right() + 0.5 };
        clear.then_some((bi, (from.floor() as i64, row), dir))
    })
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Goal {
    Go(Cell),
    Hold(Cell),
    PushLever(Cell),
    /// Push box `.0` from cell `.1` in direction `.2`.
    PushBox(usize, Cell, i64),
    Wait,
}

/// Whether `hero`, at path distance `mine`, is the one to go (the partner
/// is at `theirs`; ties go to Watergirl, so both halves agree).
fn nearer(hero: Hero, mine: Option<u32>, theirs: Option<u32>) -> bool {
    match (mine, theirs) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(a), Some(b)) => a < b || (a == b && hero == Hero::Watergirl),
    }
}

fn goal(w: &World, hero: Hero, paths: &Paths) -> Goal {
    let partner = if hero == Hero::Watergirl {
        Hero::Fireboy
    } else {
        Hero::Watergirl
    };
    let map = plan_map(w);
    let partner_paths = Paths::new(&map, partner, start_cell(w, partner));
    let lever_cell = |i: usize| (w.switches[i].x - 1, w.switches[i].y);
    let goals = targets(w, hero);
    let nearest = goals
        .iter()
        .filter_map(|&g| paths.dist(g).map(|d| (d, g.1, g.0)))
        .min();
    let mine = dependency(w, hero);
    for (who, dep) in [(partner, dependency(w, partner)), (hero, mine)] {
        let Some(i) = dep else { continue };
        let s = &w.switches[i];
        match s.kind {
            SwitchKind::Button => {
                if box_holds(w, i) {
                    continue;
                }
                if let Some((bi, from, dir)) = box_push(w, &map, i) {
                    if nearer(hero, paths.dist(from), partner_paths.dist(from)) {
                        return Goal::PushBox(bi, from, dir);
                    }
                } else if who == partner && paths.dist((s.x, s.y)).is_some() {
                    return Goal::Hold((s.x, s.y));
                }
            }
            SwitchKind::Lever => {
                let at = lever_cell(i);
                let d = paths.dist(at);
                // Its own lever waits for the targets nearer than it.
                let now = who == partner || nearest.is_none_or(|n| d.is_some_and(|d| d <= n.0));
                if now && nearer(hero, d, partner_paths.dist(at)) {
                    return Goal::PushLever(at);
                }
            }
        }
    }
    if let Some((_, y, x)) = nearest {
        return Goal::Go((x, y));
    }
    if let Some(i) = mine {
        let s = &w.switches[i];
        if s.kind == SwitchKind::Lever && paths.dist(lever_cell(i)).is_some() {
            return Goal::PushLever(lever_cell(i));
        }
        // Wait for a lift standing on it, to ride it to the other end.
        for l in w
            .lifts
            .iter()
            .filter(|l| l.id == s.gate && !l.moving && l.t == 0.0)
        {
            let board = lift_cells(l, (l.aabb.x, l.aabb.y))
                .map(|(x, y)| (x, y - 1))
                .filter(|&c| paths.dist(c).is_some())
                .min_by_key(|&c| paths.dist(c));
            if let Some(c) = board {
                return Goal::Hold(c);
            }
        }
    }
    Goal::Wait
}

const ACTIONS: [&str; 5] = ["wait", "move_left", "move_right", "jump_left", "jump_right"];

/// Keys of an action for `hero`, and its horizontal direction.
fn keys(hero: Hero, action: &str) -> (Vec<&'static str>, i32) {
    let [l, r, u] = hero.keys();
    match action {
        "move_left" => (vec![l], -1),
        "move_right" => (vec![r], 1),
        "jump_left" => (vec![u, l], -1),
        "jump_right" => (vec![u, r], 1),
        _ => (vec![], 0),
    }
}

/// Whether `hero` survives `action` followed by two more steps, either
/// still leaning the same way or standing still (the next decision can
/// choose either).
fn survives(w: &World, hero: Hero, action: &str) -> bool {
    let mut sim = w.clone();
    let (ks, dir) = keys(hero, action);
    for k in &ks {
        sim.key(k, true);
    }
    sim.advance(200);
    for k in &ks {
        sim.key(k, false);
    }
    if !sim.chars[hero as usize].alive {
        return false;
    }
    let [l, r, _] = hero.keys();
    let lean = match dir {
        -1 => Some(l),
        1 => Some(r),
        _ => None,
    };
    let follow = |lean: Option<&str>| {
        let mut sim = sim.clone();
        if let Some(k) = lean {
            sim.key(k, true);
        }
        sim.advance(400);
        sim.chars[hero as usize].alive
    };
    follow(None) || (lean.is_some() && follow(lean))
}

fn toward(dx: f64) -> &'static str {
    if dx > 0.15 {
        "move_right"
    } else if dx < -0.15 {
        "move_left"
    } else {
        "wait"
    }
}

/// The expert's action id for `hero`.
pub fn choose(w: &World, hero: Hero) -> &'static str {
    let c = &w.chars[hero as usize];
    if !c.alive || w.terminal.is_terminal {
        return "wait";
    }
    let start = start_cell(w, hero);
    let paths = Paths::new(&plan_map(w), hero, start);
    let g = goal(w, hero, &paths);
    let cx = c.body.aabb.center_x();
    let (target, at_goal_action) = match g {
        Goal::Wait => (None, "wait"),
        Goal::Go(t) | Goal::Hold(t) => (Some(t), "wait"),
        Goal::PushLever(t) => (Some(t), "move_right"),
        Goal::PushBox(_, t, dir) => (Some(t), if dir > 0 { "move_right" } else { "move_left" }),
    };
    // Pushing: keep walking into the box while touching its side.
    if let Goal::PushBox(bi, _, dir) = g {
        let (a, b) = (&c.body.aabb, &w.boxes[bi].body.aabb);
        let gap = if dir > 0 {
            b.x - a.right()
        } else {
            a.x - b.right()
        };
        if c.body.on_ground && (a.bottom() - b.bottom()).abs() < 0.05 && (-0.05..0.3).contains(&gap)
        {
            let push = at_goal_action;
            if survives(w, hero, push) {
                return push;
            }
        }
    }
    let wanted = match target {
        None => "wait",
        Some(t) if t == start && c.body.on_ground => {
            // Centre on the goal cell first.
            let off = t.0 as f64 + 0.5 - cx;
            if at_goal_action != "wait" || off.abs() <= 0.3 {
                at_goal_action
            } else {
                toward(off)
            }
        }
        Some(t) => match paths.first_hop(t) {
            None => "wait",
            Some((hop, edge)) => {
                let dx = hop.0 as f64 + 0.5 - cx;
                if !c.body.on_ground {
                    toward(dx)
                } else {
                    match edge {
                        Edge::Walk | Edge::Drop => toward(dx),
                        Edge::Jump => {
                            if hop.0 > start.0 {
                                "jump_right"
                            } else {
                                "jump_left"
                            }
                        }
                    }
                }
            }
        },
    };
    if survives(w, hero, wanted) {
        return wanted;
    }
    ACTIONS
        .into_iter()
        .find(|a| survives(w, hero, a))
        .unwrap_or("wait")
}
