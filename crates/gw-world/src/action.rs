//! The agent's action: Optimus-2's factored action space (Table 6) at 20
//! control ticks per game second, and the VPT discretisation (a joint button
//! class out of 8641 and a joint camera class out of 11 × 11 μ-law bins).

use serde::{Deserialize, Serialize};

/// One control tick of input. Camera deltas are in degrees (yaw positive =
/// turn right, pitch positive = look down). `craft`/`smelt` are the macro
/// actions: make one `item` by its recipe.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Action {
    pub forward: bool,
    pub back: bool,
    pub left: bool,
    pub right: bool,
    pub jump: bool,
    pub sneak: bool,
    pub sprint: bool,
    pub attack: bool,
    #[serde(rename = "use")]
    pub use_item: bool,
    pub drop: bool,
    /// Hotbar slot 1..=9 to select this tick.
    pub hotbar: Option<u8>,
    /// Open the inventory, or close whichever screen is open.
    pub inventory: bool,
    pub yaw: f32,
    pub pitch: f32,
    pub craft: Option<String>,
    pub smelt: Option<String>,
}

impl Action {
    pub fn noop() -> Self {
        Action::default()
    }

    /// A random action from the mix `gameworld bench` plays (mostly
    /// walking forward and attacking, with small camera turns, some jumps,
    /// sprints, strafes and hotbar changes, rarely `use`).
    pub fn random(rng: &mut gw_core::Rng) -> Action {
        Action {
            forward: rng.chance(0.6),
            back: rng.chance(0.05),
            left: rng.chance(0.1),
            right: rng.chance(0.1),
            jump: rng.chance(0.1),
            sprint: rng.chance(0.2),
            attack: rng.chance(0.4),
            use_item: rng.chance(0.02),
            hotbar: rng.chance(0.05).then(|| 1 + rng.below(9) as u8),
            yaw: rng.range_f64(-10.0, 10.0) as f32,
            pitch: rng.range_f64(-3.0, 3.0) as f32,
            ..Default::default()
        }
    }

    /// The 11 on/off fields in Table 6's order: forward, back, left, right,
    /// jump, sneak, sprint, attack, use, drop, inventory.
    pub fn buttons(&self) -> [bool; 11] {
        [
            self.forward,
            self.back,
            self.left,
            self.right,
            self.jump,
            self.sneak,
            self.sprint,
            self.attack,
            self.use_item,
            self.drop,
            self.inventory,
        ]
    }

    /// Set the fields [`Action::buttons`] reads, in the same order.
    pub fn set_buttons(&mut self, b: [bool; 11]) {
        [
            self.forward,
            self.back,
            self.left,
            self.right,
            self.jump,
            self.sneak,
            self.sprint,
            self.attack,
            self.use_item,
            self.drop,
            self.inventory,
        ] = b;
    }
}

/// VPT camera quantisation: clip to ±10°, μ-law (μ = 10), bins of 2 → 11
/// bins per axis, bin 5 = no movement.
pub mod camera {
    pub const BINS: u32 = 11;
    pub const MAX_DEG: f32 = 10.0;
    pub const MU: f32 = 10.0;
    pub const BIN_SIZE: f32 = 2.0;
    pub const NULL_BIN: u32 = 5;

    pub fn encode(deg: f32) -> u32 {
        let x = deg.clamp(-MAX_DEG, MAX_DEG) / MAX_DEG;
        let v = x.signum() * libm::logf(1.0 + MU * x.abs()) / libm::logf(1.0 + MU);
        let bin = libm::roundf((v * MAX_DEG + MAX_DEG) / BIN_SIZE);
        (bin.max(0.0) as u32).min(BINS - 1)
    }

    pub fn decode(bin: u32) -> f32 {
        let v = (bin.min(BINS - 1) as f32 * BIN_SIZE - MAX_DEG) / MAX_DEG;
        v.signum() * (1.0 / MU) * (libm::powf(1.0 + MU, v.abs()) - 1.0) * MAX_DEG
    }

