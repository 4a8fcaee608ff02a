//! The castle floor: a 3 × 3 block of square rooms (6 × 6 tiles each) inside
//! one-tile walls. A random spanning tree of the rooms, plus a few extra
//! links, gets connections in the shared walls: most are sliding doors, the
//! rest open archways. Each room has its own wall material and sometimes a
//! pillar. The player starts in the middle of one room; guards stand in the
//! others; ammo and health lie about.
//!
//! [`generate_ambush`] builds the original game's opening on the same kind
//! of floor: the player stands at one wall of a room facing a door, two
//! guards stand in front of him in that room, and four more wait behind the
//! door in the next room — six guards in all.

use super::art;
use crate::raycast::{Cell, Grid};
use gw_core::Rng;

pub const ROOMS_PER_SIDE: usize = 3;
pub const ROOM: usize = 6;
pub const SIZE: usize = ROOMS_PER_SIDE * (ROOM + 1) + 1;
pub const GUARDS: usize = 10;
/// Guards of the original opening ([`generate_ambush`]): two in front of
/// the player, four behind the door he faces.
pub const AMBUSH_GUARDS: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickupKind {
    /// A full clip on the floor (8 bullets).
    Clip,
    /// The clip a guard drops when killed (4 bullets).
    DroppedClip,
    /// A first-aid kit (+25 health).
    FirstAid,
    /// A plate of food (+10 health).
    Food,
}

impl PickupKind {
    pub fn name(self) -> &'static str {
        match self {
            PickupKind::Clip => "clip",
            PickupKind::DroppedClip => "dropped_clip",
            PickupKind::FirstAid => "first_aid",
            PickupKind::Food => "food",
        }
    }
    pub fn is_ammo(self) -> bool {
        matches!(self, PickupKind::Clip | PickupKind::DroppedClip)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub grid: Grid,
    /// Door tiles (column, row).
    pub doors: Vec<(usize, usize)>,
    pub start_room: usize,
    /// Player start: x, y, facing angle (radians).
    pub start: (f64, f64, f64),
    /// Guard spawns: tile and facing angle.
    pub guards: Vec<(usize, usize, f64)>,
    pub pickups: Vec<(PickupKind, usize, usize)>,
    /// The doors (not archways) between rooms, sorted by room pair.
    pub links: Vec<DoorLink>,
}

/// A door between two neighbouring rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct DoorLink {
    /// The rooms it joins: `rooms.0` is west of (or above) `rooms.1`.
    pub rooms: (usize, usize),
    pub tile: (usize, usize),
    /// A door in a wall between rooms side by side (east–west passage).
    pub horizontal: bool,
}

/// Top-left interior tile of room `i` (rooms numbered row by row).
pub fn room_origin(i: usize) -> (usize, usize) {
    (
        1 + (i % ROOMS_PER_SIDE) * (ROOM + 1),
        1 + (i / ROOMS_PER_SIDE) * (ROOM + 1),
    )
}

/// The room whose interior holds tile (c, r), if any.
pub fn room_of(c: usize, r: usize) -> Option<usize> {
    if c == 0 || r == 0 || c >= SIZE - 1 || r >= SIZE - 1 {
        return None;
    }
    let (cc, rr) = ((c - 1) / (ROOM + 1), (r - 1) / (ROOM + 1));
    if (c - 1) % (ROOM + 1) == ROOM || (r - 1) % (ROOM + 1) == ROOM {
        return None;
    }
    Some(rr * ROOMS_PER_SIDE + cc)
}

fn material_room(c: usize, r: usize) -> usize {
    let cc = (c.max(1) - 1) / (ROOM + 1);
    let rr = (r.max(1) - 1) / (ROOM + 1);
    rr.min(ROOMS_PER_SIDE - 1) * ROOMS_PER_SIDE + cc.min(ROOMS_PER_SIDE - 1)
}

