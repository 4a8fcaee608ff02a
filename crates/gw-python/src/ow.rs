//! The open world for learners: the MineRL-style factored action and the
//! VPT discretisation as numbers (checked field by field), and what the
//! world shows besides its pixels (inventory vector, equipped item, life
//! stats, location, and depth and segmentation from the pick buffer).
//!
//! Actions still go through the runtime's own path: a number row becomes
//! the role's `act` payload ([`gw_openworld::game::factored_payload`]) and
//! the stepper reads it as the CLI's agents' payloads are read.

use gw_core::registry::Preset;
use gw_openworld::game::{OpenWorld, factored_payload};
use gw_world::action::{BUTTON_CLASSES, CAMERA_CLASSES, VptAction};
use gw_world::render::{FOV_DEG, Pick, VIEW_DISTANCE};
use gw_world::{Action, World, data};
use serde_json::Value;

/// The `Discrete(2)` buttons of the `Dict` action, in row order.
pub const FLAGS: &[&str] = gw_openworld::game::BUTTONS;
/// A `Dict` action as numbers: the 11 buttons, `hotbar`, camera pitch,
/// camera yaw, `craft`, `smelt`.
pub const ROW_LEN: usize = 16;
/// The largest camera turn of one step, degrees.
pub const CAMERA_MAX: f64 = 180.0;
/// Segmentation classes before the blocks: `4 + block id` is a block.
pub const SEG_FIXED: [&str; 4] = ["sky", "hud", "item", "mob"];

/// The names behind the open world's index spaces.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    /// Every item, in the world data's order (the inventory vector).
    pub items: Vec<String>,
    /// What `craft` index i + 1 makes (the role's `craft` choices).
    pub craft: Vec<String>,
    /// What `smelt` index i + 1 makes.
    pub smelt: Vec<String>,
    /// Segmentation class names: [`SEG_FIXED`], then `block:<name>` per block.
    pub classes: Vec<String>,
}

/// The `act` control's choices for parameter `name`, without `none`.
fn choices(preset: &Preset, name: &str) -> Vec<String> {
    preset
        .role
        .semantic_controls
        .iter()
        .filter(|c| c.id == "act")
        .flat_map(|c| c.parameters.iter())
        .filter(|p| p.name == name)
        .flat_map(|p| p.choices.clone().unwrap_or_default())
        .filter(|c| c != "none")
        .collect()
}

pub fn tables(preset: &Preset) -> Tables {
    let d = data();
    let mut classes: Vec<String> = SEG_FIXED.iter().map(|s| s.to_string()).collect();
    classes.extend(d.blocks.iter().map(|b| format!("block:{}", b.name)));
    Tables {
        items: d.items.iter().map(|i| i.name.clone()).collect(),
        craft: choices(preset, "craft"),
        smelt: choices(preset, "smelt"),
        classes,
    }
}

/// A `Dict` action row as the `act` payload; an error names the field.
pub fn dict_payload(t: &Tables, row: &[f64; ROW_LEN]) -> Result<Value, String> {
    let mut a = Action::noop();
    let mut flags = [false; FLAGS.len()];
    for (i, name) in FLAGS.iter().enumerate() {
        flags[i] = match row[i] {
            0.0 => false,
            1.0 => true,
            v => return Err(format!("action field \"{name}\" must be 0 or 1, got {v}")),
        };
    }
    a.set_buttons(flags);
    let hotbar = row[11];
    if !(hotbar.is_finite() && hotbar.fract() == 0.0 && (0.0..=9.0).contains(&hotbar)) {
        return Err(format!(
            "action field \"hotbar\" must be a slot in Discrete(10) (0 keeps the slot, 1-9 select one), got {hotbar}"
        ));
    }
    a.hotbar = (hotbar > 0.0).then_some(hotbar as u8);
    for (k, name) in [(12, "pitch"), (13, "yaw")] {
        let v = row[k];
        if !(v.is_finite() && v.abs() <= CAMERA_MAX) {
            return Err(format!(
                "action field \"camera\" ({name}) must be degrees within ±{CAMERA_MAX}, got {v}"
            ));
        }
    }
    a.pitch = row[12] as f32;
    a.yaw = row[13] as f32;
    let pick = |k: usize, name: &str, list: &[String]| -> Result<Option<String>, String> {
        let v = row[k];
        if !(v.is_finite() && v.fract() == 0.0 && v >= 0.0 && v <= list.len() as f64) {
            return Err(format!(
                "action field \"{name}\" must be in Discrete({}) (0 = none, i = {name}_items[i - 1]), got {v}",
                list.len() + 1
            ));
        }
        Ok((v >= 1.0).then(|| list[v as usize - 1].clone()))
    };
    a.craft = pick(14, "craft", &t.craft)?;
    a.smelt = pick(15, "smelt", &t.smelt)?;
    Ok(factored_payload(&a))
}

/// A VPT `MultiDiscrete([8641, 121])` action as the `act` payload.
pub fn vpt_payload(buttons: i64, camera: i64) -> Result<Value, String> {
    if !(0..BUTTON_CLASSES as i64).contains(&buttons) {
        return Err(format!(
            "action field \"buttons\" (VPT) must be in 0..{BUTTON_CLASSES}, got {buttons}"
        ));
    }
    if !(0..CAMERA_CLASSES as i64).contains(&camera) {
        return Err(format!(
            "action field \"camera\" (VPT) must be in 0..{CAMERA_CLASSES}, got {camera}"
        ));
    }
    let a = gw_world::action::decode(VptAction {
        buttons: buttons as u32,
        camera: camera as u32,
    });
    Ok(factored_payload(&a))
}

