//! A small static file server for one game folder on a loopback port the OS
//! picks (port 0), so parallel runs never collide. GET and HEAD only; paths
//! stay inside the folder; it stops when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl StaticServer {
    /// Serve `root` on `127.0.0.1:<free port>`.
    pub fn start(root: &Path) -> std::io::Result<StaticServer> {
        let root = root.canonicalize()?;
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("gw-static".into())
            .spawn(move || {
                for conn in listener.incoming() {
                    if flag.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = conn else { continue };
                    let root = root.clone();
                    let _ = std::thread::Builder::new()
                        .name("gw-static-conn".into())
                        .spawn(move || serve_connection(stream, &root));
                }
            })?;
        Ok(StaticServer {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// `http://127.0.0.1:PORT/` + `path` (`index.html?level=2`).
    pub fn url(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}/{}",
            self.port(),
            path.trim_start_matches('/')
        )
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_millis(200));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The file a request path names inside `root`, or `None` for anything that
/// tries to leave it.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let decoded = percent_decode(path)?;
    let mut out = root.to_path_buf();
    for comp in Path::new(decoded.trim_start_matches('/')).components() {
        match comp {
            Component::Normal(c) => out.push(c),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    Some(out)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok().filter(|s| !s.contains('\0'))
}

/// Content type by file extension.
pub fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("svg") => "image/svg+xml",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("wasm") => "application/wasm",
        Some("mp3") => "audio/mpeg",
        Some("ogg") => "audio/ogg",
        Some("wav") => "audio/wav",
        Some("mp4") => "video/mp4",
        Some("woff") => "font/woff",
        Some("woff2") => "font/woff2",
        Some("ttf") => "font/ttf",
        Some("txt") => "text/plain; charset=utf-8",
        Some("xml") => "application/xml",
        _ => "application/octet-stream",
    }
}

fn serve_connection(stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half.take(1 << 20));
    let mut out = stream;
    // Keep-alive: serve requests until the client closes.
    loop {
        let mut request_line = String::new();
        match reader.read_line(&mut request_line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let mut close = false;
        loop {
            let mut header = String::new();
            match reader.read_line(&mut header) {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let h = header.trim_end();
            if h.is_empty() {
                break;
            }
            if h.to_ascii_lowercase().starts_with("connection:")
                && h.to_ascii_lowercase().contains("close")
            {
                close = true;
            }
        }
        let mut parts = request_line.split_whitespace();
        let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
        let ok = match method {
            "GET" | "HEAD" => respond_file(&mut out, root, target, method == "HEAD"),
            _ => respond(&mut out, 405, "text/plain", b"method not allowed", false),
        };
        if ok.is_err() || close {
            break;
        }
    }
    let _ = out.shutdown(Shutdown::Both);
}

fn respond_file(out: &mut TcpStream, root: &Path, target: &str, head: bool) -> std::io::Result<()> {
    match resolve(root, target).map(|p| (std::fs::read(&p), p)) {
        Some((Ok(body), path)) => respond(out, 200, content_type(&path), &body, head),
        _ => respond(out, 404, "text/plain", b"not found", head),
    }
}

fn respond(
    out: &mut TcpStream,
    code: u16,
    ctype: &str,
    body: &[u8],
    head: bool,
) -> std::io::Result<()> {
    let reason = match code {
        200 => "OK",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let header = format!(
        "HTTP/1.1 {code} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: keep-alive\r\n\r\n",
        body.len()
    );
    out.write_all(header.as_bytes())?;
    if !head {
        out.write_all(body)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_files_and_refuses_escapes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
        std::fs::create_dir(dir.path().join("a b")).unwrap();
        std::fs::write(dir.path().join("a b/x.js"), "1").unwrap();
        let root = dir.path().canonicalize().unwrap();
        assert_eq!(resolve(&root, "/?level=2"), Some(root.join("index.html")));
        assert_eq!(resolve(&root, "/a%20b/x.js#f"), Some(root.join("a b/x.js")));
        assert_eq!(resolve(&root, "/../etc/passwd"), None);
        assert_eq!(resolve(&root, "/a%2F..%2F..%2Fx"), None);

        let server = StaticServer::start(dir.path()).unwrap();
        let get = |path: &str| {
            let mut s = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
            write!(
                s,
                "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            .unwrap();
            let mut text = String::new();
            s.read_to_string(&mut text).unwrap();
            text
        };
        let page = get("/index.html?level=3");
        assert!(page.starts_with("HTTP/1.1 200"), "{page}");
        assert!(page.contains("text/html") && page.ends_with("<p>hi</p>"));
        assert!(get("/../../etc/passwd").starts_with("HTTP/1.1 404"));
        assert!(get("/missing.js").starts_with("HTTP/1.1 404"));
        // Two servers never share a port.
        let other = StaticServer::start(dir.path()).unwrap();
        assert_ne!(other.port(), server.port());
    }
}
