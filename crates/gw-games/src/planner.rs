//! Planning over a game's own physics, shared by the platformer experts
//! (Captain Callisto, OvO, Vex 3).
//!
//! [`astar`] searches sequences of a game's semantic actions, each rolled
//! forward on a copy of the game's world exactly as the action layer plays
//! it, so a plan found in the search plays out the same in the game (the
//! worlds hold no randomness of their own). Nodes are merged on a coarse key
//! the game chooses (position, velocity, …), which keeps the search small;
//! the heuristic is usually a [`cost_field`] over the level's tile map.
//! [`Plan`] caches a plan with the world expected before each action: the
//! expert follows it while the game matches and plans again when it does not
//! (another agent moved first, or the plan ran out).

use crate::tilemap::TileMap;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashSet};
use std::hash::Hash;

/// What one search is given.
pub struct Search<'a, W, K> {
    /// Number of actions (indices `0..actions`).
    pub actions: usize,
    /// Play action `a` on a copy; false when it must not be taken (a life
    /// lost, a level left too early).
    pub step: &'a dyn Fn(&mut W, usize) -> bool,
    /// Coarse key two nodes are merged on.
    pub key: &'a dyn Fn(&W) -> K,
    /// Estimated steps still needed.
    pub h: &'a dyn Fn(&W) -> f64,
    /// Whether a world meets the goal.
    pub done: &'a dyn Fn(&W) -> bool,
    /// Weight of `h` over the steps taken (above 1 trades optimality for
    /// speed).
    pub weight: f64,
    /// Nodes expanded before the search settles for the closest one.
    pub max_expansions: usize,
}

struct Node<W> {
    world: W,
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
        // Smallest f first, then the older node.
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Weighted A* from `start`: the actions to take, each with the world
/// expected before it. When no node meets the goal within the budget, the
/// plan to the node with the smallest heuristic (empty if that is `start`).
pub fn astar<W: Clone, K: Hash + Eq>(start: &W, s: &Search<W, K>) -> Vec<(W, usize)> {
    let mut nodes = vec![Node {
        world: start.clone(),
        parent: usize::MAX,
        act: 0,
        g: 0,
        h: (s.h)(start),
    }];
    let mut seen: HashSet<K> = HashSet::new();
    seen.insert((s.key)(start));
    let mut open = BinaryHeap::new();
    open.push(Open(s.weight * nodes[0].h, 0));
    let (mut best, mut found, mut expanded) = (0, None, 0);
    'search: while let Some(Open(_, i)) = open.pop() {
        expanded += 1;
        if expanded > s.max_expansions {
            break;
        }
        for a in 0..s.actions {
            let mut n = nodes[i].world.clone();
            if !(s.step)(&mut n, a) || !seen.insert((s.key)(&n)) {
                continue;
            }
            let (g, h, done) = (nodes[i].g + 1, (s.h)(&n), (s.done)(&n));
            nodes.push(Node {
                world: n,
                parent: i,
                act: a,
                g,
                h,
            });
            let j = nodes.len() - 1;
            if done {
                found = Some(j);
                break 'search;
            }
            if h < nodes[best].h {
                best = j;
            }
            open.push(Open(g as f64 + s.weight * h, j));
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

/// A world an expert drives the way the action layer drives the game: keys
/// down, fixed ticks, keys up.
pub trait Keyed {
    fn key(&mut self, key: &str, down: bool);
    fn tick(&mut self);
    /// The move cost the attempt (a death): a search must not take it.
    fn lost(&self) -> bool;
    /// Nothing more happens in this world (the level was left).
    fn over(&self) -> bool;
}

/// Implements [`Keyed`] for a platformer `World` with inherent `key(&str,
/// bool)` and `tick()` methods, a `death: Option<_>` field (the attempt is
/// lost) and a `finished: bool` field (the level was left).
macro_rules! keyed_platformer {
    ($world:ty) => {
        impl $crate::planner::Keyed for $world {
            fn key(&mut self, key: &str, down: bool) {
                <$world>::key(self, key, down);
            }
            fn tick(&mut self) {
                <$world>::tick(self);
            }
            fn lost(&self) -> bool {
                self.death.is_some()
            }
            fn over(&self) -> bool {
                self.finished
            }
        }
    };
}
pub(crate) use keyed_platformer;

/// Hold `keys` on `w` for `ticks` fixed ticks (fewer once it is over), then
/// let go: one semantic action as the action layer plays it. False if the
/// attempt was lost on the way.
pub fn hold_keys<W: Keyed>(w: &mut W, keys: &[&str], ticks: u64) -> bool {
    for k in keys {
        w.key(k, true);
    }
    for _ in 0..ticks {
        w.tick();
        if w.lost() {
            return false;
        }
        if w.over() {
            break;
        }
    }
    for k in keys {
        w.key(k, false);
    }
    true
}

/// A cached plan: the world expected before each action, and the action.
#[derive(Clone, Debug)]
pub struct Plan<W> {
    steps: Vec<(W, usize)>,
    next: usize,
}

impl<W> Default for Plan<W> {
    fn default() -> Self {
        Plan {
            steps: Vec::new(),
            next: 0,
        }
    }
}

impl<W: PartialEq> Plan<W> {
    /// The next action for `w`: from the plan while `w` is the world it
    /// expects, else from a new plan made by `replan`. `None` when the new
    /// plan is empty.
    pub fn next(&mut self, w: &W, replan: impl FnOnce() -> Vec<(W, usize)>) -> Option<usize> {
        if self
            .steps
            .get(self.next)
            .is_none_or(|(expected, _)| expected != w)
        {
            self.steps = replan();
            self.next = 0;
        }
        let &(_, a) = self.steps.get(self.next)?;
        self.next += 1;
        Some(a)
    }
}

/// Path cost from every tile of `map` to the nearest of `goals` (Dijkstra),
/// `u32::MAX` where unreachable. `cost(from, to)` prices one move between
/// four-neighbouring tiles inside the map, `None` where it is impossible.
/// Index the result by `y * map.width() + x`.
pub fn cost_field(
    map: &TileMap,
    goals: &[(i64, i64)],
    cost: impl Fn((i64, i64), (i64, i64)) -> Option<u32>,
) -> Vec<u32> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    let idx = |x: i64, y: i64| (y * w + x) as usize;
    let mut dist = vec![u32::MAX; (w * h) as usize];
    let mut heap = BinaryHeap::new();
    for &(x, y) in goals {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            dist[idx(x, y)] = 0;
            heap.push(Reverse((0u32, x, y)));
        }
    }
    while let Some(Reverse((d, x, y))) = heap.pop() {
        if d > dist[idx(x, y)] {
            continue;
        }
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if !(0..w).contains(&nx) || !(0..h).contains(&ny) {
                continue;
            }
            if let Some(c) = cost((nx, ny), (x, y))
                && d + c < dist[idx(nx, ny)]
            {
                dist[idx(nx, ny)] = d + c;
                heap.push(Reverse((d + c, nx, ny)));
            }
        }
    }
    dist
}

