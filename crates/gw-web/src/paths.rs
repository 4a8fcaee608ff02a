//! Client paths are never trusted: a path is a runs-root index and a relative
//! path made of plain components; after resolving symlinks it must still lie
//! under that root.

use crate::{ApiError, bad_request, not_found};
use serde_json::Value;
use std::path::{Component, Path, PathBuf};

/// `rel` as a relative path of plain components (`a/b`, `./a`), or `None`
/// when it could climb out (`..`), start at the file system's root or a
/// drive, or carries a NUL or a backslash.
pub fn plain_relative(rel: &str) -> Option<&Path> {
    if malformed(rel) {
        return None;
    }
    let path = Path::new(rel);
    path.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        .then_some(path)
}

/// A path no run file has: over 4096 bytes, or with a NUL or a backslash.
fn malformed(rel: &str) -> bool {
    rel.len() > 4096 || rel.contains('\0') || rel.contains('\\')
}

/// The bytes of a regular file. FIFOs, devices and folders are refused
/// before they are opened: reading one could block a worker forever or
/// never end.
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        ));
    }
    std::fs::read(path)
}

/// A regular file opened for reading (FIFOs, devices and folders refused,
/// as by [`read_regular`]), for reading as a stream.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a regular file", path.display()),
        ));
    }
    std::fs::File::open(path)
}

/// [`read_regular`] on a blocking thread (for async handlers): the bytes,
/// or `None` when the file is missing, not regular or unreadable.
pub async fn read_regular_off_thread(path: PathBuf) -> Option<Vec<u8>> {
    tokio::task::spawn_blocking(move || read_regular(&path))
        .await
        .ok()?
        .ok()
}

/// A regular file's text (invalid UTF-8 is an error, as with `read_to_string`).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_regular(path)?)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// A regular file parsed as JSON, or `None`.
pub fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&read_regular(path).ok()?).ok()
}

/// The file or folder `rel` under runs root `root`, or an error answer.
pub fn resolve(roots: &[PathBuf], root: usize, rel: &str) -> Result<PathBuf, ApiError> {
    let base = roots
        .get(root)
        .ok_or_else(|| bad_request(format!("no runs root number {root}")))?;
    if malformed(rel) {
        return Err(bad_request("malformed path"));
    }
    let rel_path = plain_relative(rel.trim_start_matches('/')).ok_or_else(|| {
        ApiError(
            axum::http::StatusCode::FORBIDDEN,
            "paths must stay inside the runs directory".into(),
        )
    })?;
    let joined = base.join(rel_path);
    let real = joined
        .canonicalize()
        .map_err(|_| not_found(format!("no such run path: {rel}")))?;
    if !real.starts_with(base) {
        return Err(ApiError(
            axum::http::StatusCode::FORBIDDEN,
            "paths must stay inside the runs directory".into(),
        ));
    }
    Ok(real)
}

/// `path` relative to `root` with `/` separators (for links in the page).
pub fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_outside_the_root_are_refused() {
        let dir = tempfile_dir();
        let root = dir.join("runs");
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::write(dir.join("secret.txt"), "x").unwrap();
        let roots = vec![root.canonicalize().unwrap()];
        assert!(resolve(&roots, 0, "a/b").is_ok());
        assert!(resolve(&roots, 0, "").is_ok());
        for bad in [
            "../secret.txt",
            "a/../../secret.txt",
            "/etc/passwd",
            "a\\..\\..",
            "a\0b",
        ] {
            let err = resolve(&roots, 0, bad).expect_err(bad);
            assert!(err.0.is_client_error(), "{bad}");
        }
        // A symlink that leads out of the root is refused too.
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("secret.txt"), root.join("link")).unwrap();
            assert_eq!(
                resolve(&roots, 0, "link").err().unwrap().0,
                axum::http::StatusCode::FORBIDDEN
            );
        }
        assert!(resolve(&roots, 3, "a").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("gw-web-paths-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
