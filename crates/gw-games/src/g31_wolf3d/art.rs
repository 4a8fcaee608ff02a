//! Procedural textures for Wolfenstein 3D: four wall materials and a steel
//! door (64 × 64), and the sprites (guard poses, corpse, pickups). Built
//! once from integer hashes, so every run draws identical pixels.

use crate::raycast::Texture;
use std::sync::OnceLock;

pub const TEX: usize = 64;
/// Wall texture ids (the `tex` of grid cells): 0 grey stone, 1 blue stone,
/// 2 wood panelling, 3 red brick, then the door.
pub const DOOR: u16 = 4;
pub const WALL_MATERIALS: u16 = 4;

/// Sprite texture ids.
pub const GUARD_STAND: usize = 0;
pub const GUARD_WALK: usize = 1;
pub const GUARD_SHOOT: usize = 2;
pub const GUARD_PAIN: usize = 3;
pub const GUARD_DEAD: usize = 4;
pub const CLIP: usize = 5;
pub const FIRST_AID: usize = 6;
pub const FOOD: usize = 7;

fn hash(x: u32, y: u32, k: u32) -> u32 {
    let mut h = x
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add(y.wrapping_mul(0x85EB_CA77))
        .wrapping_add(k.wrapping_mul(0xC2B2_AE3D));
    h ^= h >> 15;
    h = h.wrapping_mul(0x2C1B_3C6D);
    h ^= h >> 12;
    h = h.wrapping_mul(0x297A_2D39);
    h ^ (h >> 15)
}

fn tone(base: [u8; 3], delta: i32) -> [u8; 4] {
    let f = |c: u8| (c as i32 + delta).clamp(0, 255) as u8;
    [f(base[0]), f(base[1]), f(base[2]), 255]
}

/// Staggered blocks `bw` × `bh` texels with mortar lines.
fn blocks(base: [u8; 3], mortar: [u8; 3], bw: u32, bh: u32, k: u32) -> Texture {
    let mut t = Texture::new(TEX);
    for y in 0..TEX as u32 {
        let band = y / bh;
        let shift = if band % 2 == 1 { bw / 2 } else { 0 };
        for x in 0..TEX as u32 {
            let bx = (x + shift) % TEX as u32 / bw;
            let in_mortar = y % bh == bh - 1 || (x + shift) % bw == bw - 1;
            let c = if in_mortar {
                tone(mortar, 0)
            } else {
                let block = (hash(bx, band, k + 1) % 31) as i32 - 15;
                // Two-texel speckles rather than per-texel noise: the faces
                // look rough but frames still compress well as PNG.
                let grain = if hash(x / 4, y / 2, k + 2).is_multiple_of(5) {
                    -10
                } else {
                    0
                };
                // A lighter top edge makes each block look chiselled.
                let edge = if y % bh == 0 || (x + shift) % bw == 0 {
                    18
                } else {
                    0
                };
                tone(base, block + grain + edge)
            };
            t.set(x as usize, y as usize, c);
        }
    }
    t
}

fn wood() -> Texture {
    let mut t = Texture::new(TEX);
    for y in 0..TEX as u32 {
        for x in 0..TEX as u32 {
            let plank = x / 16;
            let edge = x % 16 == 0 || x % 16 == 15;
            let streak = (hash(x / 4, y / 8 + plank * 7, 31) % 3) as i32 * 8 - 8;
            let plank_tone = (hash(plank, 0, 32) % 25) as i32 - 12;
            let c = if edge {
                tone([70, 44, 20], streak / 2)
            } else {
                tone([128, 84, 44], streak + plank_tone)
            };
            t.set(x as usize, y as usize, c);
        }
    }
    t
}

fn door() -> Texture {
    let mut t = Texture::new(TEX);
    for y in 0..TEX {
        for x in 0..TEX {
            let shade = (x as i32 - 32).abs() / 3;
            let mut c = tone([70, 118, 140], 10 - shade);
            if y % 16 == 0 || y % 16 == 15 {
                c = tone([44, 80, 98], 0);
            }
            if (x == 4 || x == 59) && y % 8 == 4 {
                c = [200, 220, 230, 255];
            }
            t.set(x, y, c);
        }
    }
    // Handle slot.
    t.fill_rect(50, 28, 56, 38, [30, 40, 48, 255]);
    t.fill_rect(52, 30, 54, 36, [180, 180, 160, 255]);
    t
}

const SKIN: [u8; 4] = [226, 178, 138, 255];
const UNIFORM: [u8; 4] = [140, 112, 62, 255];
const UNIFORM_DARK: [u8; 4] = [104, 80, 42, 255];
const HELMET: [u8; 4] = [92, 84, 44, 255];
const BOOT: [u8; 4] = [28, 24, 20, 255];
const GUN: [u8; 4] = [44, 44, 48, 255];
const BELT: [u8; 4] = [58, 38, 20, 255];

