//! A grid raycaster in the style of Wolfenstein 3D: textured walls found by
//! a DDA walk per screen column, sliding doors on the middle plane of their
//! tile, and billboard sprites clipped against a per-column depth buffer.
//!
//! Rendering writes straight into a tiny-skia pixmap's RGBA bytes (every
//! texel is opaque or fully transparent, so premultiplication changes
//! nothing). Walls are cast once per column into spans (top, texture step,
//! texture column), then the view is filled row by row so writes stay
//! sequential in memory (32-row bands shared with rayon's threads as
//! `render3d` shares its bands; any order gives the same pixels). All maths is `f64` through `libm`-free arithmetic
//! (only products, quotients and `sqrt`-free DDA), so frames are identical
//! on every machine.
//!
//! Coordinates are in tiles: x grows to the right (east), y grows downwards
//! (south); tile (c, r) spans [c, c+1] × [r, r+1].

/// A square RGBA texture; texels with alpha 0 are transparent (sprites).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    pub size: usize,
    /// Row-major texels packed as little-endian RGBA (`u32::from_le_bytes`).
    pub texels: Vec<u32>,
}

impl Texture {
    pub fn new(size: usize) -> Self {
        Texture {
            size,
            texels: vec![0; size * size],
        }
    }

    pub fn set(&mut self, x: usize, y: usize, c: [u8; 4]) {
        if x < self.size && y < self.size {
            self.texels[y * self.size + x] = u32::from_le_bytes(c);
        }
    }

    pub fn get(&self, x: usize, y: usize) -> [u8; 4] {
        self.texels[y * self.size + x].to_le_bytes()
    }

    /// Fill the axis-aligned box [x0, x1) × [y0, y1) (clipped).
    pub fn fill_rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: [u8; 4]) {
        for y in y0.max(0)..y1.min(self.size as i32) {
            for x in x0.max(0)..x1.min(self.size as i32) {
                self.set(x as usize, y as usize, c);
            }
        }
    }

    /// Fill the ellipse centred at (cx, cy) with radii (rx, ry).
    pub fn fill_ellipse(&mut self, cx: f64, cy: f64, rx: f64, ry: f64, c: [u8; 4]) {
        for y in 0..self.size {
            for x in 0..self.size {
                let dx = (x as f64 + 0.5 - cx) / rx;
                let dy = (y as f64 + 0.5 - cy) / ry;
                if dx * dx + dy * dy <= 1.0 {
                    self.set(x, y, c);
                }
            }
        }
    }
}

/// One grid cell as the raycaster sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell {
    Empty,
    Wall {
        tex: u16,
    },
    /// A door panel on the middle plane of its tile. `across_x`: the panel
    /// lies in the plane x = c + 0.5 (the passage runs east–west); otherwise
    /// in y = r + 0.5. `open` ∈ [0, 1] is how far it has slid aside.
    Door {
        tex: u16,
        open: f64,
        across_x: bool,
    },
}

/// A rectangular tile map.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
}

impl Grid {
    pub fn new(width: usize, height: usize, fill: Cell) -> Self {
        Grid {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }

    /// The cell at (c, r); outside the map is a wall with texture 0.
    pub fn get(&self, c: i32, r: i32) -> Cell {
        if c < 0 || r < 0 || c >= self.width as i32 || r >= self.height as i32 {
            return Cell::Wall { tex: 0 };
        }
        self.cells[r as usize * self.width + c as usize]
    }

    pub fn set(&mut self, c: usize, r: usize, cell: Cell) {
        self.cells[r * self.width + c] = cell;
    }

    /// Whether a body can stand in (c, r): empty floor or a door that has
    /// slid at least 90 % open.
    pub fn walkable(&self, c: i32, r: i32) -> bool {
        match self.get(c, r) {
            Cell::Empty => true,
            Cell::Door { open, .. } => open >= 0.9,
            Cell::Wall { .. } => false,
        }
    }
}

/// Where a ray met a wall or door.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Distance along the view direction (no fish-eye), in tiles.
    pub dist: f64,
    pub tex: u16,
    /// Horizontal texture coordinate in [0, 1).
    pub u: f64,
    /// The ray hit a face whose normal is along y (drawn darker).
    pub y_side: bool,
    pub cell: (i32, i32),
}

