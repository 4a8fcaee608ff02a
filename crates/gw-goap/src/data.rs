//! Reading a goal-observation-action dataset (the Parquet layout `gameworld
//! world dataset` writes, `gw_owdata::shard::SCHEMA`) into memory: per
//! episode its goal, its frames decoded to RGB at the training resolution
//! (area-resized when the dataset's frames differ), and the action labels.

use crate::config::{BUTTONS, CAMERA_BINS, HOTBAR_CLASSES, NONE_CLASS};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};
use std::path::{Path, PathBuf};

/// One step's action as the heads' classes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Label {
    pub buttons: [bool; 11],
    /// 0 = no change, 1..=9 = slot.
    pub hotbar: u8,
    pub pitch: u8,
    pub yaw: u8,
    pub craft: Option<String>,
    pub smelt: Option<String>,
}

impl Label {
    pub fn from_action(a: &gw_world::action::Action) -> Label {
        use gw_world::action::camera;
        Label {
            buttons: a.buttons(),
            hotbar: a.hotbar.filter(|h| (1..=9).contains(h)).unwrap_or(0),
            pitch: camera::encode(a.pitch) as u8,
            yaw: camera::encode(a.yaw) as u8,
            craft: a.craft.clone(),
            smelt: a.smelt.clone(),
        }
    }

    /// The factored action these classes decode to (camera bins to their
    /// centres, in degrees).
    pub fn to_action(&self) -> gw_world::action::Action {
        use gw_world::action::camera;
        let mut a = gw_world::action::Action {
            hotbar: (self.hotbar > 0).then_some(self.hotbar),
            yaw: camera::decode(self.yaw as u32),
            pitch: camera::decode(self.pitch as u32),
            craft: self.craft.clone(),
            smelt: self.smelt.clone(),
            ..Default::default()
        };
        a.set_buttons(self.buttons);
        a
    }

    /// The previous-action feature vector the network reads: buttons,
    /// one-hot hotbar, pitch and yaw bins, and whether a craft/smelt macro ran.
    pub fn features(&self, out: &mut [f32]) {
        out.fill(0.0);
        for (i, b) in self.buttons.iter().enumerate() {
            out[i] = *b as u8 as f32;
        }
        let mut o = BUTTONS.len();
        out[o + self.hotbar as usize] = 1.0;
        o += HOTBAR_CLASSES;
        out[o + self.pitch as usize] = 1.0;
        o += CAMERA_BINS;
        out[o + self.yaw as usize] = 1.0;
        o += CAMERA_BINS;
        out[o] = (self.craft.is_some() || self.smelt.is_some()) as u8 as f32;
    }
}

/// One episode in memory.
#[derive(Clone, Debug)]
pub struct Episode {
    pub id: String,
    pub task: String,
    pub goal: String,
    /// `steps × height × width × 3` bytes.
    pub frames: Vec<u8>,
    pub labels: Vec<Label>,
}

impl Episode {
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }
}

/// The dataset's episode files: `DIR/data/**/*.parquet` (or `DIR/**/*.parquet`
/// when there is no `data` folder), sorted by path.
pub fn episode_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    if !dir.is_dir() {
        return Err(format!(
            "{}: no such dataset folder (make one with `gameworld world dataset --out DIR`)",
            dir.display()
        ));
    }
    let root = if dir.join("data").is_dir() {
        dir.join("data")
    } else {
        dir.to_path_buf()
    };
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).map_err(|e| format!("{}: cannot list: {e}", d.display()))?;
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "parquet") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn field<'a>(row: &'a Row, name: &str) -> Option<&'a Field> {
    row.get_column_iter()
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, f)| f)
}

fn string(f: Option<&Field>) -> Option<String> {
    match f? {
        Field::Str(s) => Some(s.clone()),
        Field::Bytes(b) => std::str::from_utf8(b.data()).ok().map(str::to_string),
        _ => None,
    }
}

fn action_of(g: &Row) -> Result<gw_world::action::Action, String> {
    let b = |n: &str| match field(g, n) {
        Some(Field::Bool(v)) => Ok(*v),
        _ => Err(format!("action.{n} is missing or not a boolean")),
    };
    let f = |n: &str| match field(g, n) {
        Some(Field::Float(v)) => Ok(*v),
        Some(Field::Double(v)) => Ok(*v as f32),
        _ => Err(format!("action.{n} is missing or not a float")),
    };
    let hotbar = match field(g, "hotbar") {
        Some(Field::Int(v)) => *v,
        _ => return Err("action.hotbar is missing or not an int".into()),
    };
    Ok(gw_world::action::Action {
        forward: b("forward")?,
        back: b("back")?,
        left: b("left")?,
        right: b("right")?,
        jump: b("jump")?,
        sneak: b("sneak")?,
        sprint: b("sprint")?,
        attack: b("attack")?,
        use_item: b("use")?,
        drop: b("drop")?,
        inventory: b("inventory")?,
        hotbar: (1..=9).contains(&hotbar).then_some(hotbar as u8),
        yaw: f("yaw")?,
        pitch: f("pitch")?,
        craft: string(field(g, "craft")),
        smelt: string(field(g, "smelt")),
    })
}

