//! Screenshots into the runtime's pixmap.

/// Decode a PNG screenshot into `pixmap`, scaled nearest-neighbour when its
/// size differs from the viewport (as the original harness does).
pub fn png_into_pixmap(png_bytes: &[u8], pixmap: &mut tiny_skia::Pixmap) -> Result<(), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("screenshot is not a PNG: {e}"))?;
    let mut buf = vec![0; reader.output_buffer_size().ok_or("screenshot too large")?];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("screenshot PNG: {e}"))?;
    let (sw, sh) = (info.width as usize, info.height as usize);
    let channels = match info.color_type {
        png::ColorType::Rgba => 4,
        png::ColorType::Rgb => 3,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Grayscale => 1,
        other => return Err(format!("screenshot colour type {other:?}")),
    };
    if sw == 0 || sh == 0 {
        return Err("empty screenshot".into());
    }
    let (dw, dh) = (pixmap.width() as usize, pixmap.height() as usize);
    let data = pixmap.data_mut();
    for y in 0..dh {
        let sy = y * sh / dh;
        for x in 0..dw {
            let sx = x * sw / dw;
            let i = (sy * sw + sx) * channels;
            let (r, g, b, a) = match channels {
                4 => (buf[i], buf[i + 1], buf[i + 2], buf[i + 3]),
                3 => (buf[i], buf[i + 1], buf[i + 2], 255),
                2 => (buf[i], buf[i], buf[i], buf[i + 1]),
                _ => (buf[i], buf[i], buf[i], 255),
            };
            // tiny-skia stores premultiplied RGBA.
            let pm = |c: u8| ((c as u16 * a as u16 + 127) / 255) as u8;
            let o = (y * dw + x) * 4;
            data[o..o + 4].copy_from_slice(&[pm(r), pm(g), pm(b), a]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_nearest_and_premultiplies() {
        let mut src = tiny_skia::Pixmap::new(2, 1).unwrap();
        src.data_mut()
            .copy_from_slice(&[255, 0, 0, 255, 0, 0, 255, 255]);
        let png = src.encode_png().unwrap();
        let mut dst = tiny_skia::Pixmap::new(4, 2).unwrap();
        png_into_pixmap(&png, &mut dst).unwrap();
        assert_eq!(&dst.data()[0..4], &[255, 0, 0, 255]);
        assert_eq!(&dst.data()[4..8], &[255, 0, 0, 255]);
        assert_eq!(&dst.data()[8..12], &[0, 0, 255, 255]);
        assert_eq!(&dst.data()[28..32], &[0, 0, 255, 255]);
        assert!(png_into_pixmap(b"nope", &mut dst).is_err());
    }
}
