//! Set files: deterministic per seed, and every kind's scorer gives 1.0 for
//! the set's own answers and less for wrong ones.

use gw_owevals::Kind;
use gw_owevals::reward::IouDensity;
use gw_owevals::scene::View;
use gw_owevals::set::{self, Spec};
use serde_json::{Value, json};
use std::path::Path;

const VIEW: View = View { w: 96, h: 54 };

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["", "frames"] {
        let mut names: Vec<_> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for p in names.into_iter().filter(|p| p.is_file()) {
            out.push((
                p.strip_prefix(dir).unwrap().display().to_string(),
                std::fs::read(&p).unwrap(),
            ));
        }
    }
    out
}

fn write_preds(path: &Path, rows: &[Value]) {
    std::fs::write(
        path,
        rows.iter().map(|r| format!("{r}\n")).collect::<String>(),
    )
    .unwrap();
}

/// A wrong answer of the same shape.
fn wrong(kind: Kind, row: &Value) -> Value {
    let a = &row["answer"];
    let answer = match kind {
        Kind::Caption => json!("A picture."),
        Kind::Eqa => json!(if row["qtype"] == "count" {
            json!(9999)
        } else {
            json!("bedrock")
        }),
        Kind::Grounding => {
            let b: Vec<f64> = a["bbox_2d"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let w = b[2] - b[0];
            json!({"bbox_2d": [b[0] + w, b[1], b[2] + w, b[3]]})
        }
        Kind::Planning => {
            let mut s = a["steps"].as_array().unwrap().clone();
            s.remove(0);
            json!({"steps": s})
        }
        Kind::Reflection => {
            json!({"can_continue": !a["can_continue"].as_bool().unwrap(), "reason": null})
        }
    };
    json!({"id": row["id"], "answer": answer})
}

#[test]
fn sets_are_deterministic_per_seed_and_scored_against_their_truth() {
    let dir = tempfile::tempdir().unwrap();
    let density = IouDensity::default();
    for kind in Kind::ALL {
        let spec = Spec {
            kind,
            n: 4,
            seed: 9,
            view: VIEW,
        };
        let a = dir.path().join(format!("{kind}-a"));
        let b = dir.path().join(format!("{kind}-b"));
        set::write(&a, &spec).unwrap();
        set::write(&b, &spec).unwrap();
        let fa = files(&a);
        assert_eq!(fa.len(), 2 + 4, "{kind}: items, answers and 4 frames");
        assert_eq!(fa, files(&b), "{kind}: same seed, same bytes");
        let c = dir.path().join(format!("{kind}-c"));
        set::write(&c, &Spec { seed: 10, ..spec }).unwrap();
        assert_ne!(fa, files(&c), "{kind}: another seed, another set");
        // Frames decode at the set's size.
        let png = std::fs::read(a.join("frames").join(format!("{kind}-0000.png"))).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(png))
            .read_info()
            .unwrap();
        assert_eq!((dec.info().width, dec.info().height), (96, 54));
        // A set refuses to overwrite another.
        assert!(
            set::write(&a, &spec)
                .unwrap_err()
                .contains("already holds an eval set")
        );

        let own = set::score_files(kind, &a, &a.join("answers.jsonl"), &density).unwrap();
        assert_eq!(own["score"], 1.0, "{kind}: {own}");
        assert_eq!(own["answered"], 4);
        let rows = set::read_jsonl(&a.join("answers.jsonl")).unwrap();
        let bad: Vec<Value> = rows.iter().map(|r| wrong(kind, r)).collect();
        let bad_path = dir.path().join(format!("{kind}-bad.jsonl"));
        write_preds(&bad_path, &bad);
        let s = set::score_files(kind, &a, &bad_path, &density).unwrap();
        assert!(
            s["score"].as_f64().unwrap() < 0.5,
            "{kind}: wrong answers score {s}"
        );
        // Half the predictions missing: half the score at most.
        write_preds(&bad_path, &rows[..2]);
        let s = set::score_files(kind, &a, &bad_path, &density).unwrap();
        assert_eq!(s["answered"], 2);
        assert!(
            (s["score"].as_f64().unwrap() - 0.5).abs() < 1e-9,
            "{kind}: {s}"
        );
        // Predictions for ids the set lacks are refused.
        write_preds(&bad_path, &[json!({"id": "nope-1", "answer": 1})]);
        let e = set::score_files(kind, &a, &bad_path, &density).unwrap_err();
        assert!(e.contains("\"nope-1\" is not in the set"), "{e}");
        // The wrong kind is refused.
        let other = if kind == Kind::Eqa {
            Kind::Caption
        } else {
            Kind::Eqa
        };
        let e = set::score_files(other, &a, &a.join("answers.jsonl"), &density).unwrap_err();
        assert!(e.contains("pass the set's own --kind"), "{e}");
    }
}