/// Decodes a PNG or JPEG frame to RGB: (width, height, bytes).
pub fn decode_image(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    if bytes.starts_with(&[0x89, b'P', b'N', b'G']) {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
        dec.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = dec.read_info().map_err(|e| format!("bad PNG: {e}"))?;
        let size = reader
            .output_buffer_size()
            .ok_or("bad PNG: image too large")?;
        let mut buf = vec![0; size];
        let info = reader
            .next_frame(&mut buf)
            .map_err(|e| format!("bad PNG: {e}"))?;
        buf.truncate(info.buffer_size());
        let (w, h) = (info.width, info.height);
        let rgb = match info.color_type {
            png::ColorType::Rgb => buf,
            png::ColorType::Rgba => {
                let mut rgb = vec![0; buf.len() / 4 * 3];
                gw_core::frame::rgba_to_rgb(&buf, &mut rgb);
                rgb
            }
            png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g]).collect(),
            png::ColorType::GrayscaleAlpha => buf
                .chunks_exact(2)
                .flat_map(|p| [p[0], p[0], p[0]])
                .collect(),
            png::ColorType::Indexed => return Err("bad PNG: unexpanded palette".into()),
        };
        Ok((w, h, rgb))
    } else if bytes.starts_with(&[0xff, 0xd8]) {
        let mut dec = jpeg_decoder::Decoder::new(bytes);
        let px = dec.decode().map_err(|e| format!("bad JPEG: {e}"))?;
        let info = dec.info().ok_or("bad JPEG: no header")?;
        let rgb = match info.pixel_format {
            jpeg_decoder::PixelFormat::RGB24 => px,
            jpeg_decoder::PixelFormat::L8 => px.iter().flat_map(|&g| [g, g, g]).collect(),
            other => return Err(format!("unsupported JPEG pixel format {other:?}")),
        };
        Ok((info.width as u32, info.height as u32, rgb))
    } else {
        Err("neither PNG nor JPEG".into())
    }
}

