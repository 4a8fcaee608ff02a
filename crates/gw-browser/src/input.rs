//! Atomic input events as CDP `Input.dispatchKeyEvent` /
//! `Input.dispatchMouseEvent`, with the DOM `key`, `code` and `keyCode` a
//! real US keyboard would produce. Holds are the stepper's waits on the game
//! clock between key_down and key_up (no auto-repeat, like Playwright).

use crate::launch::Chromium;
use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams, DispatchMouseEventType,
    MouseButton as CdpButton,
};
use gw_core::action::{InputEvent, MouseButton};

/// Held modifiers and buttons and the pointer position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InputState {
    pub modifiers: i64,
    pub buttons: i64,
    pub x: f64,
    pub y: f64,
}

/// What the page sees for one key.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyInfo {
    pub key: String,
    pub code: String,
    pub key_code: i64,
    /// Text a key press inserts (printable keys and Enter).
    pub text: Option<String>,
    /// CDP modifier bit when this key is a modifier.
    pub modifier: i64,
}

/// Map a canonical key (gw-core's `canonical_key`: `ArrowLeft`, `Space`,
/// `a`, `Enter`, `Shift`…) to its DOM key, code and keyCode. `shift` gives
/// the shifted letter.
pub fn key_info(canonical: &str, shift: bool) -> KeyInfo {
    let named = |key: &str, code: &str, key_code: i64, modifier: i64| KeyInfo {
        key: key.into(),
        code: code.into(),
        key_code,
        text: None,
        modifier,
    };
    match canonical {
        "Space" => {
            return KeyInfo {
                text: Some(" ".into()),
                ..named(" ", "Space", 32, 0)
            };
        }
        "Enter" => {
            return KeyInfo {
                text: Some("\r".into()),
                ..named("Enter", "Enter", 13, 0)
            };
        }
        "Shift" => return named("Shift", "ShiftLeft", 16, 8),
        "Control" => return named("Control", "ControlLeft", 17, 2),
        "Alt" => return named("Alt", "AltLeft", 18, 1),
        "Meta" => return named("Meta", "MetaLeft", 91, 4),
        _ => {}
    }
    let mut chars = canonical.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        if c.is_ascii_alphabetic() {
            let lower = c.to_ascii_lowercase();
            let key = if shift { c.to_ascii_uppercase() } else { lower };
            return KeyInfo {
                key: key.to_string(),
                code: format!("Key{}", lower.to_ascii_uppercase()),
                key_code: lower.to_ascii_uppercase() as i64,
                text: Some(key.to_string()),
                modifier: 0,
            };
        }
        if c.is_ascii_digit() {
            return KeyInfo {
                key: c.to_string(),
                code: format!("Digit{c}"),
                key_code: c as i64,
                text: Some(c.to_string()),
                modifier: 0,
            };
        }
    }
    match chromiumoxide::keys::get_key_definition(canonical) {
        Some(def) => {
            let printable = def.key.chars().count() == 1;
            KeyInfo {
                key: def.key.to_string(),
                code: def.code.to_string(),
                key_code: def.key_code,
                text: def
                    .text
                    .map(str::to_string)
                    .or_else(|| printable.then(|| def.key.to_string())),
                modifier: 0,
            }
        }
        None => named(canonical, "", 0, 0),
    }
}

fn cdp_button(b: MouseButton) -> (CdpButton, i64) {
    match b {
        MouseButton::Left => (CdpButton::Left, 1),
        MouseButton::Right => (CdpButton::Right, 2),
        MouseButton::Middle => (CdpButton::Middle, 4),
    }
}

fn mouse(
    kind: DispatchMouseEventType,
    s: &InputState,
    button: CdpButton,
) -> DispatchMouseEventParams {
    let mut p = DispatchMouseEventParams::new(kind, s.x, s.y);
    p.modifiers = Some(s.modifiers);
    p.button = Some(button);
    p.buttons = Some(s.buttons);
    p
}