/// Walk the grid from (px, py) along (dx, dy) until a wall or a closed part of
/// a door, at most `max_cells` cells. Distances are in units of the direction
/// vector's length (pass a unit vector for Euclidean distance, or a camera
/// ray for perpendicular distance).
pub fn cast(grid: &Grid, px: f64, py: f64, dx: f64, dy: f64, max_cells: u32) -> Option<Hit> {
    let mut c = px.floor() as i32;
    let mut r = py.floor() as i32;
    let delta_x = if dx == 0.0 {
        f64::INFINITY
    } else {
        (1.0 / dx).abs()
    };
    let delta_y = if dy == 0.0 {
        f64::INFINITY
    } else {
        (1.0 / dy).abs()
    };
    let (step_x, mut side_x) = if dx < 0.0 {
        (-1, (px - c as f64) * delta_x)
    } else {
        (1, (c as f64 + 1.0 - px) * delta_x)
    };
    let (step_y, mut side_y) = if dy < 0.0 {
        (-1, (py - r as f64) * delta_y)
    } else {
        (1, (r as f64 + 1.0 - py) * delta_y)
    };
    // The starting cell may be an open door the viewer stands in.
    let mut entered = 0.0;
    let mut y_side = false;
    for _ in 0..max_cells {
        match grid.get(c, r) {
            Cell::Wall { tex } if entered > 0.0 || (c, r) != (px as i32, py as i32) => {
                let u = if y_side {
                    px + entered * dx
                } else {
                    py + entered * dy
                };
                let mut u = u - u.floor();
                // Mirror so textures read left to right from every side.
                if (!y_side && dx < 0.0) || (y_side && dy > 0.0) {
                    u = 1.0 - u;
                }
                return Some(Hit {
                    dist: entered,
                    tex,
                    u: u.min(0.999_999),
                    y_side,
                    cell: (c, r),
                });
            }
            Cell::Door {
                tex,
                open,
                across_x,
            } => {
                // Distance to the door's middle plane, if the ray crosses it
                // inside this cell.
                let t = if across_x {
                    if dx == 0.0 {
                        f64::INFINITY
                    } else {
                        (c as f64 + 0.5 - px) / dx
                    }
                } else if dy == 0.0 {
                    f64::INFINITY
                } else {
                    (r as f64 + 0.5 - py) / dy
                };
                let leave = side_x.min(side_y);
                if t >= entered && t <= leave {
                    let along = if across_x { py + t * dy } else { px + t * dx };
                    let u = along - along.floor();
                    if u >= open {
                        return Some(Hit {
                            dist: t,
                            tex,
                            u: (u - open).min(0.999_999),
                            y_side: !across_x,
                            cell: (c, r),
                        });
                    }
                }
            }
            _ => {}
        }
        if side_x < side_y {
            entered = side_x;
            side_x += delta_x;
            c += step_x;
            y_side = false;
        } else {
            entered = side_y;
            side_y += delta_y;
            r += step_y;
            y_side = true;
        }
    }
    None
}

/// Whether the straight segment between two points crosses no wall and no
/// closed part of a door.
pub fn line_of_sight(grid: &Grid, ax: f64, ay: f64, bx: f64, by: f64) -> bool {
    let (dx, dy) = (bx - ax, by - ay);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-9 {
        return true;
    }
    let cells = (len.ceil() as u32) * 2 + 4;
    match cast(grid, ax, ay, dx / len, dy / len, cells) {
        Some(hit) => hit.dist >= len,
        None => true,
    }
}

/// A viewer: position, unit view direction and the camera plane (its length
/// sets the field of view: 0.75 ≈ 74°).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub x: f64,
    pub y: f64,
    pub dir_x: f64,
    pub dir_y: f64,
    pub plane_x: f64,
    pub plane_y: f64,
}

