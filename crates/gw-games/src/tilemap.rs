//! Tile maps for the platform games, written as text.
//!
//! A level is a block of text, one line per tile row (row 0 at the top), one
//! character per tile; what a character means is up to the game (`#` a solid
//! block, `^` a spike, `.` empty …). Games keep their levels as data files in
//! their own folder and load them with `include_str!`, so a level is edited
//! as a picture rather than as code.
//!
//! Text format understood by [`TileMap::parse`] and [`parse_sections`]:
//! - lines starting with `;` are comments and are skipped;
//! - a line starting with `---` ends one section and starts the next (a game
//!   may build a level from several sections, e.g. segments drawn per seed);
//!   the rest of that line, trimmed, is the next section's label;
//! - rows shorter than the longest row are padded with [`EMPTY`];
//! - trailing empty lines are ignored.
//!
//! Coordinates are in tiles: column `x` grows to the right, row `y` grows
//! downward, tile `(x, y)` covers `[x, x + 1) × [y, y + 1)`.

/// The character that pads short rows and stands for "nothing here".
pub const EMPTY: u8 = b'.';

/// A rectangular grid of tile characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileMap {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

/// One labelled section of a level file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub label: String,
    pub map: TileMap,
}

impl TileMap {
    /// An empty map of `width × height` tiles.
    pub fn new(width: usize, height: usize) -> Self {
        TileMap {
            width,
            height,
            cells: vec![EMPTY; width * height],
        }
    }

    /// Parse one section of text (see the module docs). Errors name the
    /// offending line when the text has no rows or holds non-ASCII tiles.
    pub fn parse(text: &str) -> Result<TileMap, String> {
        let mut rows: Vec<&str> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.starts_with(';') {
                continue;
            }
            if !line.is_ascii() {
                return Err(format!(
                    "line {}: tile rows must be ASCII, got {line:?}",
                    i + 1
                ));
            }
            rows.push(line);
        }
        while rows.last().is_some_and(|r| r.is_empty()) {
            rows.pop();
        }
        while rows.first().is_some_and(|r| r.is_empty()) {
            rows.remove(0);
        }
        if rows.is_empty() {
            return Err("a tile map needs at least one row".into());
        }
        let width = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut map = TileMap::new(width, rows.len());
        for (y, row) in rows.iter().enumerate() {
            for (x, b) in row.bytes().enumerate() {
                map.cells[y * width + x] = if b == b' ' { EMPTY } else { b };
            }
        }
        Ok(map)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The tile at `(x, y)`, or `None` outside the map.
    pub fn get(&self, x: i64, y: i64) -> Option<u8> {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            None
        } else {
            Some(self.cells[y as usize * self.width + x as usize])
        }
    }

    /// The tile at `(x, y)`, or `outside` beyond the map's edges.
    pub fn at(&self, x: i64, y: i64, outside: u8) -> u8 {
        self.get(x, y).unwrap_or(outside)
    }

    /// Overwrite one tile (ignored outside the map).
    pub fn set(&mut self, x: i64, y: i64, tile: u8) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.cells[y as usize * self.width + x as usize] = tile;
        }
    }

    /// Every position holding `tile`, row by row.
    pub fn find_all(&self, tile: u8) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for y in 0..self.height {
            for x in 0..self.width {
                if self.cells[y * self.width + x] == tile {
                    out.push((x as i64, y as i64));
                }
            }
        }
        out
    }

    /// The first position holding `tile`, row by row.
    pub fn find(&self, tile: u8) -> Option<(i64, i64)> {
        self.cells
            .iter()
            .position(|&c| c == tile)
            .map(|i| ((i % self.width) as i64, (i / self.width) as i64))
    }

    /// Append `other` to the right of this map. Both must have the same
    /// height.
    pub fn append(&mut self, other: &TileMap) -> Result<(), String> {
        if self.width == 0 {
            *self = other.clone();
            return Ok(());
        }
        if other.height != self.height {
            return Err(format!(
                "cannot join maps of {} and {} rows",
                self.height, other.height
            ));
        }
        let width = self.width + other.width;
        let mut cells = Vec::with_capacity(width * self.height);
        for y in 0..self.height {
            cells.extend_from_slice(&self.cells[y * self.width..(y + 1) * self.width]);
            cells.extend_from_slice(&other.cells[y * other.width..(y + 1) * other.width]);
        }
        self.width = width;
        self.cells = cells;
        Ok(())
    }

    /// Call `f(x, y, tile)` for every non-empty tile inside the half-open
    /// tile rectangle `[x0, x1) × [y0, y1)` (clipped to the map): the tiles a
    /// camera sees.
    pub fn for_each_in(&self, x0: i64, y0: i64, x1: i64, y1: i64, mut f: impl FnMut(i64, i64, u8)) {
        let (x0, y0) = (x0.max(0), y0.max(0));
        let (x1, y1) = (x1.min(self.width as i64), y1.min(self.height as i64));
        for y in y0..y1 {
            for x in x0..x1 {
                let t = self.cells[y as usize * self.width + x as usize];
                if t != EMPTY {
                    f(x, y, t);
                }
            }
        }
    }

    /// The map as text again (one line per row).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            s.push_str(
                std::str::from_utf8(&self.cells[y * self.width..(y + 1) * self.width])
                    .unwrap_or(""),
            );
            s.push('\n');
        }
        s
    }
}

