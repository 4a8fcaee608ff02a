//! One episode's records as a Parquet file, written with the `parquet`
//! crate's low-level column writer (no arrow): nested columns get their
//! definition and repetition levels by hand, in schema (depth-first) order.
//!
//! The schema ([`SCHEMA`]) is the one the dataset card describes: `frame` is
//! a `{bytes, path}` struct, the layout Hugging Face `datasets` decodes as an
//! `Image` feature; `inventory` is a LIST of `{item, count}`.

use crate::episode::StepRecord;
use parquet::basic::Compression;
use parquet::data_type::{
    BoolType, ByteArray, ByteArrayType, DataType, DoubleType, FloatType, Int32Type, Int64Type,
};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::{SerializedFileWriter, SerializedRowGroupWriter};
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::ColumnPath;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The Parquet schema of every data file.
pub const SCHEMA: &str = "
message gameworld_goal_observation_action {
  required binary task (STRING);
  required binary episode_id (STRING);
  required int32 episode;
  required int64 seed (INTEGER(64,false));
  required int32 step;
  required int32 episode_steps;
  required binary goal (STRING);
  required group frame {
    required binary bytes;
    optional binary path (STRING);
  }
  required group action {
    required boolean forward;
    required boolean back;
    required boolean left;
    required boolean right;
    required boolean jump;
    required boolean sneak;
    required boolean sprint;
    required boolean attack;
    required boolean use;
    required boolean drop;
    required boolean inventory;
    required int32 hotbar;
    required float yaw;
    required float pitch;
    optional binary craft (STRING);
    optional binary smelt (STRING);
  }
  required group vpt_action {
    required int32 buttons;
    required int32 camera;
  }
  required group inventory (LIST) {
    repeated group list {
      required group element {
        required binary item (STRING);
        required int32 count;
      }
    }
  }
  required group position {
    required double x;
    required double y;
    required double z;
    required float yaw;
    required float pitch;
  }
  required float reward;
  required float progress;
  required boolean done;
}
";

/// Rows per row group: about 64 × 40 KB = 2.5 MB of JPEG at 640×360, small
/// enough to stream an episode, large enough for efficient scans.
pub const ROWS_PER_GROUP: usize = 64;

/// The columns shared by every row of one episode.
#[derive(Clone, Debug)]
pub struct EpisodeMeta {
    pub task: String,
    pub episode_id: String,
    pub episode: u32,
    pub seed: u64,
    pub steps: u32,
    pub goal: String,
}

/// Streams one episode's records into `path` (written to a temporary file
/// beside it and renamed on [`EpisodeWriter::finish`]).
pub struct EpisodeWriter {
    meta: EpisodeMeta,
    writer: SerializedFileWriter<File>,
    pending: Vec<StepRecord>,
    tmp: PathBuf,
    path: PathBuf,
    rows: usize,
    frame_bytes: u64,
}

fn props() -> Arc<WriterProperties> {
    let frame = ColumnPath::from(vec!["frame".to_string(), "bytes".to_string()]);
    Arc::new(
        WriterProperties::builder()
            .set_created_by("gameworld-rs gw-owdata".to_string())
            .set_compression(Compression::SNAPPY)
            // JPEG/PNG bytes are compressed already and never repeat.
            .set_column_compression(frame.clone(), Compression::UNCOMPRESSED)
            .set_column_dictionary_enabled(frame.clone(), false)
            .set_column_statistics_enabled(frame, EnabledStatistics::None)
            .build(),
    )
}

impl EpisodeWriter {
    pub fn create(path: &Path, meta: EpisodeMeta) -> Result<Self, String> {
        let tmp = path.with_extension("parquet.tmp");
        let file =
            File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        let schema = Arc::new(parse_message_type(SCHEMA).expect("the schema parses"));
        let writer = SerializedFileWriter::new(file, schema, props()).map_err(|e| e.to_string())?;
        Ok(EpisodeWriter {
            meta,
            writer,
            pending: Vec::with_capacity(ROWS_PER_GROUP),
            tmp,
            path: path.to_path_buf(),
            rows: 0,
            frame_bytes: 0,
        })
    }

    pub fn push(&mut self, r: StepRecord) -> Result<(), String> {
        self.frame_bytes += r.frame.len() as u64;
        self.pending.push(r);
        if self.pending.len() >= ROWS_PER_GROUP {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), String> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut rg = self.writer.next_row_group().map_err(|e| e.to_string())?;
        write_group(&mut rg, &self.meta, &self.pending).map_err(|e| e.to_string())?;
        rg.close().map_err(|e| e.to_string())?;
        self.rows += self.pending.len();
        self.pending.clear();
        Ok(())
    }

    /// Close the file and move it into place; returns (rows, total frame bytes).
    pub fn finish(mut self) -> Result<(usize, u64), String> {
        self.flush()?;
        self.writer.close().map_err(|e| e.to_string())?;
        std::fs::rename(&self.tmp, &self.path)
            .map_err(|e| format!("cannot move {} into place: {e}", self.path.display()))?;
        Ok((self.rows, self.frame_bytes))
    }

    /// Give up: remove the temporary file.
    pub fn abandon(self) {
        drop(self.writer);
        let _ = std::fs::remove_file(&self.tmp);
    }
}

