//! The guide (README.md and docs/**/*.md) cannot rot: every `gameworld`
//! command in a ```sh block must parse (the binary's GAMEWORLD_PARSE_ONLY
//! mode), name games, tasks, models and repository paths that exist, and
//! every subcommand must be shown at least once; the reference's flag
//! tables must list exactly the flags `--help` prints; links and images
//! must resolve; SUMMARY.md must list every page; files the guide asks you
//! to write must load. `scripts/guide-check.sh` runs the quick commands
//! (blocks marked `<!-- guide-check: run -->`) for real.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// The guide's pages, relative to the repository root: README.md, then
/// docs/**/*.md in path order.
fn pages() -> Vec<String> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            if p.is_dir() {
                walk(&p, &format!("{rel}/{name}"), out);
            } else if name.ends_with(".md") {
                out.push(format!("{rel}/{name}"));
            }
        }
    }
    let mut out = vec!["README.md".to_string()];
    walk(&root().join("docs"), "docs", &mut out);
    out
}

/// A fenced block: its page, the line of its opening fence, its language,
/// the `guide-check:` marker just above it, and its lines (numbered).
struct Block {
    page: String,
    line: usize,
    lang: String,
    marker: Option<String>,
    body: Vec<(usize, String)>,
}

fn marker_of(line: &str) -> Option<String> {
    let t = line.trim();
    let inner = t.strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    Some(inner.strip_prefix("guide-check:")?.trim().to_string())
}

fn blocks(page: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut last_nonblank: Option<String> = None;
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(b) = open.as_mut() {
            if line.trim_start().starts_with("```") {
                out.push(open.take().unwrap());
                last_nonblank = None;
            } else {
                b.body.push((n, line.to_string()));
            }
            continue;
        }
        if let Some(info) = line.trim_start().strip_prefix("```") {
            open = Some(Block {
                page: page.to_string(),
                line: n,
                lang: info.trim().to_string(),
                marker: last_nonblank.as_deref().and_then(marker_of),
                body: Vec::new(),
            });
        } else if !line.trim().is_empty() {
            last_nonblank = Some(line.to_string());
        }
    }
    assert!(open.is_none(), "{page}: a ``` block is never closed");
    out
}

/// Split a shell line into words (quotes and backslashes as the shell reads
/// them), stopping at a comment or at the first `>`, `|`, `;` or `&&`.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => cur.push(chars.next().unwrap_or('\\')),
                        _ => cur.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.push(chars.next().unwrap_or('\\'));
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '#' if !in_word => break,
            '>' | '|' | ';' | '&' if !in_word => break,
            _ => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// A `gameworld` command of the guide: where it is and its arguments.
struct Cmd {
    at: String,
    args: Vec<String>,
}

/// The arguments of a shell line if it runs gameworld (`gameworld …` or
/// `cargo run … -p gameworld -- …`, after any `VAR=value` words).
fn gameworld_args(words: &[String]) -> Option<Vec<String>> {
    let words: Vec<&String> = words
        .iter()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .collect();
    match words.first().map(|w| w.as_str()) {
        Some("gameworld") => Some(words[1..].iter().map(|w| w.to_string()).collect()),
        Some("cargo") if words.get(1).map(|w| w.as_str()) == Some("run") => {
            let is_cli = words
                .windows(2)
                .any(|w| w[0] == "-p" && w[1] == "gameworld");
            let dash = words.iter().position(|w| *w == "--")?;
            is_cli.then(|| words[dash + 1..].iter().map(|w| w.to_string()).collect())
        }
        _ => None,
    }
}

struct Guide {
    texts: BTreeMap<String, String>,
    blocks: Vec<Block>,
}

fn guide() -> Guide {
    let mut texts = BTreeMap::new();
    let mut all = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(root().join(&page)).unwrap();
        all.extend(blocks(&page, &text));
        texts.insert(page, text);
    }
    Guide { texts, blocks: all }
}

impl Guide {
    fn commands(&self) -> Vec<Cmd> {
        let mut out = Vec::new();
        for b in self.blocks.iter().filter(|b| b.lang == "sh") {
            let mut pending = String::new();
            let mut start = 0;
            for (n, line) in &b.body {
                if pending.is_empty() {
                    start = *n;
                }
                if let Some(head) = line.strip_suffix('\\') {
                    pending.push_str(head);
                    pending.push(' ');
                    continue;
                }
                pending.push_str(line);
                let full = std::mem::take(&mut pending);
                if let Some(args) = gameworld_args(&shell_words(&full)) {
                    out.push(Cmd {
                        at: format!("{}:{start}", b.page),
                        args,
                    });
                }
            }
        }
        out
    }