/// A [`cost_field`] read at a point (tile units): the best of the four
/// nearest tile centres plus the Manhattan way there, scaled by `per_unit`
/// (field units per step); `far` where none is reachable.
pub fn field_at(field: &[u32], width: usize, px: f64, py: f64, per_unit: f64, far: f64) -> f64 {
    let height = (field.len() / width.max(1)) as i64;
    let mut best = f64::INFINITY;
    let (bx, by) = ((px - 0.5).floor() as i64, (py - 0.5).floor() as i64);
    for (x, y) in [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)] {
        if x < 0 || y < 0 || x >= width as i64 || y >= height {
            continue;
        }
        let d = field[y as usize * width + x as usize];
        if d == u32::MAX {
            continue;
        }
        let e = (x as f64 + 0.5 - px).abs() + (y as f64 + 0.5 - py).abs();
        best = best.min(d as f64 / per_unit + e);
    }
    if best.is_finite() { best } else { far }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A walker on a line: actions -1, 0, +1; cell 3 is a pit.
    #[test]
    fn astar_finds_the_way_round_and_plans_replay() {
        let step = |x: &mut i32, a: usize| {
            *x += [-1, 0, 1][a];
            *x != 3 && (-5..=9).contains(x)
        };
        let key = |x: &i32| *x;
        let h = |x: &i32| (8 - *x).abs() as f64;
        let done = |x: &i32| *x == 8;
        let s = Search {
            actions: 3,
            step: &step,
            key: &key,
            h: &h,
            done: &done,
            weight: 1.0,
            max_expansions: 100,
        };
        // The pit blocks the line: the closest reachable node is 2.
        let plan = astar(&0, &s);
        assert_eq!(plan.iter().map(|p| p.1).collect::<Vec<_>>(), vec![2, 2]);
        assert_eq!(plan[1].0, 1, "the world before each action");
        let plan = astar(&4, &s);
        assert_eq!(plan.len(), 4);
        let mut cached = Plan::default();
        assert_eq!(cached.next(&4, || plan.clone()), Some(2));
        assert_eq!(cached.next(&5, || unreachable!()), Some(2));
        // A world the plan did not expect: plan again.
        assert_eq!(cached.next(&7, || vec![(7, 0)]), Some(0));
        assert_eq!(cached.next(&6, Vec::new), None);
    }

    /// A counter that dies at 5 and is over at 3 when `stop` is set.
    struct Counter {
        n: u32,
        held: bool,
        stop: bool,
    }
    impl Keyed for Counter {
        fn key(&mut self, _key: &str, down: bool) {
            self.held = down;
        }
        fn tick(&mut self) {
            self.n += self.held as u32;
        }
        fn lost(&self) -> bool {
            self.n >= 5
        }
        fn over(&self) -> bool {
            self.stop && self.n >= 3
        }
    }

    #[test]
    fn hold_keys_plays_an_action_and_reports_a_loss() {
        let mut c = Counter {
            n: 0,
            held: false,
            stop: false,
        };
        assert!(hold_keys(&mut c, &["x"], 4));
        assert_eq!(c.n, 4);
        assert!(!c.held, "let go after the action");
        assert!(hold_keys(&mut c, &[], 4), "nothing held: no change");
        assert!(!hold_keys(&mut c, &["x"], 4), "reached 5: lost");
        let mut c = Counter {
            n: 0,
            held: false,
            stop: true,
        };
        assert!(hold_keys(&mut c, &["x"], 10));
        assert_eq!(c.n, 3, "stopped once over");
    }

    #[test]
    fn cost_field_prices_moves_and_skips_walls() {
        let map = TileMap::parse("....\n.##.\n....").unwrap();
        let free = |(x, y): (i64, i64)| map.at(x, y, b'#') != b'#';
        let f = cost_field(&map, &[(0, 1)], |from, to| {
            (free(from) && free(to)).then_some(2)
        });
        assert_eq!(f[0], 2);
        assert_eq!(f[4 + 3], 2 * 5, "round the wall");
        assert_eq!(f[4 + 1], u32::MAX);
        let v = field_at(&f, 4, 0.5, 0.5, 2.0, 99.0);
        assert!((v - 1.0).abs() < 1e-9, "{v}");
    }
}