/// Split a level file into labelled sections separated by `---label` lines
/// and parse each one. A file without separators is one section labelled
/// `""`. Errors name the section.
pub fn parse_sections(text: &str) -> Result<Vec<Section>, String> {
    let mut out = Vec::new();
    let mut label = String::new();
    let mut body = String::new();
    let flush = |label: &str, body: &str, out: &mut Vec<Section>| -> Result<(), String> {
        if body
            .lines()
            .all(|l| l.trim().is_empty() || l.starts_with(';'))
        {
            return Ok(());
        }
        let map = TileMap::parse(body).map_err(|e| format!("section {label:?}: {e}"))?;
        out.push(Section {
            label: label.to_string(),
            map,
        });
        Ok(())
    };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("---") {
            flush(&label, &body, &mut out)?;
            label = rest.trim().trim_matches('-').trim().to_string();
            body.clear();
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    flush(&label, &body, &mut out)?;
    if out.is_empty() {
        return Err("the level file holds no tile rows".into());
    }
    Ok(out)
}

/// Shortest path length, in tiles, from every tile of `map` to the nearest
/// of `goals`, moving between tiles `passable` accepts in eight directions
/// (a diagonal step only where both tiles beside it are passable, so paths
/// never cut a corner). Indexed `y * width + x`; `f64::INFINITY` where no
/// goal can be reached. Experts use it as a distance-to-exit that follows
/// the level's corridors instead of a straight line through walls.
pub fn distance_field(
    map: &TileMap,
    goals: &[(i64, i64)],
    passable: impl Fn(u8) -> bool,
) -> Vec<f64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let (w, h) = (map.width as i64, map.height as i64);
    let open = |x: i64, y: i64| map.get(x, y).is_some_and(&passable);
    // Integer costs (10 straight, 14 diagonal) keep the search exact.
    let mut cost = vec![u32::MAX; map.cells.len()];
    let mut heap = BinaryHeap::new();
    for &(x, y) in goals {
        if x >= 0 && y >= 0 && x < w && y < h {
            cost[(y * w + x) as usize] = 0;
            heap.push(Reverse((0u32, y, x)));
        }
    }
    while let Some(Reverse((c, y, x))) = heap.pop() {
        if c > cost[(y * w + x) as usize] {
            continue;
        }
        for (dx, dy) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (nx, ny) = (x + dx, y + dy);
            if !open(nx, ny) {
                continue;
            }
            let step = if dx != 0 && dy != 0 {
                if !open(x + dx, y) || !open(x, y + dy) {
                    continue;
                }
                14
            } else {
                10
            };
            let i = (ny * w + nx) as usize;
            if c + step < cost[i] {
                cost[i] = c + step;
                heap.push(Reverse((c + step, ny, nx)));
            }
        }
    }
    cost.iter()
        .map(|&c| {
            if c == u32::MAX {
                f64::INFINITY
            } else {
                c as f64 / 10.0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rows_pads_and_skips_comments() {
        let m = TileMap::parse("; a comment\n..#\n#\n\n").unwrap();
        assert_eq!((m.width(), m.height()), (3, 2));
        assert_eq!(m.get(2, 0), Some(b'#'));
        assert_eq!(m.get(1, 1), Some(EMPTY), "short rows are padded");
        assert_eq!(m.get(3, 0), None);
        assert_eq!(m.at(-1, 0, b'#'), b'#');
        assert_eq!(m.find(b'#'), Some((2, 0)));
        assert_eq!(m.find_all(b'#'), vec![(2, 0), (0, 1)]);
        assert_eq!(m.to_text(), "..#\n#..\n");
    }

    #[test]
    fn rejects_empty_and_non_ascii_maps() {
        assert!(TileMap::parse("\n; only a comment\n").is_err());
        let e = TileMap::parse("..\n.é\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn sections_split_on_dashes_and_join_side_by_side() {
        let secs = parse_sections("---start\n#.\n##\n--- gap ---\n.\n#\n").unwrap();
        assert_eq!(secs.len(), 2);
        assert_eq!(secs[0].label, "start");
        assert_eq!(secs[1].label, "gap");
        let mut m = secs[0].map.clone();
        m.append(&secs[1].map).unwrap();
        assert_eq!(m.to_text(), "#..\n###\n");
        let tall = TileMap::parse("#\n#\n#").unwrap();
        assert!(m.append(&tall).is_err());
    }

    #[test]
    fn for_each_in_clips_and_skips_empty_tiles() {
        let m = TileMap::parse("#.#\n.#.\n").unwrap();
        let mut seen = Vec::new();
        m.for_each_in(-5, -5, 2, 9, |x, y, t| seen.push((x, y, t)));
        assert_eq!(seen, vec![(0, 0, b'#'), (1, 1, b'#')]);
    }
    #[test]
    fn distance_field_follows_corridors_and_marks_unreachable_tiles() {
        let m = TileMap::parse("....#..\n.##.#..\n....#..\n").unwrap();
        let d = distance_field(&m, &[(0, 0)], |t| t != b'#');
        let at = |x: usize, y: usize| d[y * m.width() + x];
        assert_eq!(at(0, 0), 0.0);
        assert_eq!(at(3, 0), 3.0);
        // Around the block, no corner cutting: (3,0) then down two.
        assert_eq!(at(3, 2), 5.0);
        assert_eq!(at(1, 2), 3.0, "no diagonal past the block's corner");
        let open = TileMap::parse("...\n...\n").unwrap();
        let d2 = distance_field(&open, &[(0, 0)], |_| true);
        assert!((d2[4] - 1.4).abs() < 1e-9, "a diagonal step in the open");
        assert!(at(5, 1).is_infinite(), "walled off");
        assert!(at(4, 1).is_infinite(), "a wall tile itself");
    }
}
