//! Scripted Captain Callisto expert: a planner over the game's own physics.
//!
//! The goal is the next coin while the task still needs points from coins,
//! then the exit. A weighted A* search runs over the semantic actions, each
//! rolled forward on a copy of the [`World`] exactly as the action layer
//! plays it (key down, the binding's duration, key up), so a plan that works
//! in the search works in the game. Search nodes are merged on a coarse key
//! (position to a quarter tile, velocity, fuel, coins, aliens left); a move
//! that costs a life is never taken. The heuristic is a path-cost field over
//! the tile map towards the goal tiles (ladders are cheap to climb, open air
//! dear, falling cheap). The world holds no randomness (aliens walk by fixed
//! rules), so the copy only sees what the game has already drawn.
//!
//! The plan is cached with the world expected before each action; as long as
//! the game matches, the next action is read from it, otherwise (or when it
//! runs out) the expert plans again from the current state.

use super::{COLS, EXIT_POINTS, ROWS, TICK_MS, World};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashSet};

/// One semantic action: id, keys pressed, duration in ms (the role's
/// bindings in `registry/games/06_captaincallisto.yaml`).
pub struct Act {
    pub id: &'static str,
    pub keys: &'static [&'static str],
    pub ms: u64,
}

pub const ACTS: [Act; 7] = [
    Act {
        id: "move_right",
        keys: &["ArrowRight"],
        ms: 200,
    },
    Act {
        id: "move_left",
        keys: &["ArrowLeft"],
        ms: 200,
    },
    Act {
        id: "jump",
        keys: &["Space"],
        ms: 10,
    },
    Act {
        id: "jetpack",
        keys: &["Shift"],
        ms: 200,
    },
    Act {
        id: "move_up",
        keys: &["ArrowUp"],
        ms: 200,
    },
    Act {
        id: "move_down",
        keys: &["ArrowDown"],
        ms: 200,
    },
    Act {
        id: "wait",
        keys: &[],
        ms: 200,
    },
];

/// Most nodes one search expands before it settles for the closest one.
const MAX_EXPANSIONS: usize = 12_000;
/// Weight of the heuristic (greedy beyond optimal, for speed).
const H_WEIGHT: f64 = 1.6;

/// Play one action on `w` as the action layer would; false if it cost a
/// life.
pub fn play(w: &mut World, act: &Act) -> bool {
    for k in act.keys {
        w.key(k, true);
    }
    for _ in 0..(act.ms / TICK_MS).max(1) {
        w.tick();
        if w.death.is_some() {
            return false;
        }
        if w.exited {
            break;
        }
    }
    for k in act.keys {
        w.key(k, false);
    }
    true
}

/// The cached plan: the world expected before each action and the action.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    steps: Vec<(World, usize)>,
    next: usize,
}

/// What the search is after.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Goal {
    /// Any coin beyond `have`.
    Coin {
        have: u32,
    },
    Exit,
}

fn goal_for(w: &World, target: f64) -> Goal {
    let need = target - EXIT_POINTS as f64 - w.coins as f64;
    if need > 0.0 && !w.map.find_all(b'c').is_empty() {
        Goal::Coin { have: w.coins }
    } else {
        Goal::Exit
    }
}

fn reached(goal: Goal, w: &World) -> bool {
    match goal {
        Goal::Coin { have } => w.coins > have,
        Goal::Exit => w.exited,
    }
}

/// Path cost (in quarter-steps, roughly) from every tile to the nearest of
/// `goals`; `u32::MAX` where unreachable.
fn cost_field(w: &World, goals: &[(i64, i64)]) -> Vec<u32> {
    let idx = |x: i64, y: i64| (y as usize) * COLS + x as usize;
    let inside = |x: i64, y: i64| x >= 0 && y >= 0 && x < COLS as i64 && y < ROWS as i64;
    let free = |x: i64, y: i64| inside(x, y) && !matches!(w.map.at(x, y, b'#'), b'#' | b'^');
    let mut dist = vec![u32::MAX; COLS * ROWS];
    let mut heap = BinaryHeap::new();
    for &(x, y) in goals {
        if free(x, y) {
            dist[idx(x, y)] = 0;
            heap.push(std::cmp::Reverse((0u32, x, y)));
        }
    }
    while let Some(std::cmp::Reverse((d, x, y))) = heap.pop() {
        if d > dist[idx(x, y)] {
            continue;
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            // Moving from (nx, ny) into (x, y).
            let (nx, ny) = (x + dx, y + dy);
            if !free(nx, ny) {
                continue;
            }
            let ladder = w.map.at(nx, ny, b'.') == b'H' || w.map.at(x, y, b'.') == b'H';
            let c = match dy {
                1 if ladder => 5,
                1 => 7,
                -1 => 2,
                _ => 4,
            };
            if d + c < dist[idx(nx, ny)] {
                dist[idx(nx, ny)] = d + c;
                heap.push(std::cmp::Reverse((d + c, nx, ny)));
            }
        }
    }
    dist
}