fn find(parent: &mut [usize], i: usize) -> usize {
    let mut i = i;
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

const FACINGS: [f64; 4] = [
    0.0,
    core::f64::consts::FRAC_PI_2,
    core::f64::consts::PI,
    -core::f64::consts::FRAC_PI_2,
];

pub fn generate(rng: &mut Rng) -> Layout {
    let n = ROOMS_PER_SIDE * ROOMS_PER_SIDE;
    let materials: Vec<u16> = (0..n)
        .map(|_| rng.below(art::WALL_MATERIALS as u32) as u16)
        .collect();
    let mut grid = Grid::new(SIZE, SIZE, Cell::Empty);
    for r in 0..SIZE {
        for c in 0..SIZE {
            if room_of(c, r).is_none() {
                grid.set(
                    c,
                    r,
                    Cell::Wall {
                        tex: materials[material_room(c, r)],
                    },
                );
            }
        }
    }
    // Links between neighbouring rooms: (a, b, horizontal).
    let mut edges = Vec::new();
    for i in 0..n {
        if i % ROOMS_PER_SIDE + 1 < ROOMS_PER_SIDE {
            edges.push((i, i + 1, true));
        }
        if i + ROOMS_PER_SIDE < n {
            edges.push((i, i + ROOMS_PER_SIDE, false));
        }
    }
    rng.shuffle(&mut edges);
    let mut parent: Vec<usize> = (0..n).collect();
    let mut doors = Vec::new();
    let mut links = Vec::new();
    for &(a, b, horizontal) in &edges {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        let tree = ra != rb;
        if tree {
            parent[ra] = rb;
        } else if !rng.chance(0.3) {
            continue;
        }
        let (c0, r0) = room_origin(a);
        let k = 1 + rng.below(ROOM as u32 - 2) as usize;
        let (c, r) = if horizontal {
            (c0 + ROOM, r0 + k)
        } else {
            (c0 + k, r0 + ROOM)
        };
        if rng.chance(0.75) {
            grid.set(
                c,
                r,
                Cell::Door {
                    tex: art::DOOR,
                    open: 0.0,
                    across_x: horizontal,
                },
            );
            doors.push((c, r));
            links.push(DoorLink {
                rooms: (a, b),
                tile: (c, r),
                horizontal,
            });
        } else {
            grid.set(c, r, Cell::Empty);
        }
    }
    links.sort();
    doors.sort();
    let start_room = rng.index(n);
    let (sc, sr) = room_origin(start_room);
    let start = (
        sc as f64 + ROOM as f64 / 2.0,
        sr as f64 + ROOM as f64 / 2.0,
        FACINGS[rng.index(4)],
    );
    // Pillars in some other rooms, away from the walls (so never in a doorway's path).
    for i in 0..n {
        if i != start_room && rng.chance(0.5) {
            let (c0, r0) = room_origin(i);
            let c = c0 + 2 + rng.index(2);
            let r = r0 + 2 + rng.index(2);
            grid.set(c, r, Cell::Wall { tex: materials[i] });
        }
    }
    let mut taken = vec![false; SIZE * SIZE];
    let mut free_tile = |rng: &mut Rng, room: usize, grid: &Grid| -> (usize, usize) {
        let (c0, r0) = room_origin(room);
        loop {
            let c = c0 + 1 + rng.index(ROOM - 2);
            let r = r0 + 1 + rng.index(ROOM - 2);
            if grid.get(c as i32, r as i32) == Cell::Empty && !taken[r * SIZE + c] {
                taken[r * SIZE + c] = true;
                return (c, r);
            }
        }
    };
    // One guard in every other room, the rest in random other rooms (at most 2 each).
    let mut per_room = vec![0usize; n];
    let mut guards = Vec::new();
    let others: Vec<usize> = (0..n).filter(|&i| i != start_room).collect();
    for &room in &others {
        per_room[room] += 1;
        let (c, r) = free_tile(rng, room, &grid);
        guards.push((c, r, FACINGS[rng.index(4)]));
    }
    while guards.len() < GUARDS {
        let room = others[rng.index(others.len())];
        if per_room[room] >= 2 {
            continue;
        }
        per_room[room] += 1;
        let (c, r) = free_tile(rng, room, &grid);
        guards.push((c, r, FACINGS[rng.index(4)]));
    }
    let mut pickups = Vec::new();
    for kind in [
        PickupKind::Clip,
        PickupKind::Clip,
        PickupKind::FirstAid,
        PickupKind::Food,
    ] {
        let room = rng.index(n);
        let (c, r) = free_tile(rng, room, &grid);
        pickups.push((kind, c, r));
    }
    Layout {
        grid,
        doors,
        links,
        start_room,
        start,
        guards,
        pickups,
    }
}

/// The original game's opening on a seeded floor: one door between two
/// rooms is picked; the player stands against the far wall of one room,
/// on the door's line and facing it; two guards stand three tiles in front
/// of him, one either side of that line, facing him; four guards wait in
/// the room behind the door, two rows of two beside the line. The two
/// rooms lose their pillars; the rest of the floor (rooms, doors, pickups)
/// is [`generate`]'s.
pub fn generate_ambush(rng: &mut Rng) -> Layout {
    // A floor whose links are all archways (about 1 in 60,000) is redrawn.
    let mut l = generate(rng);
    while l.links.is_empty() {
        l = generate(rng);
    }
    let link = l.links[rng.index(l.links.len())];
    let (a, b) = link.rooms;
    let (start_room, behind) = if rng.chance(0.5) { (a, b) } else { (b, a) };
    for room in [start_room, behind] {
        let (c0, r0) = room_origin(room);
        for r in r0..r0 + ROOM {
            for c in c0..c0 + ROOM {
                l.grid.set(c, r, Cell::Empty);
            }
        }
    }
    // Tile of room `room` at `along` tiles from the door's wall (0 = the
    // tile beside the door) and `side` tiles across from the door's line.
    let (dc, dr) = link.tile;
    let at = |room: usize, along: usize, side: i64| -> (usize, usize) {
        let (c0, r0) = room_origin(room);
        let cross = if link.horizontal { dr } else { dc } as i64 + side;
        let (first, last) = if link.horizontal {
            (c0, c0 + ROOM - 1)
        } else {
            (r0, r0 + ROOM - 1)
        };
        let door_side = if link.horizontal { dc } else { dr };
        let pos = if door_side < first {
            first + along
        } else {
            last - along
        };
        if link.horizontal {
            (pos, cross as usize)
        } else {
            (cross as usize, pos)
        }
    };
    // The direction from the start room towards the door.
    let facing = match (link.horizontal, start_room == a) {
        (true, true) => FACINGS[0],
        (true, false) => FACINGS[2],
        (false, true) => FACINGS[1],
        (false, false) => FACINGS[3],
    };
    let back = match (link.horizontal, start_room == a) {
        (true, true) => FACINGS[2],
        (true, false) => FACINGS[0],
        (false, true) => FACINGS[3],
        (false, false) => FACINGS[1],
    };
    let (pc, pr) = at(start_room, ROOM - 1, 0);
    l.start = (pc as f64 + 0.5, pr as f64 + 0.5, facing);
    l.start_room = start_room;
    let mut guards = Vec::with_capacity(AMBUSH_GUARDS);
    for side in [-1, 1] {
        let (c, r) = at(start_room, ROOM - 4, side);
        guards.push((c, r, back));
    }
    for along in [1, 3] {
        for side in [-1, 1] {
            let (c, r) = at(behind, along, side);
            guards.push((c, r, FACINGS[rng.index(4)]));
        }
    }
    l.guards = guards;
    // Pickups never share a tile with a guard or the player.
    let busy = |c: usize, r: usize, l: &Layout| {
        (c, r) == (pc, pr) || l.guards.iter().any(|g| (g.0, g.1) == (c, r))
    };
    for i in 0..l.pickups.len() {
        let (kind, c, r) = l.pickups[i];
        if busy(c, r, &l) {
            let (c0, r0) = room_origin(behind);
            let spot = (0..ROOM * ROOM)
                .map(|k| (c0 + k % ROOM, r0 + k / ROOM))
                .find(|&(c, r)| !busy(c, r, &l) && !l.pickups.iter().any(|p| (p.1, p.2) == (c, r)));
            if let Some((c, r)) = spot {
                l.pickups[i] = (kind, c, r);
            }
        }
    }
    l
}
