//! 20_monkey-mart — run a small supermarket as a monkey, seen from above.
//!
//! Bananas ripen on the banana tree (one every [`TREE_REGROW_MS`], at most
//! [`TREE_MAX`] at a time) and corn ripens on the corn field. The monkey
//! picks whatever is ripe while standing at a crop (one item every
//! [`HARVEST_MS`], carrying at most [`CARRY_MAX`] items of one kind), puts
//! them on the matching shelf while standing next to it, and serves the
//! customers queueing at the counter while standing at its left side.
//! Customers walk in from the door with a want (1–3 items of one kind, shown
//! in a bubble), take what they need from the shelf (waiting while it is
//! empty; after [`PATIENCE_MS`] they give up and leave), then queue at the
//! counter and pay (price per item) when served. The cash lands on the
//! counter and is pocketed at once while the monkey stands there.
//! An assistant in an orange hat keeps the corn shelf stocked, but after a
//! few trips he dozes off until the monkey walks up to him.
//! Money buys new stations on the unlock pads: a cashier who serves the
//! queue alone (the cash still waits on the counter until collected) and an
//! apple tree with its own shelf (a third product customers ask for).
//!
//! Positions are in screen pixels (the shop spans the frame below the HUD).
//! The game never ends by itself. `metrics.primary_score` (and
//! `game_state.score`) is all money ever pocketed (`money_total_earned`);
//! `game_state.money` is what is left after purchases.

mod expert;
#[cfg(test)]
mod tests;

use crate::draw::{self, Align, Rgb, rgb, rgba};
use gw_core::action::InputEvent;
use gw_core::state::set;
use gw_core::{FixedStep, Game, GameApiState, GameConfig, Rng, TaskInfo, Terminal};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::OnceLock;
use tiny_skia::Pixmap;

pub const ID: &str = "20_monkey-mart";
const TICK_MS: u64 = 20;
const DT: f64 = TICK_MS as f64 / 1000.0;
/// Monkey walking speed, px/s (a 0.5 s press walks 100 px).
pub const SPEED: f64 = 200.0;
pub const CUSTOMER_SPEED: f64 = 160.0;
pub const ASSISTANT_SPEED: f64 = 120.0;
pub const CARRY_MAX: u32 = 6;
pub const HARVEST_MS: f64 = 250.0;
pub const STOCK_MS: f64 = 150.0;
pub const TAKE_MS: f64 = 300.0;
pub const PAY_MS: f64 = 500.0;
pub const SHELF_MAX: u32 = 8;
pub const TREE_MAX: u32 = 6;
pub const TREE_REGROW_MS: f64 = 700.0;
pub const PATIENCE_MS: f64 = 30_000.0;
/// Half-size of the square around a station's spot in which the monkey
/// works it.
pub const REACH: f64 = 60.0;
/// Distance at which the monkey wakes the assistant.
pub const WAKE_REACH: f64 = 80.0;
pub const MAX_CUSTOMERS: usize = 8;
/// Play area (below the HUD).
pub const AREA: (f64, f64, f64, f64) = (20.0, 76.0, 1260.0, 700.0);
const DOOR: (f64, f64) = (1180.0, 90.0);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Product {
    Banana,
    Corn,
    Apple,
}

pub const PRODUCTS: [Product; 3] = [Product::Banana, Product::Corn, Product::Apple];

impl Product {
    pub fn name(self) -> &'static str {
        match self {
            Product::Banana => "banana",
            Product::Corn => "corn",
            Product::Apple => "apple",
        }
    }
    pub fn price(self) -> u32 {
        match self {
            Product::Banana => 4,
            Product::Corn => 4,
            Product::Apple => 6,
        }
    }
    fn idx(self) -> usize {
        self as usize
    }
    fn color(self) -> Rgb {
        match self {
            Product::Banana => rgb(250, 214, 60),
            Product::Corn => rgb(240, 170, 40),
            Product::Apple => rgb(214, 40, 40),
        }
    }
}

/// Where things are: the crop and shelf of each product, the counter's
/// service spot, the unlock pads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    pub x: f64,
    pub y: f64,
}

pub const CROP: [Spot; 3] = [
    Spot { x: 700.0, y: 620.0 },
    Spot { x: 170.0, y: 620.0 },
    Spot {
        x: 1060.0,
        y: 620.0,
    },
];
pub const SHELF: [Spot; 3] = [
    Spot { x: 700.0, y: 400.0 },
    Spot { x: 170.0, y: 440.0 },
    Spot {
        x: 1060.0,
        y: 420.0,
    },
];
/// Where the monkey stands to serve (left of the counter).
pub const SERVE: Spot = Spot { x: 380.0, y: 330.0 };
/// The counter itself; the queue runs to its right.
pub const COUNTER: Spot = Spot { x: 480.0, y: 330.0 };
pub const PAD_CASHIER: Spot = Spot { x: 380.0, y: 150.0 };
pub const PAD_APPLES: Spot = Spot {
    x: 1060.0,
    y: 520.0,
};
pub const CASHIER_COST: u32 = 25;
pub const APPLES_COST: u32 = 40;

/// The spot where customers stand to take from a shelf (above it).
fn shelf_pick(p: Product) -> Spot {
    let s = SHELF[p.idx()];
    Spot {
        x: s.x + 50.0,
        y: s.y - 55.0,
    }
}

fn queue_spot(i: usize) -> Spot {
    Spot {
        x: COUNTER.x + 90.0 + 50.0 * i as f64,
        y: COUNTER.y - 30.0,
    }
}