/// Write the next column of the row group.
fn col<T: DataType>(
    rg: &mut SerializedRowGroupWriter<'_, File>,
    values: &[T::T],
    def: Option<&[i16]>,
    rep: Option<&[i16]>,
) -> Result<(), ParquetError> {
    let mut c = rg
        .next_column()?
        .ok_or_else(|| ParquetError::General("the schema has fewer columns than written".into()))?;
    c.typed::<T>().write_batch(values, def, rep)?;
    c.close()
}

fn text(s: &str) -> ByteArray {
    ByteArray::from(s.as_bytes().to_vec())
}

/// An optional string column: values for the present ones, definition level 1/0.
fn optional(items: impl Iterator<Item = Option<String>>) -> (Vec<ByteArray>, Vec<i16>) {
    let mut values = Vec::new();
    let mut def = Vec::new();
    for it in items {
        match it {
            Some(s) => {
                values.push(text(&s));
                def.push(1);
            }
            None => def.push(0),
        }
    }
    (values, def)
}

fn write_group(
    rg: &mut SerializedRowGroupWriter<'_, File>,
    m: &EpisodeMeta,
    rows: &[StepRecord],
) -> Result<(), ParquetError> {
    let n = rows.len();
    let same = |s: &str| vec![text(s); n];
    col::<ByteArrayType>(rg, &same(&m.task), None, None)?;
    col::<ByteArrayType>(rg, &same(&m.episode_id), None, None)?;
    col::<Int32Type>(rg, &vec![m.episode as i32; n], None, None)?;
    // UINT64 is stored in INT64's bits.
    col::<Int64Type>(rg, &vec![m.seed as i64; n], None, None)?;
    let ints = |f: &dyn Fn(&StepRecord) -> i32| rows.iter().map(f).collect::<Vec<i32>>();
    col::<Int32Type>(rg, &ints(&|r| r.step as i32), None, None)?;
    col::<Int32Type>(rg, &vec![m.steps as i32; n], None, None)?;
    col::<ByteArrayType>(rg, &same(&m.goal), None, None)?;
    // frame {bytes, path = null}
    let frames: Vec<ByteArray> = rows
        .iter()
        .map(|r| ByteArray::from(r.frame.clone()))
        .collect();
    col::<ByteArrayType>(rg, &frames, None, None)?;
    col::<ByteArrayType>(rg, &[], Some(&vec![0; n]), None)?;
    // action
    let flags: [fn(&gw_world::Action) -> bool; 11] = [
        |a| a.forward,
        |a| a.back,
        |a| a.left,
        |a| a.right,
        |a| a.jump,
        |a| a.sneak,
        |a| a.sprint,
        |a| a.attack,
        |a| a.use_item,
        |a| a.drop,
        |a| a.inventory,
    ];
    for f in flags {
        let v: Vec<bool> = rows.iter().map(|r| f(&r.action)).collect();
        col::<BoolType>(rg, &v, None, None)?;
    }
    col::<Int32Type>(
        rg,
        &ints(&|r| r.action.hotbar.unwrap_or(0) as i32),
        None,
        None,
    )?;
    let floats = |f: &dyn Fn(&StepRecord) -> f32| rows.iter().map(f).collect::<Vec<f32>>();
    col::<FloatType>(rg, &floats(&|r| r.action.yaw), None, None)?;
    col::<FloatType>(rg, &floats(&|r| r.action.pitch), None, None)?;
    for f in [
        |r: &StepRecord| r.action.craft.clone(),
        |r: &StepRecord| r.action.smelt.clone(),
    ] {
        let (v, def) = optional(rows.iter().map(f));
        col::<ByteArrayType>(rg, &v, Some(&def), None)?;
    }
    // vpt_action
    col::<Int32Type>(rg, &ints(&|r| r.vpt.buttons as i32), None, None)?;
    col::<Int32Type>(rg, &ints(&|r| r.vpt.camera as i32), None, None)?;
    // inventory: list<{item, count}>; an empty list is one level (def 0, rep 0).
    let (mut items, mut counts, mut def, mut rep) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for r in rows {
        if r.inventory.is_empty() {
            def.push(0);
            rep.push(0);
        }
        for (i, (item, count)) in r.inventory.iter().enumerate() {
            items.push(text(item));
            counts.push(*count as i32);
            def.push(1);
            rep.push(if i == 0 { 0 } else { 1 });
        }
    }
    col::<ByteArrayType>(rg, &items, Some(&def), Some(&rep))?;
    col::<Int32Type>(rg, &counts, Some(&def), Some(&rep))?;
    // position
    for axis in 0..3 {
        let v: Vec<f64> = rows.iter().map(|r| r.position[axis]).collect();
        col::<DoubleType>(rg, &v, None, None)?;
    }
    col::<FloatType>(rg, &floats(&|r| r.yaw), None, None)?;
    col::<FloatType>(rg, &floats(&|r| r.pitch), None, None)?;
    col::<FloatType>(rg, &floats(&|r| r.reward), None, None)?;
    col::<FloatType>(rg, &floats(&|r| r.progress), None, None)?;
    let done: Vec<bool> = rows.iter().map(|r| r.done).collect();
    col::<BoolType>(rg, &done, None, None)?;
    if rg.next_column()?.is_some() {
        return Err(ParquetError::General(
            "the schema has more columns than written".into(),
        ));
    }
    Ok(())
}
