//! Embeds the project's game and task registry (`registry/games`,
//! `registry/tasks`) in the extension, so an installed wheel works anywhere
//! without the repository. Generates `$OUT_DIR/registry_files.rs`: a list of
//! `(path inside the registry, contents)` read with `include_str!`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            yaml_files(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("yaml") | Some("yml")
        ) {
            out.push(p);
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.join("../../registry");
    let root = root
        .canonicalize()
        .unwrap_or_else(|e| panic!("the registry folder {} is missing: {e}", root.display()));
    let mut files = Vec::new();
    for sub in ["games", "tasks"] {
        println!("cargo:rerun-if-changed={}", root.join(sub).display());
        yaml_files(&root.join(sub), &mut files);
    }
    files.sort();
    let mut code = String::from("pub const REGISTRY_FILES: &[(&str, &str)] = &[\n");
    for f in &files {
        if let Some(parent) = f.parent() {
            println!("cargo:rerun-if-changed={}", parent.display());
        }
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_str()
            .unwrap()
            .replace('\\', "/");
        writeln!(
            code,
            "    ({rel:?}, include_str!({:?})),",
            f.to_str().unwrap()
        )
        .unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("registry_files.rs");
    std::fs::write(out, code).unwrap();
}
