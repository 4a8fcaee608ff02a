//! How dataset frames are stored: JPEG (the default, quality
//! [`JPEG_QUALITY`], 4:2:0 chroma) or PNG (lossless, `--frame-format png`).
//! Either way the `frame` column is a `{bytes, path}` struct that Hugging
//! Face `datasets` decodes as an `Image`.

use serde::{Deserialize, Serialize};

/// JPEG quality of the default encoding.
pub const JPEG_QUALITY: u8 = 88;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FrameFormat {
    #[default]
    Jpeg,
    Png,
}

impl FrameFormat {
    pub fn parse(s: &str) -> Result<FrameFormat, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "jpeg" | "jpg" => Ok(FrameFormat::Jpeg),
            "png" => Ok(FrameFormat::Png),
            other => Err(format!(
                "--frame-format \"{other}\" is not a frame format; use jpeg (compact, the default) or png (lossless)"
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FrameFormat::Jpeg => "jpeg",
            FrameFormat::Png => "png",
        }
    }

    /// The format shard stats files written before the choice existed used.
    pub fn legacy() -> FrameFormat {
        FrameFormat::Png
    }

    /// Encode `width` × `height` RGBA pixels.
    pub fn encode(self, rgba: &[u8], width: u32, height: u32) -> Vec<u8> {
        match self {
            FrameFormat::Png => {
                gw_core::frame::encode_pixels(rgba, 4, width, height, gw_core::frame::FRAME_FILTER)
            }
            FrameFormat::Jpeg => {
                let mut out = Vec::with_capacity(64 * 1024);
                let mut enc = jpeg_encoder::Encoder::new(&mut out, JPEG_QUALITY);
                // The crate keeps full chroma at high quality unless told.
                enc.set_sampling_factor(jpeg_encoder::SamplingFactor::F_2_2);
                // Chroma averaged over each 2×2 block (as libjpeg does) rather
                // than taken from its top-left pixel, and Huffman tables fitted
                // to the frame (two passes): at 640×360 these and quality 88
                // bring a frame from ≈ 64 KB (quality 90, standard tables)
                // under 60 KB.
                enc.set_chroma_subsampling_method(jpeg_encoder::ChromaSubsamplingMethod::Average);
                enc.set_optimized_huffman_tables(true);
                enc.encode(
                    rgba,
                    width as u16,
                    height as u16,
                    jpeg_encoder::ColorType::Rgba,
                )
                .expect("a frame of at most 4096×4096 pixels encodes");
                out
            }
        }
    }
}