impl Camera {
    /// A camera at (x, y) looking at `angle` radians (0 = east, growing
    /// clockwise on screen since y points south) with half-FOV tangent `fov`.
    pub fn new(x: f64, y: f64, angle: f64, fov: f64) -> Self {
        let (s, c) = (libm::sin(angle), libm::cos(angle));
        Camera {
            x,
            y,
            dir_x: c,
            dir_y: s,
            plane_x: -s * fov,
            plane_y: c * fov,
        }
    }
}

/// The part of a pixmap the 3D view fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

/// A billboard standing on the floor: `height` and `width` in tiles (1.0 =
/// a wall's height).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    pub x: f64,
    pub y: f64,
    pub tex: usize,
    pub width: f64,
    pub height: f64,
}

/// Reusable per-frame buffers (one span per column and the depth buffer).
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub zbuf: Vec<f64>,
    spans: Vec<Span>,
    /// The texture column of every screen column's wall slice, shaded as
    /// drawn (the widest texture's size texels per column).
    column: Vec<u32>,
    /// The texture row of every screen row a sprite covers (-1: none).
    rows: Vec<i64>,
    /// Per texture column of a sprite: its first opaque row and one past
    /// its last (equal when the column is all transparent).
    opaque: Vec<(i64, i64)>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Span {
    /// Unclipped top row of the wall slice, relative to the view.
    top: i32,
    /// Clipped rows [start, end) the slice covers.
    start: i32,
    end: i32,
    /// Texture rows per screen row, 16.16 fixed point.
    step: u32,
    /// Index of the texture column's first texel.
    tex: u16,
    col: u16,
    dark: bool,
}

/// Pixels per tile at distance 1 for this view and camera.
pub fn focal(view: &Viewport, cam: &Camera) -> f64 {
    let plane = (cam.plane_x * cam.plane_x + cam.plane_y * cam.plane_y).sqrt();
    view.w as f64 / 2.0 / plane
}

/// Darken a packed texel to 3/4 (the shading of y-facing walls).
#[inline]
fn shade(t: u32) -> u32 {
    let [r, g, b, a] = t.to_le_bytes();
    u32::from_le_bytes([
        ((r as u32 * 3) >> 2) as u8,
        ((g as u32 * 3) >> 2) as u8,
        ((b as u32 * 3) >> 2) as u8,
        a,
    ])
}

/// What the wall pass draws: the map seen from a camera, the wall
/// textures (indexed by the cells' `tex`), and the flat ceiling and floor
/// colours (RGBA).
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    pub grid: &'a Grid,
    pub cam: &'a Camera,
    pub textures: &'a [Texture],
    pub ceiling: [u8; 4],
    pub floor: [u8; 4],
}