    /// Files the guide asks you to write (`<!-- guide-check: file PATH -->`).
    fn files(&self) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for b in &self.blocks {
            if let Some(path) = b.marker.as_deref().and_then(|m| m.strip_prefix("file ")) {
                let body: Vec<&str> = b.body.iter().map(|(_, l)| l.as_str()).collect();
                let path = path.trim().to_string();
                assert!(
                    !path.starts_with('/') && !path.contains(".."),
                    "{}:{}: a guide file must be a relative path inside the work folder: {path}",
                    b.page,
                    b.line
                );
                out.insert(path, body.join("\n") + "\n");
            }
        }
        out
    }
}

fn gameworld(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .args(args)
        .current_dir(root())
        .env_remove("GAMEWORLD_REGISTRY")
        .output()
        .unwrap()
}

#[test]
fn every_guide_command_parses() {
    let g = guide();
    let cmds = g.commands();
    assert!(
        cmds.len() >= 40,
        "only {} gameworld commands found",
        cmds.len()
    );
    let mut bad = Vec::new();
    for c in &cmds {
        let out = Command::new(env!("CARGO_BIN_EXE_gameworld"))
            .args(&c.args)
            .current_dir(root())
            .env("GAMEWORLD_PARSE_ONLY", "1")
            .output()
            .unwrap();
        if !out.status.success() {
            bad.push(format!(
                "{}: gameworld {}\n{}",
                c.at,
                c.args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "guide commands the CLI refuses:\n{}",
        bad.join("\n")
    );
}

#[test]
fn parse_only_mode_refuses_what_clap_refuses() {
    // The check above is only as good as this mode: it must say no.
    let out = Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .args(["run", "01_2048+01_01+random", "--sed", "3"])
        .env("GAMEWORLD_PARSE_ONLY", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sed"));
    let out = Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .args(["world", "plan"])
        .env("GAMEWORLD_PARSE_ONLY", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a missing ITEM must be refused");
    // And it runs nothing: no run folder appears.
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .args(["run", "01_2048+01_01+random", "--out", "r"])
        .current_dir(dir.path())
        .env("GAMEWORLD_PARSE_ONLY", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!dir.path().join("r").exists());
}

const BUILT_IN_AGENTS: [&str; 5] = ["random", "noop", "scripted", "hierarchical", "goap"];
const REPO_PREFIXES: [&str; 5] = ["registry/", "examples/", "docs/", "crates/", "scripts/"];

#[test]
fn guide_commands_name_what_exists() {
    let g = guide();
    let files = g.files();
    let exists = |p: &str| -> bool {
        let p = p.trim_end_matches('/');
        root().join(p).exists() || files.contains_key(p)
    };
    let mut bad = Vec::new();
    for c in g.commands() {
        let mut roots = vec!["registry".to_string()];
        let mut checkable = true;
        let mut i = 0;
        while c.args.get(i).map(String::as_str) == Some("--registry") {
            let r = c.args[i + 1].trim_end_matches('/').to_string();
            // A root made outside the guide (an import's output) is not checked.
            let known =
                root().join(&r).is_dir() || files.keys().any(|f| f.starts_with(&format!("{r}/")));
            checkable &= known;
            roots.push(r);
            i += 2;
        }
        for a in &c.args {
            let v = a.split_once('=').map_or(a.as_str(), |(_, v)| v);
            if REPO_PREFIXES.iter().any(|p| v.starts_with(p)) && !exists(v) {
                bad.push(format!("{}: no such path in the repository: {v}", c.at));
            }
        }
        let sub = c.args.get(i).map(String::as_str).unwrap_or("");
        let entry = |kind: &str, rel: &str| {
            roots
                .iter()
                .any(|r| exists(&format!("{r}/{kind}/{rel}.yaml")))
        };
        let check_model = |m: &str, bad: &mut Vec<String>| {
            if !BUILT_IN_AGENTS.contains(&m) && !entry("models", m) && checkable {
                bad.push(format!(
                    "{}: no model profile or built-in agent `{m}`",
                    c.at
                ));
            }
        };
        if sub == "run" || sub == "mcp" {
            let Some(preset) = c.args.get(i + 1).filter(|p| !p.starts_with('-')) else {
                continue;
            };
            let parts: Vec<&str> = preset.splitn(3, '+').collect();
            let want = if sub == "run" { 3 } else { 2 };
            if parts.len() != want {
                bad.push(format!("{}: preset `{preset}` needs {want} parts", c.at));
                continue;
            }
            if checkable && !entry("games", parts[0]) {
                bad.push(format!("{}: no game `{}`", c.at, parts[0]));
            }
            if checkable && !entry("tasks", &format!("{}/{}", parts[0], parts[1])) {
                bad.push(format!("{}: no task `{}` of {}", c.at, parts[1], parts[0]));
            }
            if sub == "run" {
                for m in parts[2].split(',') {
                    check_model(m, &mut bad);
                }
            }
        }
        if sub == "world"
            && c.args.get(i + 1).map(String::as_str) == Some("eval")
            && let Some(p) = c.args.iter().position(|a| a == "--model")
        {
            check_model(&c.args[p + 1], &mut bad);
        }
    }
    assert!(
        bad.is_empty(),
        "the guide names things that do not exist:\n{}",
        bad.join("\n")
    );
}

/// Subcommand names from a `--help` page's "Commands:" list.
fn subcommands(help_args: &[&str]) -> Vec<String> {
    let out = gameworld(help_args);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn every_subcommand_has_a_checked_example() {
    let g = guide();
    let shown: BTreeSet<Vec<String>> = g
        .commands()
        .iter()
        .map(|c| {
            let mut a = c.args.clone();
            while a.first().map(String::as_str) == Some("--registry") {
                a.drain(..2);
            }
            a.truncate(2);
            a
        })
        .collect();
    let top = subcommands(&["--help"]);
    assert!(top.len() >= 10, "gameworld --help lists {top:?}");
    let mut missing = Vec::new();
    for sub in &top {
        if !shown.iter().any(|s| s[0] == *sub) {
            missing.push(sub.clone());
        }
    }
    for sub in subcommands(&["world", "--help"]) {
        if !shown
            .iter()
            .any(|s| s[0] == "world" && s.get(1) == Some(&sub))
        {
            missing.push(format!("world {sub}"));
        }
    }
    assert!(
        missing.is_empty(),
        "subcommands with no example in the guide's ```sh blocks: {missing:?}"
    );
}

/// Long flags in the "Options:" part of a help page (not --help/--version
/// and not the global --registry, documented once).
fn help_flags(sub: &[&str]) -> BTreeSet<String> {
    let mut args: Vec<&str> = sub.to_vec();
    args.push("--help");
    let out = gameworld(&args);
    assert!(
        out.status.success(),
        "gameworld {} --help failed",
        sub.join(" ")
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let t = l.trim_start();
            let t = t.strip_prefix('-').map(|_| t)?;
            t.split([' ', ','])
                .find(|w| w.starts_with("--"))
                .map(|w| w.split('=').next().unwrap().to_string())
        })
        .filter(|f| !["--help", "--version", "--registry"].contains(&f.as_str()))
        .collect()
}

fn flags_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i + 2 < b.len() {
        let starts = b[i] == b'-'
            && b[i + 1] == b'-'
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric() && b[i - 1] != b'-');
        if starts && b[i + 2].is_ascii_lowercase() {
            let mut j = i + 2;
            while j < b.len()
                && (b[j].is_ascii_lowercase() || b[j].is_ascii_digit() || b[j] == b'-')
            {
                j += 1;
            }
            out.insert(text[i..j].trim_end_matches('-').to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn reference_flag_tables_match_help() {
    let g = guide();
    let text = &g.texts["docs/reference.md"];
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = BTreeSet::new();
    let mut bad = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(m) = marker_of(line) else { continue };
        let Some(sub) = m.strip_prefix("flags") else {
            continue;
        };
        let sub: Vec<&str> = sub.split_whitespace().collect();
        let table: String = lines[i + 1..]
            .iter()
            .skip_while(|l| l.trim().is_empty())
            .take_while(|l| !l.trim().is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        let mut documented = flags_in(&table);
        documented.remove("--registry");
        let actual = help_flags(&sub);
        let missing: Vec<_> = actual.difference(&documented).collect();
        let extra: Vec<_> = documented.difference(&actual).collect();
        if !missing.is_empty() || !extra.is_empty() {
            bad.push(format!(
                "docs/reference.md:{}: `gameworld {}`: not in the table {missing:?}; not a flag of the command {extra:?}",
                i + 1,
                sub.join(" ")
            ));
        }
        checked.insert(sub.join(" "));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Every command with options has its table.
    let mut all: Vec<String> = subcommands(&["--help"])
        .into_iter()
        .filter(|s| s != "world")
        .collect();
    all.extend(
        subcommands(&["world", "--help"])
            .into_iter()
            .map(|s| format!("world {s}")),
    );
    let without: Vec<_> = all
        .iter()
        .filter(|s| !checked.contains(*s))
        .filter(|s| !help_flags(&s.split(' ').collect::<Vec<_>>()).is_empty())
        .collect();
    assert!(
        without.is_empty(),
        "docs/reference.md has no flag table for {without:?}"
    );
}

/// GitHub's and mdBook's heading anchors: lower case, spaces to '-', other
/// punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for l in text.lines() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && l.starts_with('#') {
            out.insert(slug(l.trim_start_matches('#')));
        }
    }
    out
}

/// `](target)` links and images outside code.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, l) in text.lines().enumerate() {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = l;
        while let Some(p) = rest.find("](") {
            let after = &rest[p + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((i + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn guide_links_and_images_resolve() {
    let g = guide();
    let mut bad = Vec::new();
    for (page, text) in &g.texts {
        let dir = Path::new(page).parent().unwrap();
        for (n, target) in links(text) {
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() {
                PathBuf::from(page)
            } else {
                dir.join(file)
            };
            let full = root().join(&path);
            if !full.exists() {
                bad.push(format!("{page}:{n}: link to a missing file: {target}"));
                continue;
            }
            if !anchor.is_empty() {
                let t = std::fs::read_to_string(&full).unwrap_or_default();
                if !anchors(&t).contains(anchor) {
                    bad.push(format!(
                        "{page}:{n}: no heading `#{anchor}` in {}",
                        path.display()
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn summary_lists_every_page() {
    let g = guide();
    let summary = &g.texts["docs/SUMMARY.md"];
    let listed: BTreeSet<String> = links(summary)
        .into_iter()
        .map(|(_, t)| format!("docs/{t}"))
        .collect();
    let pages: BTreeSet<String> = g
        .texts
        .keys()
        .filter(|p| p.starts_with("docs/") && *p != "docs/SUMMARY.md")
        .cloned()
        .collect();
    let unlisted: Vec<_> = pages.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "pages missing from docs/SUMMARY.md: {unlisted:?}"
    );
    // The README's contents link every chapter too.
    let readme = &g.texts["README.md"];
    let missing: Vec<_> = listed
        .iter()
        .filter(|p| !readme.contains(&format!("]({p})")))
        .collect();
    assert!(missing.is_empty(), "README.md does not link {missing:?}");
}

#[test]
fn run_blocks_hold_only_what_the_script_runs() {
    // scripts/guide-check.sh runs every line of a `run` block: a line it
    // would skip must not hide there.
    let g = guide();
    let mut bad = Vec::new();
    for b in &g.blocks {
        match b.marker.as_deref() {
            Some("run") if b.lang == "sh" => {
                for (n, line) in &b.body {
                    let t = line.trim();
                    if !t.is_empty() && !t.starts_with('#') && !t.starts_with("gameworld ") {
                        bad.push(format!("{}:{n}: not a gameworld command: {t}", b.page));
                    }
                }
            }
            Some("run") if b.lang == "python" => {}
            Some(m) if m.starts_with("file ") || m.starts_with("flags") => {}
            Some(m) => bad.push(format!(
                "{}:{}: unknown marker `{m}` ({})",
                b.page, b.line, b.lang
            )),
            None => {}
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn files_the_guide_writes_load() {
    // The registry entries the guide asks you to write load as written and
    // are listed under their ids (scripts/guide-check.sh also validates and
    // runs them).
    let g = guide();
    let files = g.files();
    assert!(!files.is_empty());
    let dir = tempfile::tempdir().unwrap();
    for (path, body) in &files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    let mut checked = 0;
    for path in files.keys() {
        let parts: Vec<&str> = path.trim_end_matches(".yaml").split('/').collect();
        let (what, key, id) = match parts.as_slice() {
            [_, "models", m] => ("models", "model_id", m.to_string()),
            [_, "tasks", g, t] => ("tasks", "preset_prefix", format!("{g}+{t}")),
            _ => continue,
        };
        let root = dir.path().join(parts[0]);
        let out = gameworld(&["--registry", root.to_str().unwrap(), "list", what, "--json"]);
        assert!(
            out.status.success(),
            "{path} (from the guide) does not load:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let list: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
        assert!(
            list.iter().any(|e| e[key] == id.as_str()),
            "{path} (from the guide) loads but `list {what}` has no {id}"
        );
        checked += 1;
    }
    assert!(checked >= 2, "the guide writes no registry entry to check");
}

#[test]
fn shell_words_reads_quotes_comments_and_redirections() {
    assert_eq!(
        shell_words(
            r#"gameworld world plan iron_pickaxe --inventory '{"oak_log": 2}'   # sub-goals"#
        ),
        [
            "gameworld",
            "world",
            "plan",
            "iron_pickaxe",
            "--inventory",
            r#"{"oak_log": 2}"#
        ]
    );
    assert_eq!(
        shell_words("gameworld world graph --format dot > graph.dot"),
        ["gameworld", "world", "graph", "--format", "dot"]
    );
    assert_eq!(
        gameworld_args(&shell_words(
            "cargo run --release -p gameworld -- suite x.yaml"
        )),
        Some(vec!["suite".to_string(), "x.yaml".to_string()])
    );
    assert_eq!(
        gameworld_args(&shell_words("export OPENAI_API_KEY=...")),
        None
    );
    assert_eq!(
        slug("Verifying results and the leaderboard"),
        "verifying-results-and-the-leaderboard"
    );
    assert_eq!(slug("`result.json`"), "resultjson");
}