fn near(x: f64, y: f64, s: Spot, reach: f64) -> bool {
    (x - s.x).abs() <= reach && (y - s.y).abs() <= reach
}

/// Move (x, y) towards `s` by at most `step`; true when arrived.
fn walk(x: &mut f64, y: &mut f64, s: Spot, step: f64) -> bool {
    let (dx, dy) = (s.x - *x, s.y - *y);
    let d = libm::sqrt(dx * dx + dy * dy);
    if d <= step {
        *x = s.x;
        *y = s.y;
        true
    } else {
        *x += dx / d * step;
        *y += dy / d * step;
        false
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomerState {
    ToShelf,
    Picking,
    ToQueue,
    Queued,
    Paying,
    Leaving,
}

impl CustomerState {
    fn name(self) -> &'static str {
        match self {
            CustomerState::ToShelf => "to_shelf",
            CustomerState::Picking => "picking",
            CustomerState::ToQueue => "to_queue",
            CustomerState::Queued => "queued",
            CustomerState::Paying => "paying",
            CustomerState::Leaving => "leaving",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Customer {
    pub id: u32,
    pub want: Product,
    pub count: u32,
    pub got: u32,
    pub state: CustomerState,
    pub x: f64,
    pub y: f64,
    pub waited_ms: f64,
    timer_ms: f64,
    pub paid: bool,
    look: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssistantState {
    ToField,
    Harvesting,
    ToShelf,
    Stocking,
    Asleep,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Assistant {
    pub x: f64,
    pub y: f64,
    pub state: AssistantState,
    pub carrying: u32,
    timer_ms: f64,
    trips_left: u32,
}

pub struct MonkeyMart {
    seed: u64,
    episode: u32,
    rng: Rng,
    pub(crate) x: f64,
    pub(crate) y: f64,
    held: [bool; 4],
    carrying: Option<(Product, u32)>,
    ripe: [u32; 3],
    grow_ms: [f64; 3],
    shelf: [u32; 3],
    work_ms: f64,
    customers: Vec<Customer>,
    next_id: u32,
    spawn_ms: f64,
    assistant: Assistant,
    cashier: bool,
    apples: bool,
    cash_on_counter: u32,
    money: u32,
    earned: u32,
    served: u32,
    lost: u32,
    items_sold: u32,
    harvested: u32,
    stocked: u32,
    wakeups: u32,
    spent: u32,
    clock: FixedStep,
    game_time_ms: u64,
    /// The static layer of the last frame (see [`draw_static`]).
    layer: RefCell<Option<Layer>>,
}

impl Default for MonkeyMart {
    fn default() -> Self {
        Self::new()
    }
}

impl MonkeyMart {
    pub fn new() -> Self {
        let mut g = MonkeyMart {
            seed: 0,
            episode: 0,
            rng: Rng::new(0, 0),
            x: 0.0,
            y: 0.0,
            held: [false; 4],
            carrying: None,
            ripe: [0; 3],
            grow_ms: [0.0; 3],
            shelf: [0; 3],
            work_ms: 0.0,
            customers: Vec::new(),
            next_id: 0,
            spawn_ms: 0.0,
            assistant: Assistant {
                x: 0.0,
                y: 0.0,
                state: AssistantState::ToField,
                carrying: 0,
                timer_ms: 0.0,
                trips_left: 0,
            },
            cashier: false,
            apples: false,
            cash_on_counter: 0,
            money: 0,
            earned: 0,
            served: 0,
            lost: 0,
            items_sold: 0,
            harvested: 0,
            stocked: 0,
            wakeups: 0,
            spent: 0,
            clock: FixedStep::new(TICK_MS),
            game_time_ms: 0,
            layer: RefCell::new(None),
        };
        g.build();
        g
    }

    fn build(&mut self) {
        self.rng = Rng::new(self.seed, 0x2000_0000 + self.episode as u64);
        self.x = 560.0;
        self.y = 230.0;
        self.held = [false; 4];
        self.carrying = None;
        self.ripe = [3, 3, 0];
        self.grow_ms = [0.0; 3];
        self.shelf = [2, 2, 0];
        self.work_ms = 0.0;
        self.customers.clear();
        self.next_id = 0;
        self.spawn_ms = 1000.0;
        let trips = self.rng.range_i32(1, 3) as u32;
        self.assistant = Assistant {
            x: CROP[1].x + 80.0,
            y: CROP[1].y - 60.0,
            state: AssistantState::ToField,
            carrying: 0,
            timer_ms: 0.0,
            trips_left: trips,
        };
        self.cashier = false;
        self.apples = false;
        self.cash_on_counter = 0;
        self.money = 0;
        self.earned = 0;
        self.served = 0;
        self.lost = 0;
        self.items_sold = 0;
        self.harvested = 0;
        self.stocked = 0;
        self.wakeups = 0;
        self.spent = 0;
        self.clock.clear();
    }

    // ---- accessors -------------------------------------------------------

    pub fn position(&self) -> (f64, f64) {
        (self.x, self.y)
    }
    pub fn carrying(&self) -> Option<(Product, u32)> {
        self.carrying
    }
    pub fn ripe(&self, p: Product) -> u32 {
        self.ripe[p.idx()]
    }
    pub fn shelf(&self, p: Product) -> u32 {
        self.shelf[p.idx()]
    }
    pub fn customers(&self) -> &[Customer] {
        &self.customers
    }
    pub fn assistant(&self) -> &Assistant {
        &self.assistant
    }
    pub fn money(&self) -> u32 {
        self.money
    }
    pub fn earned(&self) -> u32 {
        self.earned
    }
    pub fn cash_on_counter(&self) -> u32 {
        self.cash_on_counter
    }
    pub fn has_cashier(&self) -> bool {
        self.cashier
    }
    pub fn has_apples(&self) -> bool {
        self.apples
    }
    /// Products on sale now.
    pub fn products(&self) -> &'static [Product] {
        if self.apples {
            &PRODUCTS
        } else {
            &PRODUCTS[..2]
        }
    }

    pub fn serving(&self) -> bool {
        near(self.x, self.y, SERVE, REACH)
    }

    // ---- simulation ------------------------------------------------------

    fn spawn_customer(&mut self) {
        let products = self.products();
        let want = products[self.rng.index(products.len())];
        let count = self.rng.range_i32(1, 3) as u32;
        let look = self.rng.below(4);
        self.customers.push(Customer {
            id: self.next_id,
            want,
            count,
            got: 0,
            state: CustomerState::ToShelf,
            x: DOOR.0,
            y: DOOR.1,
            waited_ms: 0.0,
            timer_ms: 0.0,
            paid: false,
            look,
        });
        self.next_id += 1;
    }

    fn monkey_work(&mut self) {
        let (x, y) = (self.x, self.y);
        // Pocket the cash on the counter.
        if self.serving() && self.cash_on_counter > 0 {
            self.money += self.cash_on_counter;
            self.earned += self.cash_on_counter;
            self.cash_on_counter = 0;
        }
        // Wake the assistant.
        if self.assistant.state == AssistantState::Asleep {
            let (dx, dy) = (self.assistant.x - x, self.assistant.y - y);
            if dx * dx + dy * dy <= WAKE_REACH * WAKE_REACH {
                self.assistant.state = if self.assistant.carrying > 0 {
                    AssistantState::ToShelf
                } else {
                    AssistantState::ToField
                };
                self.assistant.trips_left = self.rng.range_i32(2, 4) as u32;
                self.wakeups += 1;
            }
        }
        // Unlock pads.
        if !self.cashier && self.money >= CASHIER_COST && near(x, y, PAD_CASHIER, 40.0) {
            self.cashier = true;
            self.money -= CASHIER_COST;
            self.spent += CASHIER_COST;
        }
        if !self.apples && self.money >= APPLES_COST && near(x, y, PAD_APPLES, 40.0) {
            self.apples = true;
            self.money -= APPLES_COST;
            self.spent += APPLES_COST;
            self.ripe[Product::Apple.idx()] = 2;
        }
        // Harvest or stock, one item per work interval.
        let mut task = None;
        for &p in self.products() {
            let carried = self.carrying.map_or(0, |(_, n)| n);
            let same = self.carrying.is_none_or(|(k, _)| k == p);
            if near(x, y, CROP[p.idx()], REACH)
                && same
                && carried < CARRY_MAX
                && self.ripe[p.idx()] > 0
            {
                task = Some((p, true));
            } else if near(x, y, SHELF[p.idx()], REACH)
                && self.carrying.is_some_and(|(k, n)| k == p && n > 0)
                && self.shelf[p.idx()] < SHELF_MAX
            {
                task = Some((p, false));
            }
        }
        let Some((p, harvest)) = task else {
            self.work_ms = 0.0;
            return;
        };
        self.work_ms += TICK_MS as f64;
        let need = if harvest { HARVEST_MS } else { STOCK_MS };
        if self.work_ms < need {
            return;
        }
        self.work_ms = 0.0;
        if harvest {
            self.ripe[p.idx()] -= 1;
            let n = self.carrying.map_or(0, |(_, n)| n);
            self.carrying = Some((p, n + 1));
            self.harvested += 1;
        } else {
            self.shelf[p.idx()] += 1;
            self.stocked += 1;
            let n = self.carrying.map_or(0, |(_, n)| n) - 1;
            self.carrying = if n == 0 { None } else { Some((p, n)) };
        }
    }

    fn assistant_tick(&mut self) {
        let corn = Product::Corn.idx();
        let step = ASSISTANT_SPEED * DT;
        let a = &mut self.assistant;
        let field = Spot {
            x: CROP[corn].x + 40.0,
            y: CROP[corn].y - 30.0,
        };
        let shelf = Spot {
            x: SHELF[corn].x + 40.0,
            y: SHELF[corn].y + 45.0,
        };
        match a.state {
            AssistantState::Asleep => {}
            AssistantState::ToField => {
                if walk(&mut a.x, &mut a.y, field, step) {
                    a.state = AssistantState::Harvesting;
                    a.timer_ms = 0.0;
                }
            }
            AssistantState::Harvesting => {
                a.timer_ms += TICK_MS as f64;
                if a.timer_ms >= HARVEST_MS * 1.5 {
                    a.timer_ms = 0.0;
                    if self.ripe[corn] > 0 && a.carrying < CARRY_MAX {
                        self.ripe[corn] -= 1;
                        a.carrying += 1;
                    }
                    if a.carrying >= CARRY_MAX {
                        a.state = AssistantState::ToShelf;
                    }
                }
            }
            AssistantState::ToShelf => {
                if walk(&mut a.x, &mut a.y, shelf, step) {
                    a.state = AssistantState::Stocking;
                    a.timer_ms = 0.0;
                }
            }
            AssistantState::Stocking => {
                a.timer_ms += TICK_MS as f64;
                if a.timer_ms >= STOCK_MS * 1.5 {
                    a.timer_ms = 0.0;
                    if a.carrying > 0 && self.shelf[corn] < SHELF_MAX {
                        a.carrying -= 1;
                        self.shelf[corn] += 1;
                    }
                    if a.carrying == 0 || self.shelf[corn] >= SHELF_MAX {
                        a.trips_left = a.trips_left.saturating_sub(1);
                        a.state = if a.trips_left == 0 {
                            AssistantState::Asleep
                        } else if a.carrying > 0 {
                            AssistantState::Stocking
                        } else {
                            AssistantState::ToField
                        };
                    }
                }
            }
        }
    }

    fn customers_tick(&mut self) {
        let step = CUSTOMER_SPEED * DT;
        let server = self.serving() || self.cashier;
        // Queue order: by arrival (id) among those queued or walking there.
        let mut queue: Vec<u32> = self
            .customers
            .iter()
            .filter(|c| {
                matches!(
                    c.state,
                    CustomerState::ToQueue | CustomerState::Queued | CustomerState::Paying
                )
            })
            .map(|c| c.id)
            .collect();
        queue.sort();
        for i in 0..self.customers.len() {
            let c = &mut self.customers[i];
            match c.state {
                CustomerState::ToShelf => {
                    if walk(&mut c.x, &mut c.y, shelf_pick(c.want), step) {
                        c.state = CustomerState::Picking;
                        c.timer_ms = 0.0;
                    }
                }
                CustomerState::Picking => {
                    c.waited_ms += TICK_MS as f64;
                    let stock = &mut self.shelf[c.want.idx()];
                    if *stock > 0 {
                        c.timer_ms += TICK_MS as f64;
                        if c.timer_ms >= TAKE_MS {
                            c.timer_ms = 0.0;
                            *stock -= 1;
                            c.got += 1;
                            if c.got >= c.count {
                                c.state = CustomerState::ToQueue;
                                queue.push(c.id);
                            }
                        }
                    } else if c.waited_ms >= PATIENCE_MS {
                        c.state = CustomerState::Leaving;
                        self.lost += 1;
                    }
                }
                CustomerState::ToQueue | CustomerState::Queued => {
                    let pos = queue.iter().position(|&id| id == c.id).unwrap_or(0);
                    let arrived = walk(&mut c.x, &mut c.y, queue_spot(pos), step);
                    if arrived {
                        c.state = CustomerState::Queued;
                        if pos == 0 && server {
                            c.state = CustomerState::Paying;
                            c.timer_ms = 0.0;
                        }
                    }
                }
                CustomerState::Paying => {
                    if server {
                        c.timer_ms += TICK_MS as f64;
                        if c.timer_ms >= PAY_MS {
                            c.paid = true;
                            c.state = CustomerState::Leaving;
                            self.cash_on_counter += c.got * c.want.price();
                            self.items_sold += c.got;
                            self.served += 1;
                        }
                    }
                }
                CustomerState::Leaving => {
                    walk(
                        &mut c.x,
                        &mut c.y,
                        Spot {
                            x: DOOR.0,
                            y: DOOR.1,
                        },
                        step,
                    );
                }
            }
        }
        self.customers
            .retain(|c| !(c.state == CustomerState::Leaving && c.x == DOOR.0 && c.y == DOOR.1));
    }

    fn tick(&mut self) {
        let dx = (self.held[3] as i32 - self.held[2] as i32) as f64;
        let dy = (self.held[1] as i32 - self.held[0] as i32) as f64;
        let norm = if dx != 0.0 && dy != 0.0 {
            core::f64::consts::FRAC_1_SQRT_2
        } else {
            1.0
        };
        self.x = (self.x + dx * norm * SPEED * DT).clamp(AREA.0 + 20.0, AREA.2 - 20.0);
        self.y = (self.y + dy * norm * SPEED * DT).clamp(AREA.1 + 20.0, AREA.3 - 20.0);
        // Crops ripen.
        for &p in self.products() {
            let i = p.idx();
            if self.ripe[i] < TREE_MAX {
                self.grow_ms[i] += TICK_MS as f64;
                if self.grow_ms[i] >= TREE_REGROW_MS {
                    self.grow_ms[i] = 0.0;
                    self.ripe[i] += 1;
                }
            } else {
                self.grow_ms[i] = 0.0;
            }
        }
        self.monkey_work();
        self.assistant_tick();
        self.customers_tick();
        self.spawn_ms -= TICK_MS as f64;
        if self.spawn_ms <= 0.0 {
            if self.customers.len() < MAX_CUSTOMERS {
                self.spawn_customer();
            }
            self.spawn_ms = self.rng.range_f64(1400.0, 2400.0);
        }
    }
}

// ---- rendering -----------------------------------------------------------

fn floor_layer() -> &'static Pixmap {
    static LAYER: OnceLock<Pixmap> = OnceLock::new();
    LAYER.get_or_init(|| {
        let mut pm = Pixmap::new(1280, 664).expect("layer");
        draw::clear(&mut pm, rgb(92, 70, 52));
        let (x0, y0) = (AREA.0 as f32, AREA.1 as f32 - 56.0);
        let (w, h) = ((AREA.2 - AREA.0) as f32, (AREA.3 - AREA.1) as f32);
        draw::rect(&mut pm, x0, y0, w, h, rgb(222, 206, 170));
        let mut y = y0;
        let mut row = 0;
        while y < y0 + h {
            let mut x = x0;
            let mut col = 0;
            while x < x0 + w {
                if (row + col) % 2 == 0 {
                    draw::rect(&mut pm, x, y, 40.0, 40.0, rgb(212, 196, 160));
                }
                x += 40.0;
                col += 1;
            }
            y += 40.0;
            row += 1;
        }
        // Door.
        draw::rect(
            &mut pm,
            DOOR.0 as f32 - 50.0,
            0.0,
            100.0,
            y0 + 6.0,
            rgb(120, 180, 220),
        );
        // Soil under the crops.
        for (i, s) in CROP.iter().enumerate() {
            let c = if i == 1 {
                rgb(130, 96, 60)
            } else {
                rgb(120, 170, 90)
            };
            draw::rounded_rect(
                &mut pm,
                s.x as f32 - 90.0,
                s.y as f32 - 56.0 - 60.0,
                180.0,
                120.0,
                16.0,
                c,
            );
        }
        pm
    })
}

fn draw_item(pm: &mut Pixmap, p: Product, x: f32, y: f32, s: f32) {
    match p {
        Product::Banana => {
            draw::line(
                pm,
                x - s,
                y - s * 0.3,
                x + s,
                y - s * 0.3,
                s * 0.7,
                p.color(),
            );
            draw::circle(pm, x + s, y - s * 0.3, s * 0.25, rgb(110, 80, 30));
        }
        Product::Corn => {
            draw::rounded_rect(
                pm,
                x - s * 0.45,
                y - s,
                s * 0.9,
                s * 2.0,
                s * 0.4,
                p.color(),
            );
            draw::polygon(
                pm,
                &[(x - s * 0.6, y + s), (x, y - s * 0.2), (x + s * 0.6, y + s)],
                rgb(90, 160, 60),
            );
        }
        Product::Apple => {
            draw::circle(pm, x, y, s * 0.8, p.color());
            draw::line(
                pm,
                x,
                y - s * 0.8,
                x + s * 0.2,
                y - s * 1.2,
                2.0,
                rgb(90, 60, 30),
            );
        }
    }
}

fn label(pm: &mut Pixmap, s: &str, x: f32, y: f32) {
    let w = draw::text_width(s, 18.0) + 14.0;
    draw::rounded_rect(pm, x - w / 2.0, y, w, 26.0, 8.0, rgba(30, 30, 30, 200));
    draw::text(pm, s, x, y + 3.0, 18.0, rgb(255, 255, 255), Align::Center);
}

/// The corn stalk `k` (0..6, two rows of three) of the field at `(cx, cy)`.
fn corn_stalk(cx: f32, cy: f32, k: usize) -> (f32, f32) {
    (
        cx - 60.0 + (k % 3) as f32 * 60.0,
        cy - 30.0 + (k / 3) as f32 * 55.0,
    )
}

/// The station labels for `key`: text, centre x and top y. They are drawn
/// over everything else in the frame (people and stock included), so no
/// one walking past hides them.
fn labels(key: LayerKey) -> Vec<(String, f32, f32)> {
    let mut out = Vec::new();
    if !key.apples {
        let c = CROP[Product::Apple.idx()];
        out.push(("apple tree (locked)".into(), c.x as f32, c.y as f32 - 10.0));
    }
    for &p in &PRODUCTS {
        if p == Product::Apple && !key.apples {
            continue;
        }
        let s = SHELF[p.idx()];
        out.push((format!("{} shelf", p.name()), s.x as f32, s.y as f32 + 26.0));
    }
    out.push(("counter".into(), COUNTER.x as f32, COUNTER.y as f32 + 64.0));
    out
}

/// Height of the HUD strip across the top of the frame.
const HUD_H: u32 = 56;

/// What the static layer shows besides the fixed furniture: the stations
/// bought and the pads that are shown in green (affordable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LayerKey {
    cashier: bool,
    apples: bool,
    cashier_pad: bool,
    apples_pad: bool,
}

/// The cached static layer of a frame and its HUD strip.
struct Layer {
    key: LayerKey,
    frame: Pixmap,
    /// Rows `0..HUD_H` of `frame` (bar and title), copied back over people
    /// that walk up into the strip.
    hud: Pixmap,
    /// `patches[slot][n]`: the slot's region of `frame` with `n` items
    /// drawn on it, made when first needed.
    patches: [Vec<Option<Pixmap>>; SLOTS],
}

impl Layer {
    fn new(key: LayerKey, width: u32, height: u32) -> Self {
        let mut frame = Pixmap::new(width, height).expect("layer pixmap");
        draw_static(&mut frame, key);
        let strip = tiny_skia::IntRect::from_xywh(0, 0, width, HUD_H.min(height))
            .expect("strip inside the frame");
        let hud = frame.clone_rect(strip).expect("strip inside the frame");
        Layer {
            key,
            frame,
            hud,
            patches: Default::default(),
        }
    }

    /// Copy `slot`'s region with `n` items onto `pm` (a frame that starts
    /// from this layer).
    fn put_slot(&mut self, pm: &mut Pixmap, slot: usize, n: u32) {
        let n = n as usize;
        let patches = &mut self.patches[slot];
        if patches.len() <= n {
            patches.resize(n + 1, None);
        }
        let r = slot_region(slot);
        let patch = patches[n].get_or_insert_with(|| {
            let mut scratch = self.frame.clone();
            draw_slot(&mut scratch, slot, n as u32);
            scratch.clone_rect(r).expect("region inside the frame")
        });
        draw::copy_layer(pm, patch, 0, patch.width(), r.x() as u32, r.y() as u32);
    }
}

/// Produce and stock lie in fixed places: slot `i < 3` is the crop of
/// `PRODUCTS[i]` (its ripe items), slot `3 + i` its shelf (the stock).
const SLOTS: usize = 6;

fn slot_product(slot: usize) -> Product {
    PRODUCTS[slot % 3]
}

/// The rectangle around everything `slot`'s items can cover (their
/// anti-aliased edges included). The regions are disjoint and miss the
/// cash on the counter, so each is drawn over the bare layer.
fn slot_region(slot: usize) -> tiny_skia::IntRect {
    let p = slot_product(slot);
    let (x, y, w, h) = if slot >= 3 {
        let s = SHELF[p.idx()];
        (s.x - 90.0, s.y - 24.0, 180, 48)
    } else if p == Product::Corn {
        let c = CROP[p.idx()];
        (c.x - 66.0, c.y - 52.0, 150, 92)
    } else {
        let c = CROP[p.idx()];
        (c.x - 64.0, c.y - 90.0, 128, 116)
    };
    tiny_skia::IntRect::from_xywh(x as i32, y as i32, w, h).expect("a region")
}

/// The most items `slot` shows.
fn slot_capacity(slot: usize) -> u32 {
    if slot >= 3 { SHELF_MAX } else { TREE_MAX }
}

/// Draw `n` items of `slot` in their places.
fn draw_slot(pm: &mut Pixmap, slot: usize, n: u32) {
    let p = slot_product(slot);
    if slot >= 3 {
        let s = SHELF[p.idx()];
        let (sx, sy) = (s.x as f32, s.y as f32);
        for k in 0..n {
            draw_item(pm, p, sx - 62.0 + k as f32 * 18.0, sy, 10.0);
        }
        return;
    }
    let c = CROP[p.idx()];
    let (cx, cy) = (c.x as f32, c.y as f32);
    for k in 0..n.min(6) {
        if p == Product::Corn {
            let (x, y) = corn_stalk(cx, cy, k as usize);
            draw_item(pm, p, x + 8.0, y - 4.0, 12.0);
        } else {
            let a = k as f32 * 1.25;
            draw_item(
                pm,
                p,
                cx + 34.0 * libm::cosf(a),
                cy - 30.0 + 30.0 * libm::sinf(a),
                13.0,
            );
        }
    }
}

/// Everything in a frame that stays put while `key` holds: the floor, the
/// trees and corn stalks, the shelves, the counter, the serving ring, the
/// cashier once hired, the unlock pads and the HUD bar with the title (the
/// station labels go on top of each frame: [`labels`]). Drawn in the order of a whole frame; what [`MonkeyMart::render`]
/// adds on top (produce, stock, cash, people, HUD values) never lies under a
/// later part of this layer, so the frame is the same as drawing everything
/// in one pass.
fn draw_static(pm: &mut Pixmap, key: LayerKey) {
    let floor = floor_layer();
    draw::copy_layer(pm, floor, 0, floor.width(), 0, HUD_H);
    for &p in &PRODUCTS {
        let (c, s) = (CROP[p.idx()], SHELF[p.idx()]);
        let (cx, cy) = (c.x as f32, c.y as f32);
        if p == Product::Apple && !key.apples {
            continue;
        }
        if p == Product::Corn {
            for k in 0..6 {
                let (x, y) = corn_stalk(cx, cy, k);
                draw::line(pm, x, y + 20.0, x, y - 18.0, 5.0, rgb(80, 150, 60));
            }
        } else {
            draw::rect(pm, cx - 10.0, cy - 10.0, 20.0, 60.0, rgb(110, 76, 40));
            let leaf = if p == Product::Banana {
                rgb(60, 150, 60)
            } else {
                rgb(50, 130, 70)
            };
            draw::circle(pm, cx, cy - 30.0, 58.0, leaf);
        }
        let (sx, sy) = (s.x as f32, s.y as f32);
        draw::rounded_rect(
            pm,
            sx - 80.0,
            sy - 22.0,
            160.0,
            44.0,
            6.0,
            rgb(150, 104, 62),
        );
        draw::rect(pm, sx - 74.0, sy - 16.0, 148.0, 32.0, rgb(190, 140, 90));
    }
    let (kx, ky) = (COUNTER.x as f32, COUNTER.y as f32);
    draw::rounded_rect(pm, kx - 40.0, ky - 60.0, 80.0, 120.0, 8.0, rgb(90, 90, 110));
    draw::rect(pm, kx - 30.0, ky - 50.0, 60.0, 40.0, rgb(40, 40, 50));
    let (sx, sy) = (SERVE.x as f32, SERVE.y as f32);
    draw::ring(pm, sx, sy, 30.0, 3.0, rgba(60, 60, 160, 160));
    if key.cashier {
        draw::circle(pm, kx + 2.0, ky - 80.0, 18.0, rgb(150, 110, 70));
        draw::rect(pm, kx - 14.0, ky - 102.0, 30.0, 8.0, rgb(60, 110, 200));
    }
    // Unlock pads.
    for (pad, cost, done, green, name) in [
        (
            PAD_CASHIER,
            CASHIER_COST,
            key.cashier,
            key.cashier_pad,
            "cashier",
        ),
        (
            PAD_APPLES,
            APPLES_COST,
            key.apples,
            key.apples_pad,
            "apples",
        ),
    ] {
        if done {
            continue;
        }
        let (px, py) = (pad.x as f32, pad.y as f32);
        let c = if green {
            rgb(80, 190, 90)
        } else {
            rgb(150, 150, 150)
        };
        draw::rounded_rect(pm, px - 40.0, py - 30.0, 80.0, 60.0, 10.0, c);
        draw::text(
            pm,
            &format!("${cost}"),
            px,
            py - 26.0,
            22.0,
            rgb(255, 255, 255),
            Align::Center,
        );
        draw::text(
            pm,
            name,
            px,
            py + 2.0,
            16.0,
            rgb(255, 255, 255),
            Align::Center,
        );
    }
    draw::hud_bar(pm, "Monkey Mart");
}

/// `n` as text without allocating for the small counts bubbles show.
fn count_text(n: u32, buf: &mut String) -> &str {
    const DIGITS: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    match DIGITS.get(n as usize) {
        Some(d) => d,
        None => {
            *buf = n.to_string();
            buf
        }
    }
}

impl MonkeyMart {
    fn layer_key(&self) -> LayerKey {
        LayerKey {
            cashier: self.cashier,
            apples: self.apples,
            cashier_pad: !self.cashier && self.money >= CASHIER_COST,
            apples_pad: !self.apples && self.money >= APPLES_COST,
        }
    }

    /// How many items `slot` shows now.
    fn slot_count(&self, slot: usize) -> u32 {
        let p = slot_product(slot);
        if slot >= 3 {
            self.shelf[p.idx()]
        } else {
            self.ripe[p.idx()].min(TREE_MAX)
        }
    }

    /// What the stations hold: ripe produce and shelf stock (each slot's
    /// region from the layer's patches), cash on the counter.
    fn draw_stock(&self, pm: &mut Pixmap, layer: &mut Layer) {
        for slot in 0..SLOTS {
            if slot_product(slot) == Product::Apple && !self.apples {
                continue;
            }
            match self.slot_count(slot) {
                0 => {}
                n if n <= slot_capacity(slot) => layer.put_slot(pm, slot, n),
                // More than the game ever puts there (a test's setup).
                n => draw_slot(pm, slot, n),
            }
        }
        let (kx, ky) = (COUNTER.x as f32, COUNTER.y as f32);
        for k in 0..self.cash_on_counter.div_ceil(5).min(8) {
            draw::rect(
                pm,
                kx - 24.0 + (k % 4) as f32 * 12.0,
                ky + 10.0 + (k / 4) as f32 * 16.0,
                10.0,
                14.0,
                rgb(70, 170, 70),
            );
        }
    }

    fn draw_people(&self, pm: &mut Pixmap) {
        // Assistant.
        let a = &self.assistant;
        let (ax, ay) = (a.x as f32, a.y as f32);
        draw::circle(pm, ax, ay, 22.0, rgb(150, 108, 66));
        draw::circle(pm, ax, ay + 4.0, 12.0, rgb(226, 190, 150));
        draw::rect(pm, ax - 20.0, ay - 24.0, 40.0, 10.0, rgb(240, 130, 30));
        for k in 0..a.carrying {
            draw_item(
                pm,
                Product::Corn,
                ax - 12.0 + k as f32 * 8.0,
                ay - 40.0,
                8.0,
            );
        }
        if a.state == AssistantState::Asleep {
            draw::text(
                pm,
                "Zzz",
                ax + 18.0,
                ay - 50.0,
                22.0,
                rgb(40, 40, 120),
                Align::Left,
            );
        }
        // Customers.
        let coats = [
            rgb(70, 120, 200),
            rgb(200, 90, 140),
            rgb(90, 170, 120),
            rgb(170, 120, 200),
        ];
        let mut buf = String::new();
        for c in &self.customers {
            let (x, y) = (c.x as f32, c.y as f32);
            draw::circle(pm, x, y, 20.0, coats[c.look as usize % 4]);
            draw::circle(pm, x, y - 2.0, 11.0, rgb(240, 200, 160));
            if c.got >= c.count && c.state != CustomerState::Leaving {
                draw::rounded_rect(pm, x - 18.0, y - 62.0, 36.0, 34.0, 10.0, rgb(255, 255, 255));
                draw::text(pm, "$", x, y - 58.0, 22.0, rgb(40, 150, 40), Align::Center);
            } else if c.state != CustomerState::Leaving {
                draw::rounded_rect(pm, x - 30.0, y - 62.0, 60.0, 34.0, 10.0, rgb(255, 255, 255));
                draw_item(pm, c.want, x - 12.0, y - 45.0, 9.0);
                draw::text(
                    pm,
                    count_text(c.count - c.got, &mut buf),
                    x + 14.0,
                    y - 58.0,
                    20.0,
                    rgb(30, 30, 30),
                    Align::Center,
                );
            }
        }
        // The monkey with what it carries.
        let (x, y) = (self.x as f32, self.y as f32);
        draw::circle(pm, x - 20.0, y - 16.0, 9.0, rgb(110, 70, 40));
        draw::circle(pm, x + 20.0, y - 16.0, 9.0, rgb(110, 70, 40));
        draw::circle(pm, x, y, 24.0, rgb(120, 78, 44));
        draw::circle(pm, x, y + 5.0, 14.0, rgb(230, 196, 150));
        draw::circle(pm, x - 6.0, y - 2.0, 3.0, rgb(20, 20, 20));
        draw::circle(pm, x + 6.0, y - 2.0, 3.0, rgb(20, 20, 20));
        if let Some((p, n)) = self.carrying {
            for k in 0..n {
                draw_item(pm, p, x, y - 36.0 - k as f32 * 14.0, 9.0);
            }
        }
    }
}

impl Game for MonkeyMart {
    fn game_id(&self) -> &'static str {
        ID
    }

    fn init(&mut self, config: &GameConfig) {
        self.seed = config.seed;
        self.game_time_ms = 0;
        self.reset(0);
    }

    fn reset(&mut self, episode: u32) {
        self.episode = episode;
        self.build();
    }

    fn state(&self) -> GameApiState {
        let mut s = GameApiState::new(
            ID,
            self.seed,
            self.game_time_ms,
            Terminal::running().status(),
            Terminal::running(),
        );
        let r1 = |v: f64| (v * 10.0).round() / 10.0;
        set(&mut s.game_state, "score", self.earned);
        set(&mut s.game_state, "level", 1);
        set(&mut s.game_state, "money", self.money);
        set(&mut s.game_state, "money_total_earned", self.earned);
        set(&mut s.game_state, "money_scan_status", "exact");
        set(&mut s.game_state, "cash_on_counter", self.cash_on_counter);
        set(
            &mut s.game_state,
            "player",
            json!({
                "x": r1(self.x), "y": r1(self.y),
                "carrying": self.carrying.map(|(p, n)| json!({"item": p.name(), "count": n})),
                "serving": self.serving(),
            }),
        );
        let stations: Vec<Value> = PRODUCTS
            .iter()
            .map(|&p| {
                json!({
                    "item": p.name(), "price": p.price(),
                    "unlocked": p != Product::Apple || self.apples,
                    "ripe": self.ripe[p.idx()], "shelf": self.shelf[p.idx()],
                    "crop": [CROP[p.idx()].x, CROP[p.idx()].y],
                    "shelf_pos": [SHELF[p.idx()].x, SHELF[p.idx()].y],
                })
            })
            .collect();
        set(&mut s.game_state, "stations", json!(stations));
        let customers: Vec<Value> = self
            .customers
            .iter()
            .map(|c| {
                json!({
                    "id": c.id, "want": c.want.name(), "count": c.count, "got": c.got,
                    "state": c.state.name(), "x": r1(c.x), "y": r1(c.y),
                    "waited_ms": c.waited_ms.round(),
                })
            })
            .collect();
        set(
            &mut s.game_state,
            "entities",
            json!({"customers": customers}),
        );
        let a = &self.assistant;
        set(
            &mut s.game_state,
            "assistant",
            json!({
                "x": r1(a.x), "y": r1(a.y), "carrying": a.carrying,
                "asleep": a.state == AssistantState::Asleep,
            }),
        );
        set(
            &mut s.game_state,
            "unlocks",
            json!([
                {"id": "cashier", "cost": CASHIER_COST, "unlocked": self.cashier},
                {"id": "apples", "cost": APPLES_COST, "unlocked": self.apples},
            ]),
        );
        set(&mut s.metrics, "primary_score", self.earned);
        set(&mut s.metrics, "customers_served", self.served);
        set(&mut s.metrics, "customers_lost", self.lost);
        set(&mut s.metrics, "items_sold", self.items_sold);
        set(&mut s.metrics, "items_harvested", self.harvested);
        set(&mut s.metrics, "items_stocked", self.stocked);
        set(&mut s.metrics, "assistant_wakeups", self.wakeups);
        set(&mut s.metrics, "money_spent", self.spent);
        set(&mut s.raw, "episode", self.episode);
        set(&mut s.raw, "next_customer_ms", self.spawn_ms.round());
        s
    }

    fn handle_event(&mut self, event: &InputEvent) {
        let Some((key, down)) = event.key_change() else {
            return;
        };
        let i = match key {
            "ArrowUp" => 0,
            "ArrowDown" => 1,
            "ArrowLeft" => 2,
            "ArrowRight" => 3,
            _ => return,
        };
        self.held[i] = down;
    }

    fn advance(&mut self, dt_ms: u64) {
        self.game_time_ms += dt_ms;
        for _ in 0..self.clock.ticks(dt_ms) {
            self.tick();
        }
    }

    fn render(&self, pm: &mut Pixmap) {
        let key = self.layer_key();
        let mut cache = self.layer.borrow_mut();
        let fresh = matches!(&*cache, Some(l) if l.key == key
            && (l.frame.width(), l.frame.height()) == (pm.width(), pm.height()));
        if !fresh {
            *cache = Some(Layer::new(key, pm.width(), pm.height()));
        }
        let layer = cache.as_mut().expect("built above");
        draw::copy_frame(pm, &layer.frame);
        self.draw_stock(pm, layer);
        self.draw_people(pm);
        for (text, x, y) in labels(key) {
            label(pm, &text, x, y);
        }
        draw::copy_layer(pm, &layer.hud, 0, layer.hud.width(), 0, 0);
        let carrying = match self.carrying {
            Some((p, n)) => format!("{n} {}", p.name()),
            None => "nothing".into(),
        };
        // Earned is the score (all money ever taken); cash is what is on
        // hand to spend on unlocks.
        draw::hud_items(
            pm,
            &[
                ("Carrying", carrying),
                ("Cash", format!("${}", self.money)),
                ("Earned", format!("${}", self.earned)),
            ],
        );
    }

    fn expert_action(&self, _task: &TaskInfo) -> Value {
        json!({"action": expert::choose(self)})
    }
}