/// The field at a body centre, interpolated over the nearest tile centres,
/// in steps.
fn field_at(field: &[u32], cx: f64, cy: f64) -> f64 {
    let mut best = f64::INFINITY;
    let (bx, by) = ((cx - 0.5).floor() as i64, (cy - 0.5).floor() as i64);
    for (x, y) in [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)] {
        if x < 0 || y < 0 || x >= COLS as i64 || y >= ROWS as i64 {
            continue;
        }
        let d = field[y as usize * COLS + x as usize];
        if d == u32::MAX {
            continue;
        }
        let e = (x as f64 + 0.5 - cx).abs() + (y as f64 + 0.5 - cy).abs();
        best = best.min(d as f64 / 4.0 + e);
    }
    if best.is_finite() { best } else { 1.0e3 }
}

type Key = (i32, i32, i32, i32, i32, bool, bool, u32, u32);

fn key(w: &World) -> Key {
    let b = &w.body;
    (
        (b.aabb.x * 4.0).round() as i32,
        (b.aabb.y * 4.0).round() as i32,
        b.vx.round() as i32,
        (b.vy / 3.0).round() as i32,
        (w.fuel * 4.0).round() as i32,
        w.climbing,
        w.waiting,
        w.coins,
        w.kills,
    )
}

struct Node {
    world: World,
    parent: usize,
    act: usize,
    g: u32,
    h: f64,
}

#[derive(PartialEq)]
struct Open(f64, usize);
impl Eq for Open {}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap on f, then first-in first.
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Search a plan from `w` towards `goal`; on failure the plan to the node
/// that came closest.
fn search(w: &World, goal: Goal) -> Vec<(World, usize)> {
    let targets = match goal {
        Goal::Coin { .. } => w.map.find_all(b'c'),
        Goal::Exit => vec![w.data().exit],
    };
    let field = cost_field(w, &targets);
    let h = |n: &World| {
        let b = n.body.aabb;
        field_at(&field, b.center_x(), b.center_y())
    };
    let mut nodes = vec![Node {
        world: w.clone(),
        parent: usize::MAX,
        act: 0,
        g: 0,
        h: h(w),
    }];
    let mut seen: HashSet<Key> = HashSet::new();
    seen.insert(key(w));
    let mut open = BinaryHeap::new();
    open.push(Open(H_WEIGHT * nodes[0].h, 0));
    let mut best = 0;
    let mut found = None;
    let mut expanded = 0;
    'search: while let Some(Open(_, i)) = open.pop() {
        expanded += 1;
        if expanded > MAX_EXPANSIONS {
            break;
        }
        for (a, act) in ACTS.iter().enumerate() {
            let mut n = nodes[i].world.clone();
            if !play(&mut n, act) {
                continue;
            }
            if n.exited && !reached(goal, &n) {
                // Leaving early would end the level short of the target.
                continue;
            }
            if !seen.insert(key(&n)) {
                continue;
            }
            let g = nodes[i].g + 1;
            let hv = h(&n);
            let done = reached(goal, &n);
            nodes.push(Node {
                world: n,
                parent: i,
                act: a,
                g,
                h: hv,
            });
            let j = nodes.len() - 1;
            if done {
                found = Some(j);
                break 'search;
            }
            if hv < nodes[best].h {
                best = j;
            }
            open.push(Open(g as f64 + H_WEIGHT * hv, j));
        }
    }
    let mut j = found.unwrap_or(best);
    let mut rev = Vec::new();
    while j != 0 {
        let n = &nodes[j];
        rev.push((nodes[n.parent].world.clone(), n.act));
        j = n.parent;
    }
    rev.reverse();
    rev
}

/// The semantic action id for the next step, for a task whose score target
/// is `target`.
pub fn choose(w: &World, target: f64, plan: &mut Plan) -> &'static str {
    if w.exited || w.death.is_some() {
        return "wait";
    }
    if plan
        .steps
        .get(plan.next)
        .is_none_or(|(expected, _)| expected != w)
    {
        *plan = Plan {
            steps: search(w, goal_for(w, target)),
            next: 0,
        };
    }
    match plan.steps.get(plan.next) {
        Some(&(_, a)) => {
            plan.next += 1;
            ACTS[a].id
        }
        // Nothing better found from here: let the aliens move on.
        None => "wait",
    }
}
