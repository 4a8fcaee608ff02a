//! The project's span rasteriser for convex polygons: which pixels a
//! polygon covers, row by row, by the pixel-centre rule.
//!
//! A pixel `(x, y)` is covered when its centre `(x + 0.5, y + 0.5)` lies in
//! the half-open polygon: rows `ymin ≤ y + 0.5 < ymax`, columns
//! `xl ≤ x + 0.5 < xr` where `xl`, `xr` are the polygon's left and right
//! edges at the row's centre. Every edge is evaluated from its upper end
//! (the one with the smaller `y`, ties by `x`), so two polygons that share
//! an edge compute the same crossing for it: they neither overlap nor leave
//! a gap between them. Everything is plain `f64` in a fixed order, so the
//! spans are the same on every machine and for every split of the screen
//! into bands.

/// One edge of a polygon, set up once: rows `y0 ≤ yc < y1` cross it at
/// `x0 + (yc - y0) · slope`.
#[derive(Clone, Copy, Debug)]
struct Edge {
    y0: f64,
    y1: f64,
    x0: f64,
    slope: f64,
}

/// The smallest integer `i` with `i ≥ v - 0.5`, i.e. the first pixel whose
/// centre is at or past `v`, clamped to `lo..=hi`.
#[inline]
fn first_centre(v: f64, lo: i64, hi: i64) -> i64 {
    let c = v - 0.5;
    if c.is_nan() {
        return hi;
    }
    if c <= lo as f64 {
        return lo;
    }
    if c >= hi as f64 {
        return hi;
    }
    let t = c as i64;
    if (t as f64) < c { t + 1 } else { t }
}

/// Calls `span(y, x0, x1)` for every row `y` in `rows.0..rows.1` (pixel
/// rows) that the convex polygon `poly` (pixel coordinates, in order
/// around its boundary, either winding) covers, with the covered columns
/// `x0..x1` clipped to `0..w` (non-empty).
pub fn spans(
    poly: &[[f64; 2]],
    w: usize,
    rows: (usize, usize),
    mut span: impl FnMut(usize, usize, usize),
) {
    let n = poly.len();
    if n < 3 {
        return;
    }
    let mut edges = [Edge {
        y0: 0.0,
        y1: 0.0,
        x0: 0.0,
        slope: 0.0,
    }; 12];
    let mut k = 0;
    let (mut ymin, mut ymax) = (f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..n.min(12) {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        ymin = ymin.min(a[1]);
        ymax = ymax.max(a[1]);
        if a[1] == b[1] {
            continue;
        }
        // From the upper end, whichever way the polygon runs.
        let (p, q) = if (a[1], a[0]) < (b[1], b[0]) {
            (a, b)
        } else {
            (b, a)
        };
        edges[k] = Edge {
            y0: p[1],
            y1: q[1],
            x0: p[0],
            slope: (q[0] - p[0]) / (q[1] - p[1]),
        };
        k += 1;
    }
    let edges = &edges[..k];
    let (r0, r1) = (rows.0 as i64, rows.1 as i64);
    let ya = first_centre(ymin, r0, r1);
    let yb = first_centre(ymax, r0, r1);
    for y in ya..yb {
        let yc = y as f64 + 0.5;
        let (mut xl, mut xr) = (f64::INFINITY, f64::NEG_INFINITY);
        for e in edges {
            if yc >= e.y0 && yc < e.y1 {
                let x = e.x0 + (yc - e.y0) * e.slope;
                xl = xl.min(x);
                xr = xr.max(x);
            }
        }
        if xl >= xr {
            continue;
        }
        let x0 = first_centre(xl, 0, w as i64);
        let x1 = first_centre(xr, 0, w as i64);
        if x0 < x1 {
            span(y as usize, x0 as usize, x1 as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cover(poly: &[[f64; 2]], w: usize, h: usize) -> Vec<u8> {
        let mut m = vec![0u8; w * h];
        spans(poly, w, (0, h), |y, x0, x1| {
            for x in x0..x1 {
                m[y * w + x] += 1;
            }
        });
        m
    }

    #[test]
    fn covers_the_pixels_whose_centres_lie_inside() {
        // A square from (1, 1) to (3, 3): centres 1.5 and 2.5 in each axis.
        let m = cover(&[[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]], 5, 5);
        let want: Vec<u8> = (0..25)
            .map(|i| u8::from((1..3).contains(&(i % 5)) && (1..3).contains(&(i / 5))))
            .collect();
        assert_eq!(m, want);
        // A triangle: the centre (0.5, 0.5) is inside, (1.5, 0.5) is not.
        let t = cover(&[[0.0, 0.0], [1.6, 0.0], [0.0, 1.6]], 2, 2);
        assert_eq!(t, vec![1, 0, 0, 0]);
    }

    #[test]
    fn polygons_sharing_edges_neither_overlap_nor_leave_gaps() {
        // A fan of triangles around an off-grid centre covers a square
        // exactly once, whichever way each triangle winds.
        let c = [7.31, 5.77];
        let ring = [
            [0.2, 0.3],
            [6.6, 0.1],
            [15.9, 0.3],
            [15.8, 9.1],
            [15.9, 15.7],
            [8.4, 15.9],
            [0.1, 15.8],
            [0.3, 7.7],
        ];
        let mut total = vec![0u8; 16 * 16];
        for i in 0..ring.len() {
            let (a, b) = (ring[i], ring[(i + 1) % ring.len()]);
            let tri = if i % 2 == 0 { [c, a, b] } else { [b, a, c] };
            for (t, m) in total.iter_mut().zip(cover(&tri, 16, 16)) {
                *t += m;
            }
        }
        let whole = cover(&ring, 16, 16);
        assert_eq!(total, whole);
        assert!(total.iter().all(|&v| v <= 1));
        assert!(whole.iter().filter(|&&v| v == 1).count() > 200);
    }

    #[test]
    fn rows_outside_the_range_and_columns_off_screen_are_clipped() {
        let poly = [[-5.0, -5.0], [50.0, -5.0], [50.0, 50.0], [-5.0, 50.0]];
        let mut rows = Vec::new();
        spans(&poly, 8, (2, 5), |y, x0, x1| rows.push((y, x0, x1)));
        assert_eq!(rows, vec![(2, 0, 8), (3, 0, 8), (4, 0, 8)]);
    }
}
