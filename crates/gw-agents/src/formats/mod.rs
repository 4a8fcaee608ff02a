//! The formats layer: what models read and write. One provider per wire
//! format, the text protocols for models without native tool calls, the
//! computer-use dialects and lenient JSON. Pure translation: nothing here
//! sends a request or keeps state between calls.

pub mod cua;
pub mod jsonfix;
pub mod protocols;
pub mod providers;

/// `s` cut to at most `max` bytes, at a character boundary.
pub fn capped(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