/// The world under a game, if the game is the open world.
pub fn world_of(game: &dyn gw_core::Game) -> Option<&OpenWorld> {
    game.as_any()?.downcast_ref::<OpenWorld>()
}

/// What the `dict` observation holds besides `pov`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vitals {
    /// Count per item of [`Tables::items`].
    pub inventory: Vec<i32>,
    /// 0 = empty hand, i + 1 = `items[i]` in the selected hotbar slot.
    pub equipped: i64,
    /// Health and food (0..20).
    pub life: [f32; 2],
    /// x, y, z (feet), yaw, pitch (degrees).
    pub location: [f32; 5],
    /// Target items obtained this episode (the atomic score).
    pub obtained: u32,
}

pub fn vitals(ow: &OpenWorld, n_items: usize) -> Vitals {
    let pl = &ow.world.player;
    let mut inventory = vec![0i32; n_items];
    for (id, n) in pl.inventory.totals() {
        if let Some(c) = inventory.get_mut(id as usize) {
            *c += n as i32;
        }
    }
    let equipped = pl
        .inventory
        .slots
        .get(pl.selected)
        .copied()
        .flatten()
        .map_or(0, |s| s.item as i64 + 1);
    let p = pl.body.pos;
    Vitals {
        inventory,
        equipped,
        life: [pl.health, pl.food],
        location: [
            p[0] as f32,
            p[1] as f32,
            p[2] as f32,
            pl.yaw as f32,
            pl.pitch as f32,
        ],
        obtained: ow.obtained(),
    }
}

/// The unit ray through the centre of pixel (`x`, `y`) of a `w` × `h` view
/// (the renderer's camera: vertical field of view [`FOV_DEG`]).
fn pixel_ray(world: &World, x: usize, y: usize, w: usize, h: usize) -> [f64; 3] {
    let (yaw, pitch) = (
        world.player.yaw.to_radians(),
        world.player.pitch.to_radians(),
    );
    let (sy, cy, sp, cp) = (
        libm::sin(yaw),
        libm::cos(yaw),
        libm::sin(pitch),
        libm::cos(pitch),
    );
    let f = [-sy * cp, -sp, cy * cp];
    let r = [-cy, 0.0, -sy];
    let u = [
        r[1] * f[2] - r[2] * f[1],
        r[2] * f[0] - r[0] * f[2],
        r[0] * f[1] - r[1] * f[0],
    ];
    let tan_y = libm::tan((FOV_DEG / 2.0).to_radians());
    let tan_x = tan_y * w as f64 / h as f64;
    let sx = ((x as f64 + 0.5) / w as f64 * 2.0 - 1.0) * tan_x;
    let sy = (1.0 - (y as f64 + 0.5) / h as f64 * 2.0) * tan_y;
    let mut d = [0.0; 3];
    for k in 0..3 {
        d[k] = f[k] + r[k] * sx + u[k] * sy;
    }
    let n = libm::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    d.map(|v| v / n)
}

/// Distance from `eye` to where the pixel's ray enters the box, or to the
/// box's nearest point when the ray only grazes it (a pixel at its edge).
fn box_depth(eye: [f64; 3], d: [f64; 3], lo: [f64; 3], hi: [f64; 3]) -> f64 {
    if let Some((t, _)) = gw_world::ray::ray_aabb(eye, d, lo, hi) {
        return t.max(0.0);
    }
    let mut s = 0.0;
    for k in 0..3 {
        let c = eye[k].clamp(lo[k], hi[k]) - eye[k];
        s += c * c;
    }
    libm::sqrt(s)
}

/// Depth (blocks from the eye; sky = the view distance, HUD = 0) and class
/// ids ([`Tables::classes`]) of every pixel of a `w` × `h` view, from the
/// pick buffer the renderer's own rays fill.
pub fn depth_and_segmentation(
    world: &World,
    w: usize,
    h: usize,
    depth: Option<&mut [f32]>,
    seg: Option<&mut [i32]>,
) {
    let picks = gw_world::render::pick(world, w, h, false);
    if let Some(seg) = seg {
        for (s, p) in seg.iter_mut().zip(&picks) {
            *s = match p {
                Pick::Sky => 0,
                Pick::Hud => 1,
                Pick::Item(_) => 2,
                Pick::Mob(_) => 3,
                Pick::Block { id, .. } => SEG_FIXED.len() as i32 + *id as i32,
            };
        }
    }
    let Some(depth) = depth else { return };
    let eye = world.eye();
    for (i, (out, p)) in depth.iter_mut().zip(&picks).enumerate() {
        let ray = || pixel_ray(world, i % w, i / w, w, h);
        let body_box = |b: &gw_world::world::Body| {
            let (hw, bh) = (b.width / 2.0, b.height);
            (
                [b.pos[0] - hw, b.pos[1], b.pos[2] - hw],
                [b.pos[0] + hw, b.pos[1] + bh, b.pos[2] + hw],
            )
        };
        let d = match p {
            Pick::Sky => VIEW_DISTANCE,
            Pick::Hud => 0.0,
            Pick::Block { pos, .. } => {
                let lo = pos.map(|v| v as f64);
                box_depth(eye, ray(), lo, lo.map(|v| v + 1.0))
            }
            Pick::Mob(id) => match world.mobs.iter().find(|m| m.id == *id) {
                Some(m) => {
                    let (lo, hi) = body_box(&m.body);
                    box_depth(eye, ray(), lo, hi)
                }
                None => VIEW_DISTANCE,
            },
            Pick::Item(k) => match world.items.get(*k) {
                Some(it) => {
                    let (lo, hi) = body_box(&it.body);
                    box_depth(eye, ray(), lo, hi)
                }
                None => VIEW_DISTANCE,
            },
        };
        *out = d.min(VIEW_DISTANCE) as f32;
    }
}