/// Draw walls, doors, ceiling and floor into `data` (the pixmap's RGBA bytes,
/// `stride` pixels per row) and fill `scratch.zbuf` with each column's depth.
pub fn render_walls(
    data: &mut [u8],
    stride: usize,
    view: &Viewport,
    scene: &Scene,
    scratch: &mut Scratch,
) {
    let Scene {
        grid,
        cam,
        textures,
        ceiling,
        floor,
    } = *scene;
    let f = focal(view, cam);
    let half = view.h as i32 / 2;
    scratch.zbuf.clear();
    scratch.spans.clear();
    for x in 0..view.w {
        let camera_x = 2.0 * (x as f64 + 0.5) / view.w as f64 - 1.0;
        let rdx = cam.dir_x + cam.plane_x * camera_x;
        let rdy = cam.dir_y + cam.plane_y * camera_x;
        let hit = cast(grid, cam.x, cam.y, rdx, rdy, 256);
        let Some(hit) = hit else {
            scratch.zbuf.push(f64::INFINITY);
            scratch.spans.push(Span::default());
            continue;
        };
        let dist = hit.dist.max(1e-3);
        scratch.zbuf.push(dist);
        let line = (f / dist).min(1e6);
        let line_px = line.round().max(1.0) as i32;
        let top = half - line_px / 2;
        let t = &textures[hit.tex as usize];
        let tex_col = ((hit.u * t.size as f64) as usize).min(t.size - 1);
        scratch.spans.push(Span {
            top,
            start: top.max(0),
            end: (top + line_px).min(view.h as i32),
            step: ((t.size as u64) << 16).div_euclid(line_px as u64) as u32,
            tex: hit.tex,
            col: tex_col as u16,
            dark: hit.y_side,
        });
    }
    let s4 = stride * 4;
    let region = &mut data[view.y * s4..(view.y + view.h) * s4];
    let column = &mut scratch.column;
    let half = half.max(0) as usize;
    let h = view.h;
    // Every wall slice reads one texture column: fetch it (shaded for
    // y-facing walls) once per frame into `column`, `size` texels a column.
    let size = textures.iter().map(|t| t.size).max().unwrap_or(1);
    column.clear();
    for span in &scratch.spans {
        let t = &textures[span.tex as usize];
        column.extend((0..size).map(|ty| {
            let texel = t.texels[ty.min(t.size - 1) * t.size + span.col as usize];
            if span.dark { shade(texel) } else { texel }
        }));
    }
    // Rows that no wall reaches are one plain colour and copied whole from
    // a filled row. Rows are written in order within bands of
    // `render3d::BAND` rows, and the bands are shared with rayon's other
    // threads as the 3D games' are (`render3d::band_mode_parallel`: serial
    // on rayon's workers and under `BandMode::Serial`); every row depends
    // only on the spans, so any order gives the same pixels.
    let (mut reach_top, mut reach_bottom) = (h, 0);
    for span in &scratch.spans {
        if span.end > span.start {
            reach_top = reach_top.min(span.start.max(0) as usize);
            reach_bottom = reach_bottom.max(span.end.max(0) as usize);
        }
    }
    let plain_row = |c: [u8; 4]| c.repeat(view.w);
    let (ceiling_row, floor_row) = (plain_row(ceiling), plain_row(floor));
    let last = size - 1;
    let spans = &scratch.spans;
    let column = &column[..];
    let draw_row = |y: usize, line: &mut [u8]| {
        let out = &mut line[view.x * 4..(view.x + view.w) * 4];
        let (plain, plain_row) = if y < half {
            (&ceiling, &ceiling_row)
        } else {
            (&floor, &floor_row)
        };
        if y < reach_top || y >= reach_bottom {
            out.copy_from_slice(plain_row);
            return;
        }
        let yi = y as i32;
        for ((px, span), texels) in out
            .chunks_exact_mut(4)
            .zip(spans)
            .zip(column.chunks_exact(size))
        {
            if yi >= span.start && yi < span.end {
                let ty = ((((yi - span.top) as u64) * span.step as u64) >> 16) as usize;
                px.copy_from_slice(&texels[ty.min(last)].to_le_bytes());
            } else {
                px.copy_from_slice(plain);
            }
        }
    };
    let band = crate::render3d::BAND as usize;
    let parallel = crate::render3d::band_mode_parallel(h as i32);
    crate::render3d::for_each_band(region, band * s4, parallel, |k, rows| {
        for (i, line) in rows.chunks_exact_mut(s4).enumerate() {
            draw_row(k * band + i, line);
        }
    });
}