/// Area (box) resampling of an RGB image to `w × h`: each output pixel is
/// the coverage-weighted mean of the source pixels under it. The identity
/// when the sizes match.
pub fn resize_area(src: &[u8], sw: u32, sh: u32, w: u32, h: u32) -> Vec<u8> {
    if (sw, sh) == (w, h) {
        return src.to_vec();
    }
    let (sw, sh, w, h) = (sw as usize, sh as usize, w as usize, h as usize);
    // Per output column/row: the source spans and their weights.
    let spans = |s: usize, d: usize| -> Vec<Vec<(usize, f32)>> {
        let scale = s as f64 / d as f64;
        (0..d)
            .map(|o| {
                let (a, b) = (o as f64 * scale, (o + 1) as f64 * scale);
                let mut v = Vec::new();
                let mut i = a.floor() as usize;
                while (i as f64) < b && i < s {
                    let lo = a.max(i as f64);
                    let hi = b.min(i as f64 + 1.0);
                    if hi > lo {
                        v.push((i, ((hi - lo) / scale) as f32));
                    }
                    i += 1;
                }
                v
            })
            .collect()
    };
    let (xs, ys) = (spans(sw, w), spans(sh, h));
    let mut out = vec![0u8; w * h * 3];
    for (oy, yspan) in ys.iter().enumerate() {
        for (ox, xspan) in xs.iter().enumerate() {
            let mut acc = [0f32; 3];
            for &(sy, wy) in yspan {
                for &(sx, wx) in xspan {
                    let p = (sy * sw + sx) * 3;
                    for c in 0..3 {
                        acc[c] += src[p + c] as f32 * wy * wx;
                    }
                }
            }
            for c in 0..3 {
                out[(oy * w + ox) * 3 + c] = acc[c].round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    out
}

/// Reads one episode file; frames come back at `w × h`.
pub fn read_episode(path: &Path, w: u32, h: u32) -> Result<Episode, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: cannot open: {e}"))?;
    let reader =
        SerializedFileReader::new(file).map_err(|e| format!("{name}: not a Parquet file: {e}"))?;
    let rows = reader
        .get_row_iter(None)
        .map_err(|e| format!("{name}: cannot read rows: {e}"))?;
    let mut ep = Episode {
        id: String::new(),
        task: String::new(),
        goal: String::new(),
        frames: Vec::new(),
        labels: Vec::new(),
    };
    let base = data_folder(path);
    for (i, row) in rows.enumerate() {
        let row = row.map_err(|e| format!("{name}: row {i}: {e}"))?;
        if i == 0 {
            ep.id = string(field(&row, "episode_id")).unwrap_or_default();
            ep.task = string(field(&row, "task")).unwrap_or_default();
            ep.goal = string(field(&row, "goal")).ok_or_else(|| {
                format!(
                    "{name}: row {i}: no `goal` column (is this a `gameworld world dataset` file?)"
                )
            })?;
        }
        let Some(Field::Group(frame)) = field(&row, "frame") else {
            return Err(format!("{name}: row {i}: no `frame` column"));
        };
        let bytes = match field(frame, "bytes") {
            Some(Field::Bytes(b)) if !b.data().is_empty() => b.data().to_vec(),
            _ => match string(field(frame, "path")) {
                Some(p) => {
                    let fp = base.join(&p);
                    std::fs::read(&fp)
                        .map_err(|e| format!("{name}: row {i}: frame file {}: {e}", fp.display()))?
                }
                None => {
                    return Err(format!(
                        "{name}: row {i}: the frame has neither bytes nor a path"
                    ));
                }
            },
        };
        let (fw, fh, rgb) =
            decode_image(&bytes).map_err(|e| format!("{name}: row {i}: frame: {e}"))?;
        ep.frames.extend(resize_area(&rgb, fw, fh, w, h));
        let Some(Field::Group(action)) = field(&row, "action") else {
            return Err(format!("{name}: row {i}: no `action` column"));
        };
        let a = action_of(action).map_err(|e| format!("{name}: row {i}: {e}"))?;
        ep.labels.push(Label::from_action(&a));
    }
    Ok(ep)
}

/// The folder frame paths are relative to: the dataset root above `data/`.
fn data_folder(path: &Path) -> PathBuf {
    let mut p = path.parent();
    while let Some(d) = p {
        if d.file_name().is_some_and(|n| n == "data") {
            return d.parent().unwrap_or(d).to_path_buf();
        }
        p = d.parent();
    }
    path.parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// Every episode of a dataset at `w × h`. Fails naming the file when one is
/// unreadable, and when no episode has a frame.
pub fn read_dataset(
    dir: &Path,
    w: u32,
    h: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Vec<Episode>, String> {
    let files = episode_files(dir)?;
    let mut out = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let ep = read_episode(f, w, h)?;
        if !ep.is_empty() {
            out.push(ep);
        }
        progress(i + 1, files.len());
    }
    if out.is_empty() {
        return Err(format!(
            "{}: no usable frames ({} episode files); make a dataset with `gameworld world dataset --out {}`",
            dir.display(),
            files.len(),
            dir.display()
        ));
    }
    Ok(out)
}

/// The craft and smelt classes of a dataset: `none`, then every item named.
pub fn macro_classes(eps: &[Episode]) -> (Vec<String>, Vec<String>) {
    let mut craft = std::collections::BTreeSet::new();
    let mut smelt = std::collections::BTreeSet::new();
    for e in eps {
        for l in &e.labels {
            craft.extend(l.craft.iter().cloned());
            smelt.extend(l.smelt.iter().cloned());
        }
    }
    let with_none = |s: std::collections::BTreeSet<String>| {
        std::iter::once(NONE_CLASS.to_string())
            .chain(s)
            .collect::<Vec<_>>()
    };
    (with_none(craft), with_none(smelt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_resize_averages_blocks() {
        // 4×2 → 2×1: each output pixel is the mean of a 2×2 block.
        let src: Vec<u8> = [0, 10, 20, 30, 40, 50, 60, 70]
            .iter()
            .flat_map(|&v| [v, v, v])
            .collect();
        let out = resize_area(&src, 4, 2, 2, 1);
        assert_eq!(out, vec![25, 25, 25, 45, 45, 45]);
        assert_eq!(resize_area(&src, 4, 2, 4, 2), src);
    }

    #[test]
    fn labels_round_trip_through_actions() {
        let mut a = gw_world::action::Action {
            forward: true,
            attack: true,
            hotbar: Some(3),
            yaw: gw_world::action::camera::snap(4.0),
            craft: Some("planks".into()),
            ..Default::default()
        };
        a.pitch = gw_world::action::camera::snap(-1.0);
        let l = Label::from_action(&a);
        assert_eq!(l.to_action(), a);
        let mut f = vec![0.0; 44];
        l.features(&mut f);
        assert_eq!(f.iter().filter(|&&x| x == 1.0).count(), 2 + 1 + 2 + 1);
    }
}
