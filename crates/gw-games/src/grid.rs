//! The four grid directions shared by the grid games (2048, Snake, Pac-Man):
//! their cell step, arrow key, control id and state name.

/// One of the four grid directions. The order of the variants is the order
/// Snake's expert packs a direction into a search key (`dir as usize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// Cell step `(dx, dy)` with y pointing down.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (0, -1),
            Dir::Down => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Right => (1, 0),
        }
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    pub fn horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }

    /// The semantic control that moves this way (`move_up`, ...).
    pub fn control_id(self) -> &'static str {
        match self {
            Dir::Up => "move_up",
            Dir::Down => "move_down",
            Dir::Left => "move_left",
            Dir::Right => "move_right",
        }
    }

    /// The name used in game states (`up`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }

    /// The direction of an arrow key (`ArrowUp`, ...), if `key` is one.
    pub fn from_arrow_key(key: &str) -> Option<Dir> {
        match key {
            "ArrowUp" => Some(Dir::Up),
            "ArrowDown" => Some(Dir::Down),
            "ArrowLeft" => Some(Dir::Left),
            "ArrowRight" => Some(Dir::Right),
            _ => None,
        }
    }
}