    /// The camera move a VPT label can hold that is nearest `deg`: its bin's
    /// centre (so `decode(encode(snap(d))) == snap(d)`), clipped to ±10°.
    pub fn snap(deg: f32) -> f32 {
        decode(encode(deg))
    }
}

/// `a` as its VPT label decodes: camera moves snapped to bin centres (at
/// most ±10° a tick), one key of each pair (forward over back, left over
/// right, sprint over sneak), a hotbar slot only in 1..=9, nothing beside
/// the inventory key. The craft/smelt macros, which VPT has no class for,
/// are kept. An action that is its own image satisfies
/// `decode(encode(a)) == a` apart from those macros.
pub fn vpt_exact(a: &Action) -> Action {
    let mut d = decode(encode(a));
    d.craft = a.craft.clone();
    d.smelt = a.smelt.clone();
    d
}

/// A VPT-style discrete action: `buttons` in 0..8641 (8640 = inventory) and
/// `camera` in 0..121 (`pitch_bin * 11 + yaw_bin`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VptAction {
    pub buttons: u32,
    pub camera: u32,
}

pub const BUTTON_CLASSES: u32 = 8641;
pub const CAMERA_CLASSES: u32 = 121;
const INVENTORY_CLASS: u32 = 8640;

/// Encode a factored action (craft/smelt have no VPT form and are dropped;
/// with both movement keys of a pair pressed the first wins, as in VPT).
pub fn encode(a: &Action) -> VptAction {
    let pb = camera::encode(a.pitch);
    let yb = camera::encode(a.yaw);
    let camera_class = pb * camera::BINS + yb;
    if a.inventory {
        return VptAction {
            buttons: INVENTORY_CLASS,
            camera: camera_class,
        };
    }
    let hotbar = a.hotbar.filter(|h| (1..=9).contains(h)).unwrap_or(0) as u32;
    let fb = if a.forward {
        1
    } else if a.back {
        2
    } else {
        0
    };
    let lr = if a.left {
        1
    } else if a.right {
        2
    } else {
        0
    };
    let ss = if a.sprint {
        1
    } else if a.sneak {
        2
    } else {
        0
    };
    let moved = camera_class != camera::NULL_BIN * camera::BINS + camera::NULL_BIN;
    let mut i = hotbar;
    i = i * 3 + fb;
    i = i * 3 + lr;
    i = i * 3 + ss;
    i = i * 2 + a.use_item as u32;
    i = i * 2 + a.drop as u32;
    i = i * 2 + a.attack as u32;
    i = i * 2 + a.jump as u32;
    i = i * 2 + moved as u32;
    VptAction {
        buttons: i,
        camera: camera_class,
    }
}

