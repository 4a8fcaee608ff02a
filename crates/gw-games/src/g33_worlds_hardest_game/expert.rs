//! Scripted WHG expert: a breadth-first search over (player position, dot
//! clock phase, coins held) that simulates the level's deterministic dot
//! motion tick by tick with the game's own tick function — waiting when a dot
//! is about to cross — and returns the shortest sequence of steps to the goal
//! (enough coins for a coin task, otherwise the exit). The plan is cached and
//! followed while the game stays on it; any surprise triggers a replan.

use super::WhgGame;
use super::engine::{Body, Level, TICK_MS, TickEvent};
use gw_core::TaskInfo;
use std::collections::{HashSet, VecDeque};

/// Ticks one `move_*` step holds its key (0.2 s).
const MOVE_TICKS: u64 = 200 / TICK_MS;
/// Deepest plan considered, in steps (the task budget).
const MAX_DEPTH: usize = 100;
const MAX_NODES: usize = 1_500_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    Up,
    Down,
    Left,
    Right,
    Wait,
}

pub const ACTS: [Act; 5] = [Act::Right, Act::Down, Act::Left, Act::Up, Act::Wait];

impl Act {
    pub fn control_id(self) -> &'static str {
        match self {
            Act::Up => "move_up",
            Act::Down => "move_down",
            Act::Left => "move_left",
            Act::Right => "move_right",
            Act::Wait => "wait",
        }
    }

    fn delta(self) -> (i32, i32) {
        match self {
            Act::Up => (0, -1),
            Act::Down => (0, 1),
            Act::Left => (-1, 0),
            Act::Right => (1, 0),
            Act::Wait => (0, 0),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    Exit,
    /// Hold at least this many coins.
    Coins(u32),
}

impl Goal {
    pub fn for_task(task: &TaskInfo) -> Goal {
        if task.score_field == "metrics.coins" {
            Goal::Coins(task.target.max(0.0).ceil() as u32)
        } else {
            Goal::Exit
        }
    }
}

/// A cached plan: the body expected before each action.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    level: usize,
    steps: Vec<(Body, Act)>,
}

/// Outcome of one simulated step.
pub fn simulate(level: &Level, body: &mut Body, act: Act, wait_ticks: u64) -> TickEvent {
    let (dx, dy) = act.delta();
    let ticks = if act == Act::Wait {
        wait_ticks
    } else {
        MOVE_TICKS
    };
    for _ in 0..ticks {
        match level.tick(body, dx, dy) {
            TickEvent::Alive => {}
            other => return other,
        }
    }
    TickEvent::Alive
}

fn reached(goal: Goal, level: &Level, ev: TickEvent, body: &Body) -> bool {
    match goal {
        Goal::Exit => ev == TickEvent::Exited,
        Goal::Coins(n) => {
            ev == TickEvent::Exited || (body.coins & level.all_coins()).count_ones() >= n
        }
    }
}

/// Shortest (in steps) safe action sequence from `start` to `goal`.
pub fn plan(level: &Level, start: Body, goal: Goal, wait_ticks: u64) -> Option<Vec<(Body, Act)>> {
    struct Node {
        body: Body,
        parent: u32,
        act: Act,
        depth: u16,
    }
    let key = |b: &Body| (b.x, b.y, b.t % level.period, b.coins);
    let mut seen = HashSet::new();
    seen.insert(key(&start));
    let mut nodes = vec![Node {
        body: start,
        parent: u32::MAX,
        act: Act::Wait,
        depth: 0,
    }];
    let mut queue = VecDeque::from([0u32]);
    while let Some(i) = queue.pop_front() {
        let (body, depth) = (nodes[i as usize].body, nodes[i as usize].depth);
        if depth as usize >= MAX_DEPTH || nodes.len() >= MAX_NODES {
            continue;
        }
        for act in ACTS {
            let mut b = body;
            let ev = simulate(level, &mut b, act, wait_ticks);
            if ev == TickEvent::Died {
                continue;
            }
            if reached(goal, level, ev, &b) {
                let mut steps = vec![(body, act)];
                let mut j = i;
                while nodes[j as usize].parent != u32::MAX {
                    let n = &nodes[j as usize];
                    steps.push((nodes[n.parent as usize].body, n.act));
                    j = n.parent;
                }
                steps.reverse();
                return Some(steps);
            }
            if seen.insert(key(&b)) {
                nodes.push(Node {
                    body: b,
                    parent: i,
                    act,
                    depth: depth + 1,
                });
                queue.push_back(nodes.len() as u32 - 1);
            }
        }
    }
    None
}

/// The expert's next action in `game`.
pub fn next_action(game: &WhgGame, task: &TaskInfo) -> Act {
    let body = game.body();
    let level_idx = game.level_index();
    let level = game.level();
    let wait_ticks = game.variant().wait_ticks;
    let mut cached = game.plan.lock().expect("plan lock");
    if cached.level == level_idx
        && let Some((_, act)) = cached.steps.iter().find(|(b, _)| *b == body)
    {
        return *act;
    }
    if let Some(steps) = plan(level, body, Goal::for_task(task), wait_ticks) {
        let act = steps[0].1;
        *cached = Plan {
            level: level_idx,
            steps,
        };
        return act;
    }
    // No safe route found: survive this step if any action allows it.
    *cached = Plan::default();
    let safe = |act: Act| {
        let mut b = body;
        simulate(level, &mut b, act, wait_ticks) != TickEvent::Died
    };
    [Act::Wait, Act::Right, Act::Down, Act::Left, Act::Up]
        .into_iter()
        .find(|&a| safe(a))
        .unwrap_or(Act::Wait)
}
