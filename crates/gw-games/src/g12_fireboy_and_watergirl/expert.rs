//! The scripted expert: one policy for both characters, computed from the
//! same privileged state by each role, so the two halves agree.
//!
//! Navigation is a shortest-path search over standing cells (a character is
//! two cells tall and stands on a solid tile that is not deadly to it) with
//! walk, jump (up to 3 rows up and 3 columns across, or across a gap) and
//! drop edges, rebuilt from the live map every step. Coordination: a
//! character whose diamonds can only be reached with a gate open "depends"
//! on that gate's switch; its partner holds a button for as long as the
//! dependency lasts and pushes a lever the dependent one cannot reach.
//! Every chosen action is checked on a copy of the world (the game's own
//! physics, no random draws involved) and replaced when it would kill.

use super::{Hero, World, deadly, solidity};
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

/// The map with gate `id` forced open or closed.
fn with_gate(w: &World, id: u8, open: bool) -> TileMap {
    let mut map = w.map.clone();
    let base = &super::level_data(w.level).map;
    for g in w.gates.iter().filter(|g| g.id == id) {
        for &(x, y) in &g.cells {
            map.set(x, y, if open { base.at(x, y, b'#') } else { b'=' });
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

/// The switch `hero` needs operated: one whose gate, open, lets it reach a
/// diamond it cannot reach with that gate closed.
fn dependency(w: &World, hero: Hero) -> Option<usize> {
    let gems = own_gems(w, hero);
    if gems.is_empty() {
        return None;
    }
    let start = start_cell(w, hero);
    for (i, s) in w.switches.iter().enumerate() {
        if s.kind == super::SwitchKind::Lever && s.on {
            continue;
        }
        let open = Paths::new(&with_gate(w, s.gate, true), hero, start);
        let closed_map = with_gate(w, s.gate, false);
        let closed = Paths::new(&closed_map, hero, start);
        let stands = standable(&closed_map, hero, start.0, start.1);
        let gain = gems
            .iter()
            .any(|&g| open.dist(g).is_some() && (!stands || closed.dist(g).is_none()));
        if gain {
            return Some(i);
        }
    }
    None
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Goal {
    Go(Cell),
    Hold(Cell),
    PushLever(Cell),
    Wait,
}

fn goal(w: &World, hero: Hero, paths: &Paths) -> Goal {
    let partner = if hero == Hero::Watergirl {
        Hero::Fireboy
    } else {
        Hero::Watergirl
    };
    let lever_cell = |i: usize| (w.switches[i].x - 1, w.switches[i].y);
    if let Some(i) = dependency(w, partner) {
        let s = &w.switches[i];
        match s.kind {
            super::SwitchKind::Button if paths.dist((s.x, s.y)).is_some() => {
                return Goal::Hold((s.x, s.y));
            }
            super::SwitchKind::Lever => {
                let partner_paths = Paths::new(&w.map, partner, start_cell(w, partner));
                if partner_paths.dist(lever_cell(i)).is_none()
                    && paths.dist(lever_cell(i)).is_some()
                {
                    return Goal::PushLever(lever_cell(i));
                }
            }
            _ => {}
        }
    }
    let gems = own_gems(w, hero);
    let nearest = gems
        .iter()
        .filter_map(|&g| paths.dist(g).map(|d| (d, g.1, g.0)))
        .min();
    if let Some((_, y, x)) = nearest {
        return Goal::Go((x, y));
    }
    if !gems.is_empty() {
        if let Some(i) = dependency(w, hero)
            && w.switches[i].kind == super::SwitchKind::Lever
            && paths.dist(lever_cell(i)).is_some()
        {
            return Goal::PushLever(lever_cell(i));
        }
        return Goal::Wait;
    }
    Goal::Go(w.doors[hero as usize])
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
    let paths = Paths::new(&w.map, hero, start);
    let g = goal(w, hero, &paths);
    let cx = c.body.aabb.center_x();
    let (target, at_goal_action) = match g {
        Goal::Wait => (None, "wait"),
        Goal::Go(t) | Goal::Hold(t) => (Some(t), "wait"),
        Goal::PushLever(t) => (Some(t), "move_right"),
    };
    let wanted = match target {
        None => "wait",
        Some(t) if t == start && c.body.on_ground => {
            // Centre on the goal cell first.
            let off = t.0 as f64 + 0.5 - cx;
            if at_goal_action == "move_right" || off.abs() <= 0.3 {
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