/// Deliver one event to the page.
pub fn dispatch(
    chromium: &Chromium,
    page: &Page,
    state: &mut InputState,
    event: &InputEvent,
) -> Result<(), String> {
    let err = |e: chromiumoxide::error::CdpError| e.to_string();
    match event {
        InputEvent::KeyDown { key } | InputEvent::KeyUp { key } => {
            let down = matches!(event, InputEvent::KeyDown { .. });
            let info = key_info(key, state.modifiers & 8 != 0);
            if info.modifier != 0 {
                if down {
                    state.modifiers |= info.modifier;
                } else {
                    state.modifiers &= !info.modifier;
                }
            }
            let kind = match (down, &info.text) {
                (false, _) => DispatchKeyEventType::KeyUp,
                (true, Some(_)) => DispatchKeyEventType::KeyDown,
                (true, None) => DispatchKeyEventType::RawKeyDown,
            };
            let mut p = DispatchKeyEventParams::new(kind);
            p.modifiers = Some(state.modifiers);
            p.key = Some(info.key.clone());
            p.code = Some(info.code.clone());
            p.windows_virtual_key_code = Some(info.key_code);
            p.native_virtual_key_code = Some(info.key_code);
            if down {
                p.text = info.text.clone();
                p.unmodified_text = info.text.clone();
            }
            chromium.block_on(page.execute(p)).map_err(err)?;
        }
        InputEvent::MouseMove { x, y } => {
            state.x = *x as f64;
            state.y = *y as f64;
            let p = mouse(DispatchMouseEventType::MouseMoved, state, CdpButton::None);
            chromium.block_on(page.execute(p)).map_err(err)?;
        }
        InputEvent::MouseDown { x, y, button } | InputEvent::MouseUp { x, y, button } => {
            let down = matches!(event, InputEvent::MouseDown { .. });
            state.x = *x as f64;
            state.y = *y as f64;
            let (b, bit) = cdp_button(*button);
            if down {
                state.buttons |= bit;
            } else {
                state.buttons &= !bit;
            }
            let kind = if down {
                DispatchMouseEventType::MousePressed
            } else {
                DispatchMouseEventType::MouseReleased
            };
            let mut p = mouse(kind, state, b);
            p.click_count = Some(1);
            chromium.block_on(page.execute(p)).map_err(err)?;
        }
        InputEvent::Scroll { x, y, dx, dy } => {
            state.x = *x as f64;
            state.y = *y as f64;
            let mut p = mouse(DispatchMouseEventType::MouseWheel, state, CdpButton::None);
            p.delta_x = Some(*dx as f64);
            p.delta_y = Some(*dy as f64);
            chromium.block_on(page.execute(p)).map_err(err)?;
        }
        // The stepper refuses native actions for games without one
        // (`Game::check_native`), so none reaches a page.
        InputEvent::Native { .. } => {
            return Err("browser games take no native (open-world) actions".into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_dom_names() {
        let k = key_info("ArrowLeft", false);
        assert_eq!(
            (k.key.as_str(), k.code.as_str(), k.key_code),
            ("ArrowLeft", "ArrowLeft", 37)
        );
        assert_eq!(k.text, None);
        let s = key_info("Space", false);
        assert_eq!(
            (s.key.as_str(), s.code.as_str(), s.key_code),
            (" ", "Space", 32)
        );
        let a = key_info("a", false);
        assert_eq!(
            (a.key.as_str(), a.code.as_str(), a.key_code),
            ("a", "KeyA", 65)
        );
        assert_eq!(key_info("a", true).key, "A");
        let d = key_info("7", false);
        assert_eq!((d.code.as_str(), d.key_code), ("Digit7", 55));
        let sh = key_info("Shift", false);
        assert_eq!(
            (sh.code.as_str(), sh.key_code, sh.modifier),
            ("ShiftLeft", 16, 8)
        );
        let e = key_info("Escape", false);
        assert_eq!((e.code.as_str(), e.key_code), ("Escape", 27));
        assert_eq!(key_info("Enter", false).text.as_deref(), Some("\r"));
    }
}