/// Draw sprites over the walls, farthest first, each column clipped by the
/// depth buffer that [`render_walls`] filled.
pub fn render_sprites(
    data: &mut [u8],
    stride: usize,
    view: &Viewport,
    cam: &Camera,
    sprites: &[Sprite],
    textures: &[Texture],
    scratch: &mut Scratch,
) {
    let f = focal(view, cam);
    let half = view.h as f64 / 2.0;
    let inv_det = 1.0 / (cam.plane_x * cam.dir_y - cam.dir_x * cam.plane_y);
    let mut order: Vec<(f64, usize)> = sprites
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let (dx, dy) = (s.x - cam.x, s.y - cam.y);
            (dx * dx + dy * dy, i)
        })
        .collect();
    // Farthest first; ties broken by index so the order is total.
    order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    for (_, i) in order {
        let s = &sprites[i];
        let (sx, sy) = (s.x - cam.x, s.y - cam.y);
        let tx = inv_det * (cam.dir_y * sx - cam.dir_x * sy);
        let depth = inv_det * (-cam.plane_y * sx + cam.plane_x * sy);
        if depth < 0.1 {
            continue;
        }
        let tex = &textures[s.tex];
        let screen_x = view.w as f64 / 2.0 * (1.0 + tx / depth);
        let scale = f / depth;
        let w_px = s.width * scale;
        let h_px = s.height * scale;
        let bottom = half + scale / 2.0;
        let top = bottom - h_px;
        let left = screen_x - w_px / 2.0;
        let x0 = left.floor().max(0.0) as i64;
        let x1 = (left + w_px).ceil().min(view.w as f64) as i64;
        let y0 = top.floor().max(0.0) as i64;
        let y1 = bottom.ceil().min(view.h as f64) as i64;
        if x0 >= x1 || y0 >= y1 {
            continue;
        }
        // The texture row of every screen row, computed once per sprite
        // (the same expression per pixel would give the same values).
        let rows = &mut scratch.rows;
        rows.clear();
        rows.extend((y0..y1).map(|y| {
            let v = ((y as f64 + 0.5 - top) / h_px * tex.size as f64) as i64;
            if v < 0 || v >= tex.size as i64 { -1 } else { v }
        }));
        // Texture rows grow with screen rows, so each texture column's
        // opaque texels [first, last] cover one run of screen rows: only
        // those rows are visited (the others would draw nothing).
        let opaque = &mut scratch.opaque;
        opaque.clear();
        opaque.extend((0..tex.size).map(|u| {
            let lit = |v: &usize| tex.texels[v * tex.size + u] >> 24 != 0;
            let first = (0..tex.size).find(lit).unwrap_or(tex.size);
            let end = (0..tex.size).rev().find(lit).map_or(first, |v| v + 1);
            (first as i64, end as i64)
        }));
        // The rows that show a texture row: one run (-1 only before and
        // after it), increasing along it.
        let start = rows.iter().position(|&v| v >= 0).unwrap_or(rows.len());
        let valid = (
            start,
            start + rows[start..].iter().take_while(|&&v| v >= 0).count(),
        );
        let inside = &rows[valid.0..valid.1];
        let s4 = stride * 4;
        for x in x0..x1 {
            if depth >= scratch.zbuf[x as usize] {
                continue;
            }
            let u = ((x as f64 + 0.5 - left) / w_px * tex.size as f64) as i64;
            if u < 0 || u >= tex.size as i64 {
                continue;
            }
            let (first, end) = opaque[u as usize];
            let from = valid.0 + inside.partition_point(|&v| v < first);
            let to = valid.0 + inside.partition_point(|&v| v < end);
            let mut i = ((view.y + y0 as usize + from) * stride + view.x + x as usize) * 4;
            for &v in &rows[from..to] {
                let texel = tex.texels[v as usize * tex.size + u as usize];
                if texel >> 24 != 0 {
                    data[i..i + 4].copy_from_slice(&texel.to_le_bytes());
                }
                i += s4;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room() -> Grid {
        // 5 × 5 with walls around a 3 × 3 floor; a door in the east wall.
        let mut g = Grid::new(5, 5, Cell::Wall { tex: 0 });
        for r in 1..4 {
            for c in 1..4 {
                g.set(c, r, Cell::Empty);
            }
        }
        g.set(
            4,
            2,
            Cell::Door {
                tex: 1,
                open: 0.0,
                across_x: true,
            },
        );
        g
    }

    #[test]
    fn rays_hit_the_nearest_wall_at_the_right_distance() {
        let g = room();
        let hit = cast(&g, 2.5, 1.5, -1.0, 0.0, 16).unwrap();
        assert!((hit.dist - 1.5).abs() < 1e-9);
        assert_eq!(hit.cell, (0, 1));
        assert!(!hit.y_side);
        let hit = cast(&g, 2.5, 2.5, 0.0, 1.0, 16).unwrap();
        assert!((hit.dist - 1.5).abs() < 1e-9);
        assert!(hit.y_side);
        assert!((hit.u - 0.5).abs() < 1e-6);
    }

    #[test]
    fn doors_block_on_their_middle_plane_until_open() {
        let mut g = room();
        let hit = cast(&g, 2.5, 2.5, 1.0, 0.0, 16).unwrap();
        assert_eq!(hit.cell, (4, 2));
        assert!((hit.dist - 2.0).abs() < 1e-9, "{}", hit.dist);
        assert!(!line_of_sight(&g, 2.5, 2.5, 5.5, 2.5));
        g.set(
            4,
            2,
            Cell::Door {
                tex: 1,
                open: 0.6,
                across_x: true,
            },
        );
        // The ray at u = 0.5 passes the slid-open part and leaves the map.
        assert!(cast(&g, 2.5, 2.5, 1.0, 0.0, 16).is_none_or(|h| h.cell != (4, 2)));
        // A ray through u = 0.8 still meets the panel.
        let hit = cast(&g, 2.5, 2.8, 1.0, 0.0, 16).unwrap();
        assert_eq!(hit.cell, (4, 2));
        assert!(!g.walkable(4, 2));
    }

    #[test]
    fn render_fills_ceiling_walls_and_floor() {
        let g = room();
        let tex = {
            let mut t = Texture::new(8);
            t.fill_rect(0, 0, 8, 8, [200, 0, 0, 255]);
            t
        };
        let door = {
            let mut t = Texture::new(8);
            t.fill_rect(0, 0, 8, 8, [0, 0, 200, 255]);
            t
        };
        let view = Viewport {
            x: 0,
            y: 0,
            w: 64,
            h: 48,
        };
        let mut data = vec![0u8; 64 * 48 * 4];
        let cam = Camera::new(1.5, 2.5, 0.0, 0.75);
        let mut scratch = Scratch::default();
        render_walls(
            &mut data,
            64,
            &view,
            &Scene {
                grid: &g,
                cam: &cam,
                textures: &[tex, door],
                ceiling: [10, 10, 10, 255],
                floor: [90, 90, 90, 255],
            },
            &mut scratch,
        );
        fn px(data: &[u8], x: usize, y: usize) -> [u8; 4] {
            data[(y * 64 + x) * 4..(y * 64 + x) * 4 + 4]
                .try_into()
                .unwrap()
        }
        assert_eq!(px(&data, 32, 0), [10, 10, 10, 255]);
        assert_eq!(px(&data, 32, 47), [90, 90, 90, 255]);
        // Straight ahead is the blue door panel, 3 tiles away.
        assert_eq!(px(&data, 32, 24), [0, 0, 200, 255]);
        assert!((scratch.zbuf[32] - 3.0).abs() < 0.05);
        // A sprite in front of the door covers it; one behind the wall does not show.
        let mut spr = Texture::new(4);
        spr.fill_rect(0, 0, 4, 4, [0, 255, 0, 255]);
        let textures = [spr];
        render_sprites(
            &mut data,
            64,
            &view,
            &cam,
            &[
                Sprite {
                    x: 3.0,
                    y: 2.5,
                    tex: 0,
                    width: 0.5,
                    height: 1.0,
                },
                Sprite {
                    x: 1.5,
                    y: 0.5,
                    tex: 0,
                    width: 0.5,
                    height: 1.0,
                },
            ],
            &textures,
            &mut scratch,
        );
        assert_eq!(px(&data, 32, 30), [0, 255, 0, 255]);
    }
}