fn guard_body(t: &mut Texture) {
    // Torso, belt, arms.
    t.fill_rect(22, 22, 42, 45, UNIFORM);
    t.fill_rect(22, 38, 42, 41, BELT);
    t.fill_rect(31, 22, 33, 38, UNIFORM_DARK);
    t.fill_rect(17, 23, 22, 40, UNIFORM_DARK);
    t.fill_rect(42, 23, 47, 40, UNIFORM_DARK);
    t.fill_rect(17, 40, 22, 43, SKIN);
    t.fill_rect(42, 40, 47, 43, SKIN);
    // Head and helmet.
    t.fill_ellipse(32.0, 15.0, 6.5, 7.5, SKIN);
    t.fill_rect(29, 13, 31, 15, [40, 30, 30, 255]);
    t.fill_rect(34, 13, 36, 15, [40, 30, 30, 255]);
    t.fill_ellipse(32.0, 8.5, 8.5, 5.0, HELMET);
    t.fill_rect(23, 9, 42, 11, HELMET);
}

fn guard(pose: usize) -> Texture {
    let mut t = Texture::new(TEX);
    match pose {
        GUARD_WALK => {
            t.fill_rect(22, 45, 28, 60, UNIFORM_DARK);
            t.fill_rect(37, 45, 43, 58, UNIFORM_DARK);
            t.fill_rect(20, 59, 28, 63, BOOT);
            t.fill_rect(37, 56, 45, 60, BOOT);
        }
        _ => {
            t.fill_rect(25, 45, 31, 60, UNIFORM_DARK);
            t.fill_rect(33, 45, 39, 60, UNIFORM_DARK);
            t.fill_rect(24, 59, 31, 63, BOOT);
            t.fill_rect(33, 59, 40, 63, BOOT);
        }
    }
    guard_body(&mut t);
    if pose == GUARD_SHOOT {
        // Pistol raised straight at the viewer, muzzle flash.
        t.fill_rect(29, 27, 35, 36, GUN);
        t.fill_ellipse(32.0, 26.0, 7.0, 5.0, [255, 220, 80, 255]);
        t.fill_ellipse(32.0, 26.0, 3.5, 2.5, [255, 255, 220, 255]);
    } else {
        t.fill_rect(26, 31, 46, 34, GUN);
    }
    if pose == GUARD_PAIN {
        for px in t.texels.iter_mut() {
            let [r, g, b, a] = px.to_le_bytes();
            if a != 0 {
                *px = u32::from_le_bytes([
                    (r as u32 + 255).min(510).div_euclid(2) as u8,
                    g / 2,
                    b / 2,
                    a,
                ]);
            }
        }
    }
    t
}

fn corpse() -> Texture {
    let mut t = Texture::new(TEX);
    t.fill_ellipse(32.0, 61.0, 24.0, 3.0, [120, 10, 10, 255]);
    t.fill_rect(12, 53, 44, 60, UNIFORM);
    t.fill_rect(12, 55, 44, 57, UNIFORM_DARK);
    t.fill_rect(4, 55, 12, 59, UNIFORM_DARK);
    t.fill_ellipse(49.0, 56.0, 5.0, 4.5, SKIN);
    t.fill_ellipse(52.0, 55.0, 4.0, 4.0, HELMET);
    t
}

fn clip() -> Texture {
    let mut t = Texture::new(TEX);
    t.fill_rect(22, 50, 42, 62, [70, 70, 46, 255]);
    t.fill_rect(22, 50, 42, 52, [96, 96, 66, 255]);
    for i in 0..4 {
        let x = 24 + i * 5;
        t.fill_rect(x, 45, x + 3, 50, [214, 176, 64, 255]);
        t.fill_rect(x, 44, x + 3, 45, [170, 120, 50, 255]);
    }
    t
}

fn first_aid() -> Texture {
    let mut t = Texture::new(TEX);
    t.fill_rect(18, 44, 46, 62, [236, 236, 236, 255]);
    t.fill_rect(18, 44, 46, 46, [200, 200, 200, 255]);
    t.fill_rect(29, 47, 35, 60, [210, 20, 20, 255]);
    t.fill_rect(24, 51, 40, 56, [210, 20, 20, 255]);
    t
}

fn food() -> Texture {
    let mut t = Texture::new(TEX);
    t.fill_ellipse(32.0, 60.0, 15.0, 3.5, [230, 230, 220, 255]);
    t.fill_ellipse(32.0, 55.0, 10.0, 5.5, [170, 96, 40, 255]);
    t.fill_ellipse(29.0, 53.0, 4.0, 2.5, [206, 140, 70, 255]);
    t.fill_rect(41, 53, 46, 55, [240, 230, 210, 255]);
    t
}

/// Wall and door textures, indexed by the grid cells' `tex`.
pub fn walls() -> &'static [Texture] {
    static WALLS: OnceLock<Vec<Texture>> = OnceLock::new();
    WALLS.get_or_init(|| {
        vec![
            blocks([112, 112, 112], [68, 68, 68], 32, 16, 11),
            blocks([44, 64, 156], [22, 30, 84], 32, 16, 12),
            wood(),
            blocks([156, 58, 44], [176, 166, 150], 16, 8, 13),
            door(),
        ]
    })
}

/// Sprite textures, indexed by the sprite ids above.
pub fn sprites() -> &'static [Texture] {
    static SPRITES: OnceLock<Vec<Texture>> = OnceLock::new();
    SPRITES.get_or_init(|| {
        vec![
            guard(GUARD_STAND),
            guard(GUARD_WALK),
            guard(GUARD_SHOOT),
            guard(GUARD_PAIN),
            corpse(),
            clip(),
            first_aid(),
            food(),
        ]
    })
}
