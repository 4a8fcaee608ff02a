//! A panic hook that prints the panic through the same redaction as every
//! other line on stderr: a panic message can carry a provider's error body,
//! a request URL or a header, and with them an API key or terminal escape
//! sequences. The default hook would print those verbatim.

use std::any::Any;
use std::backtrace::{Backtrace, BacktraceStatus};
use std::io::Write;
use std::panic::PanicHookInfo;

/// Replace the default panic hook with the redacting one.
pub fn install() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo<'_>| {
        if stdout_closed(info.payload()) {
            // Whoever read the output went away (`gameworld list tasks |
            // head -1`): stop quietly, with the status of a Unix tool that
            // SIGPIPE ended (128 + 13), instead of a panic and a backtrace.
            std::process::exit(141);
        }
        let thread = std::thread::current();
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        let backtrace = Backtrace::capture();
        let trace =
            (backtrace.status() == BacktraceStatus::Captured).then(|| backtrace.to_string());
        let out = report(
            thread.name(),
            location.as_deref(),
            info.payload(),
            trace.as_deref(),
        );
        // One write, so lines of panics in parallel runs do not interleave;
        // nothing more can be done if stderr itself fails.
        let _ = std::io::stderr().lock().write_all(out.as_bytes());
    }));
}

/// A panic's message (`Box<dyn Any>` when it carries no text).
fn message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("Box<dyn Any>")
}

/// Whether the panic is `println!`'s on a stdout whose reader has gone
/// (EPIPE: the runtime ignores SIGPIPE, so the write fails instead).
fn stdout_closed(payload: &(dyn Any + Send)) -> bool {
    let message = message(payload);
    message.starts_with("failed printing to stdout")
        && (message.contains("os error 32") || message.contains("Broken pipe"))
}

/// The text the hook prints: the default hook's layout, with the message
/// (and the backtrace, when `RUST_BACKTRACE` asks for one) passed through
/// `gw_agents::secrets::terminal` (secrets masked, control sequences gone).
fn report(
    thread: Option<&str>,
    location: Option<&str>,
    payload: &(dyn Any + Send),
    backtrace: Option<&str>,
) -> String {
    let message = message(payload);
    let clean = gw_agents::secrets::terminal;
    let mut out = format!(
        "thread '{}' panicked at {}:\n{}\n",
        clean(thread.unwrap_or("<unnamed>")),
        clean(location.unwrap_or("<unknown>")),
        clean(message)
    );
    match backtrace {
        Some(trace) => {
            out.push_str("stack backtrace:\n");
            out.push_str(&clean(trace));
            if !out.ends_with('\n') {
                out.push('\n');
            }
        }
        None => out.push_str(
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
        ),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_text_masks_secrets_and_strips_escapes() {
        let key = "sk-panic-hook-test-0123456789";
        gw_agents::secrets::register(key);
        let msg = format!(
            "provider said \u{1b}[31mHTTP 401\u{1b}[0m for key {key}\u{1b}]0;title\u{7}\nretry later"
        );
        let payload: Box<dyn Any + Send> = Box::new(msg);
        let out = report(Some("main"), Some("src/x.rs:3:5"), &*payload, None);
        assert_eq!(
            out,
            format!(
                "thread 'main' panicked at src/x.rs:3:5:\nprovider said HTTP 401 for key {}\nretry later\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
                gw_agents::secrets::MASK
            )
        );
        assert!(!out.contains(key) && !out.contains('\u{1b}'));

        // A `&str` payload, an unnamed thread, and a backtrace that repeats the key.
        let payload: Box<dyn Any + Send> = Box::new("static \u{9b}2Jmessage");
        let out = report(None, None, &*payload, Some(&format!("0: frame {key}")));
        assert!(out.starts_with("thread '<unnamed>' panicked at <unknown>:\nstatic message\n"));
        assert!(out.ends_with(&format!(
            "stack backtrace:\n0: frame {}\n",
            gw_agents::secrets::MASK
        )));
        assert!(!out.contains(key));

        // A payload that is not text.
        let payload: Box<dyn Any + Send> = Box::new(7u32);
        assert!(report(Some("w"), None, &*payload, None).contains("\nBox<dyn Any>\n"));
    }
}