/// Decode a discrete action (out-of-range classes clamp to the last one).
/// The camera moves only when the button class says it does.
pub fn decode(v: VptAction) -> Action {
    let mut a = Action::default();
    let cam = v.camera.min(CAMERA_CLASSES - 1);
    let (pb, yb) = (cam / camera::BINS, cam % camera::BINS);
    let buttons = v.buttons.min(BUTTON_CLASSES - 1);
    if buttons == INVENTORY_CLASS {
        a.inventory = true;
        return a;
    }
    let mut i = buttons;
    let moved = i % 2 == 1;
    i /= 2;
    a.jump = i % 2 == 1;
    i /= 2;
    a.attack = i % 2 == 1;
    i /= 2;
    a.drop = i % 2 == 1;
    i /= 2;
    a.use_item = i % 2 == 1;
    i /= 2;
    match i % 3 {
        1 => a.sprint = true,
        2 => a.sneak = true,
        _ => {}
    }
    i /= 3;
    match i % 3 {
        1 => a.left = true,
        2 => a.right = true,
        _ => {}
    }
    i /= 3;
    match i % 3 {
        1 => a.forward = true,
        2 => a.back = true,
        _ => {}
    }
    i /= 3;
    if i > 0 {
        a.hotbar = Some(i as u8);
    }
    if moved {
        a.pitch = camera::decode(pb);
        a.yaw = camera::decode(yb);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_bins_follow_mu_law() {
        assert_eq!(camera::encode(0.0), 5);
        assert_eq!(camera::encode(10.0), 10);
        assert_eq!(camera::encode(-45.0), 0);
        assert_eq!(camera::decode(5), 0.0);
        assert!((camera::decode(10) - 10.0).abs() < 1e-4);
        // μ-law: bins are finer near zero.
        let d6 = camera::decode(6);
        let d9 = camera::decode(9) - camera::decode(8);
        assert!(d6 < 1.0 && d9 > d6, "{d6} {d9}");
        for bin in 0..11 {
            assert_eq!(camera::encode(camera::decode(bin)), bin);
        }
    }

    #[test]
    fn vpt_exact_actions_round_trip() {
        let a = Action {
            forward: true,
            back: true,
            left: true,
            attack: true,
            yaw: 27.0,
            pitch: -3.0,
            hotbar: Some(4),
            craft: Some("stick".into()),
            ..Default::default()
        };
        let e = vpt_exact(&a);
        assert!(e.forward && !e.back && e.left && e.attack);
        assert_eq!(e.yaw, camera::decode(10));
        assert_eq!(e.pitch, camera::snap(-3.0));
        assert_eq!(e.craft.as_deref(), Some("stick"));
        let mut plain = decode(encode(&e));
        plain.craft = e.craft.clone();
        assert_eq!(plain, e);
        assert_eq!(vpt_exact(&e), e);
        for d in [-40.0f32, -10.0, -4.2, -0.3, 0.0, 0.2, 0.7, 2.0, 6.0, 9.9] {
            let s = camera::snap(d);
            assert_eq!(camera::decode(camera::encode(s)), s, "{d}");
            assert!(s.abs() <= 10.0 + 1e-4);
        }
        // A turn below the first bin rounds to no move at all.
        assert_eq!(camera::snap(0.2), 0.0);
    }

    #[test]
    fn button_classes_round_trip() {
        let a = Action {
            forward: true,
            right: true,
            sprint: true,
            attack: true,
            jump: true,
            hotbar: Some(3),
            yaw: 4.0,
            pitch: -1.0,
            ..Default::default()
        };
        let v = encode(&a);
        assert!(v.buttons < 8640 && v.camera < 121);
        let back = decode(v);
        assert!(back.forward && back.right && back.sprint && back.attack && back.jump);
        assert_eq!(back.hotbar, Some(3));
        assert_eq!(camera::encode(back.yaw), camera::encode(4.0));
        assert_eq!(encode(&back), v);
        // Every button class decodes and re-encodes to itself.
        for buttons in 0..BUTTON_CLASSES {
            let camera = if buttons % 2 == 1 { 17 } else { 60 };
            let v = VptAction { buttons, camera };
            assert_eq!(encode(&decode(v)).buttons, buttons);
        }
        let inv = encode(&Action {
            inventory: true,
            ..Default::default()
        });
        assert_eq!(inv.buttons, 8640);
        assert_eq!(
            encode(&Action::noop()),
            VptAction {
                buttons: 0,
                camera: 60
            }
        );
    }

    #[test]
    fn buttons_read_and_set_the_fields_in_table_6_order() {
        let a = Action {
            back: true,
            sneak: true,
            use_item: true,
            inventory: true,
            ..Default::default()
        };
        let b = a.buttons();
        assert_eq!(
            b,
            [
                false, true, false, false, false, true, false, false, true, false, true
            ]
        );
        let mut c = Action::noop();
        c.set_buttons(b);
        assert_eq!(c, a);
    }
}
