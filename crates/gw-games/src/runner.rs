//! Mechanics shared by the 2D runner games (Chrome Dino, NS-Shaft, Boxel
//! Rebound, Edge Surf): axis-aligned boxes for collisions and the look-ahead
//! search their scripted experts use.
//!
//! The experts plan by rolling a *copy* of the game's own deterministic
//! physics forward over short sequences of actions. A copy never draws from
//! the game's random stream: whatever the game would spawn later is simply
//! absent from the copy (or, where a game must keep spawning inside the
//! horizon, drawn from an unrelated stream the game never uses).

/// An axis-aligned box: `x`, `y` is the top-left corner, screen axes (y down).
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

    /// Whether the interiors overlap (touching edges do not count).
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.x < o.right() && o.x < self.right() && self.y < o.bottom() && o.y < self.bottom()
    }

    /// The box shrunk by `m` on every side (forgiving hit boxes).
    pub fn inset(&self, m: f64) -> Aabb {
        Aabb::new(self.x + m, self.y + m, self.w - 2.0 * m, self.h - 2.0 * m)
    }
}

/// What one simulated decision did to a rolled-forward copy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rollout {
    /// Still alive; the value is this decision's cost (lower is better).
    Alive(f64),
    /// The run ended in failure during the decision.
    Dead,
    /// The run ended in success (or the goal was reached) during it.
    Won,
}

/// Value of a death `depth_done` decisions into the future: always far below
/// any survivable line, and later deaths beat sooner ones.
const DEATH: f64 = -1.0e9;

fn search<S: Clone, A: Copy>(
    state: &S,
    actions: &[A],
    depth: u32,
    done: u32,
    step: &impl Fn(&mut S, A) -> Rollout,
) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for &a in actions {
        let mut s = state.clone();
        let v = match step(&mut s, a) {
            Rollout::Dead => DEATH + done as f64 * 1.0e6,
            Rollout::Won => 1.0e6 - done as f64,
            Rollout::Alive(cost) if depth <= 1 => -cost,
            Rollout::Alive(cost) => search(&s, actions, depth - 1, done + 1, step) - cost,
        };
        if v > best {
            best = v;
        }
    }
    best
}

/// The best first action of an exhaustive search `depth` decisions deep over
/// `actions`, each decision simulated by `step` on a clone of `state`. Ties
/// go to the earliest action in `actions` (put the cheapest, e.g. `wait`,
/// first). Returns the action and its value (below `-1e8` means every line
/// dies within the horizon).
pub fn plan<S: Clone, A: Copy>(
    state: &S,
    actions: &[A],
    depth: u32,
    step: impl Fn(&mut S, A) -> Rollout,
) -> (A, f64) {
    assert!(!actions.is_empty() && depth > 0);
    let mut best = (actions[0], f64::NEG_INFINITY);
    for &a in actions {
        let mut s = state.clone();
        let v = match step(&mut s, a) {
            Rollout::Dead => DEATH,
            Rollout::Won => 1.0e6,
            Rollout::Alive(cost) if depth <= 1 => -cost,
            Rollout::Alive(cost) => search(&s, actions, depth - 1, 1, &step) - cost,
        };
        if v > best.1 {
            best = (a, v);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_overlap_only_with_interiors() {
        let a = Aabb::new(0.0, 0.0, 10.0, 10.0);
        assert!(a.overlaps(&Aabb::new(9.0, 9.0, 5.0, 5.0)));
        assert!(!a.overlaps(&Aabb::new(10.0, 0.0, 5.0, 5.0)));
        assert!(!a.overlaps(&Aabb::new(0.0, -5.0, 5.0, 5.0)));
        assert!(!a.inset(1.0).overlaps(&Aabb::new(9.0, 9.0, 5.0, 5.0)));
    }

    #[test]
    fn plan_avoids_death_and_prefers_later_deaths() {
        // A walker on a line: action +1/-1; position 3 kills, 10 wins.
        let step = |s: &mut i32, a: i32| {
            *s += a;
            match *s {
                3 => Rollout::Dead,
                10 => Rollout::Won,
                _ => Rollout::Alive(0.0),
            }
        };
        assert_eq!(plan(&2, &[1, -1], 3, step).0, -1);
        assert_eq!(plan(&8, &[-1, 1], 3, step).0, 1);
        // Both first moves die eventually; the later death is chosen.
        let trap = |s: &mut i32, a: i32| {
            if a == 1 {
                return Rollout::Dead;
            }
            *s -= 1;
            if *s < 0 {
                Rollout::Dead
            } else {
                Rollout::Alive(0.0)
            }
        };
        let (a, v) = plan(&1, &[1, -1], 3, trap);
        assert_eq!(a, -1);
        assert!(v < -1.0e8);
    }
}
