//! `gameworld world evalset|score|eval|reward` end to end: a set built and
//! scored through the CLI, and models on a loopback OpenAI-compatible server
//! evaluated through a router that sends each kind to its own profile.

#[path = "../../gw-runtime/tests/support/loopback.rs"]
mod loopback;

use loopback::{Server, openai_text};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gameworld(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gameworld"))
        .env(
            "GAMEWORLD_REGISTRY",
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../registry"),
        )
        .args(args)
        .output()
        .expect("binary runs")
}

fn ok(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("stdout is JSON")
}

fn jsonl(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn evalset_then_score_and_rewards_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("g");
    let made = ok(&gameworld(&[
        "world",
        "evalset",
        "--kind",
        "grounding",
        "--n",
        "3",
        "--seed",
        "1",
        "--resolution",
        "96x54",
        "--out",
        s(&set),
    ]));
    assert_eq!(made["n"], 3);
    let own = ok(&gameworld(&[
        "world",
        "score",
        "--kind",
        "grounding",
        "--set",
        s(&set),
        "--pred",
        s(&set.join("answers.jsonl")),
    ]));
    assert_eq!(own["score"], 1.0);
    assert_eq!(own["mean_iou_density"], 1.0);
    // The same boxes in 0-1000 coordinates, declared so, score the same;
    // an unknown unit is refused.
    let answers = jsonl(&set.join("answers.jsonl"));
    let as_norm = |coords: &str| -> String {
        answers
            .iter()
            .map(|r| {
                let b: Vec<f64> = r["answer"]["bbox_2d"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        v.as_f64().unwrap() * 1000.0 / if i % 2 == 0 { 96.0 } else { 54.0 }
                    })
                    .collect();
                let a = json!({"bbox_2d": b, "label": r["answer"]["label"], "coords": coords});
                format!("{}\n", json!({"id": r["id"], "answer": a}))
            })
            .collect()
    };
    let norm_pred = dir.path().join("norm.jsonl");
    std::fs::write(&norm_pred, as_norm("norm1000")).unwrap();
    let n = ok(&gameworld(&[
        "world",
        "score",
        "--kind",
        "grounding",
        "--set",
        s(&set),
        "--pred",
        s(&norm_pred),
    ]));
    assert_eq!(n["score"], 1.0, "{n}");
    std::fs::write(&norm_pred, as_norm("percent")).unwrap();
    let o = gameworld(&[
        "world",
        "score",
        "--kind",
        "grounding",
        "--set",
        s(&set),
        "--pred",
        s(&norm_pred),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("\"coords\" must be \"pixels\" or \"norm1000\""),
        "{err}"
    );
    // Bad input: exit 2 with the cause.
    let o = gameworld(&[
        "world",
        "evalset",
        "--kind",
        "poems",
        "--out",
        s(&dir.path().join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown eval kind \"poems\""));
    let o = gameworld(&[
        "world",
        "score",
        "--kind",
        "eqa",
        "--set",
        s(&set),
        "--pred",
        s(&set.join("answers.jsonl")),
    ]);
    assert_eq!(o.status.code(), Some(2));

    let r = ok(&gameworld(&[
        "world",
        "reward",
        "--kind",
        "iou-density",
        "--pred",
        "[0,0,10,10]",
        "--truth",
        "[5,0,15,10]",
    ]));
    assert!((r["iou"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
    assert!(
        (r["reward"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9,
        "eta 1 between beta and alpha"
    );
    let r = ok(&gameworld(&[
        "world",
        "reward",
        "--kind",
        "iou-density",
        "--pred",
        "[0,0,10,10]",
        "--truth",
        "[5,0,15,10]",
        "--alpha",
        "0.3",
    ]));
    assert_eq!(r["reward"], 1.0);
    let r = ok(&gameworld(&[
        "world",
        "reward",
        "--kind",
        "plan",
        "--pred",
        "craft 4 oak planks\ncraft 1 crafting table",
        "--truth",
        "{\"steps\": [{\"kind\": \"craft\", \"item\": \"planks\", \"count\": 4}, {\"kind\": \"craft\", \"item\": \"crafting_table\", \"count\": 1}]}",
    ]));
    assert_eq!(r["reward"], 1.0);
    let r = ok(&gameworld(&[
        "world", "reward", "--kind", "exact", "--pred", "Iron Ore", "--truth", "iron_ore",
    ]));
    assert_eq!(r["reward"], 1.0);
    let o = gameworld(&[
        "world",
        "reward",
        "--kind",
        "iou-density",
        "--pred",
        "[0,0,1,1]",
        "--truth",
        "[0,0,1,1]",
        "--beta",
        "0.9",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("0 < beta < alpha < 1"));
}

/// A registry root with two keyless loopback profiles.
fn models_root(dir: &Path, base_url: &str) -> PathBuf {
    let root = dir.join("extra-registry");
    std::fs::create_dir_all(root.join("models")).unwrap();
    for (id, model) in [("plan-expert", "planner-7b"), ("vision-expert", "seer-3b")] {
        let yaml = format!(
            "id: {id}\nprovider: openai\nmodel: {model}\ninterface: generalist\nbase_url: {base_url}\nmax_retries: 1\nretry_backoff_s: 0.01\ntimeout_s: 20\n"
        );
        std::fs::write(root.join("models").join(format!("{id}.yaml")), yaml).unwrap();
    }
    root
}

#[test]
fn a_loopback_model_is_evaluated_end_to_end_through_the_router() {
    let dir = tempfile::tempdir().unwrap();
    let plan_set = dir.path().join("plan-set");
    ok(&gameworld(&[
        "world",
        "evalset",
        "--kind",
        "planning",
        "--n",
        "2",
        "--seed",
        "5",
        "--resolution",
        "64x36",
        "--out",
        s(&plan_set),
    ]));
    let refl_set = dir.path().join("refl-set");
    ok(&gameworld(&[
        "world",
        "evalset",
        "--kind",
        "reflection",
        "--n",
        "2",
        "--seed",
        "5",
        "--resolution",
        "64x36",
        "--out",
        s(&refl_set),
    ]));
    let plan_truth = jsonl(&plan_set.join("answers.jsonl"));
    let refl_truth = jsonl(&refl_set.join("answers.jsonl"));
    // Planning: the first reply is the true plan as numbered text inside the
    // reasoning template, the second a wrong plan. Reflection: the first
    // verdict in a sentence, the second a 500 then a JSON verdict flipped.
    let lines: Vec<String> = plan_truth[0]["answer"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, st)| {
            format!(
                "{}. {} {} {}",
                i + 1,
                st["kind"].as_str().unwrap(),
                st["count"],
                st["item"].as_str().unwrap()
            )
        })
        .collect();
    let r0 = &refl_truth[0]["answer"];
    let r0_text = if r0["can_continue"] == true {
        "The task can continue.".to_string()
    } else {
        format!(
            "The task cannot proceed: {}.",
            r0["reason"].as_str().unwrap()
        )
    };
    let r1 = &refl_truth[1]["answer"];
    let server = Server::start(vec![
        openai_text(
            &format!(
                "<think>List the recipes first.</think><answer>{}</answer>",
                lines.join("\n")
            ),
            (500, 40),
        ),
        openai_text("1. craft 1 diamond", (500, 5)),
        openai_text(&r0_text, (300, 9)),
        loopback::openai_error(500, "overloaded"),
        openai_text(
            &json!({"can_continue": !r1["can_continue"].as_bool().unwrap(), "reason": null})
                .to_string(),
            (300, 9),
        ),
    ]);
    let root = models_root(dir.path(), &format!("{}/v1", server.base()));
    let router = dir.path().join("router.yaml");
    std::fs::write(
        &router,
        "id: test-router\nroutes:\n  planning: plan-expert\ndefault: vision-expert\n",
    )
    .unwrap();

    let out = dir.path().join("eval-plan");
    let summary = ok(&gameworld(&[
        "--registry",
        s(&root),
        "world",
        "eval",
        "--kind",
        "planning",
        "--router",
        s(&router),
        "--set",
        s(&plan_set),
        "--out",
        s(&out),
    ]));
    assert_eq!(summary["score"], 0.5, "{summary}");
    assert_eq!(summary["models"]["planning"], "plan-expert");
    assert_eq!(summary["router"], "test-router");
    assert_eq!(summary["input_tokens"], 1000);
    let out2 = dir.path().join("eval-refl");
    let summary2 = ok(&gameworld(&[
        "--registry",
        s(&root),
        "world",
        "eval",
        "--kind",
        "reflection",
        "--router",
        s(&router),
        "--set",
        s(&refl_set),
        "--out",
        s(&out2),
    ]));
    assert_eq!(summary2["models"]["reflection"], "vision-expert");
    assert_eq!(summary2["score"], 0.5, "{summary2}");
    assert_eq!(summary2["continue_accuracy"], 0.5);
    assert_eq!(summary2["errors"], 0, "the 500 was retried");
    let received = server.finish();
    let models: Vec<&str> = received
        .iter()
        .map(|r| r.body["model"].as_str().unwrap())
        .collect();
    assert_eq!(
        models,
        ["planner-7b", "planner-7b", "seer-3b", "seer-3b", "seer-3b"]
    );
    // The frame went along as an image; the question as text.
    let content = &received[0].body["messages"][1]["content"];
    let text = content.to_string();
    assert!(
        text.contains("image_url") && text.contains("data:image/png;base64,"),
        "{text:.300}"
    );
    assert!(text.contains(plan_set_query(&plan_set).as_str()));
    // Predictions re-score to the same figure through `world score`.
    let again = ok(&gameworld(&[
        "world",
        "score",
        "--kind",
        "planning",
        "--set",
        s(&plan_set),
        "--pred",
        s(&out.join("predictions.jsonl")),
    ]));
    assert_eq!(again["score"], summary["score"]);
    let results = jsonl(&out.join("results.jsonl"));
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["score"], 1.0);
    assert_eq!(results[1]["score"], 0.0);
    assert_eq!(results[0]["model"], "plan-expert");
    // Call records name the frame instead of carrying its bytes.
    let calls = std::fs::read_to_string(out.join("model_calls.jsonl")).unwrap();
    assert!(
        calls.contains("<image frames/planning-0000.png>"),
        "{calls:.400}"
    );
    assert!(!calls.contains("base64,"));
    assert_eq!(
        jsonl(&out2.join("model_calls.jsonl")).len(),
        3,
        "two items, one retry"
    );

    // A router naming an unknown model is a configuration error.
    std::fs::write(&router, "id: bad\nroutes:\n  planning: no-such-model\n").unwrap();
    let o = gameworld(&[
        "--registry",
        s(&root),
        "world",
        "eval",
        "--kind",
        "planning",
        "--router",
        s(&router),
        "--set",
        s(&plan_set),
        "--out",
        s(&dir.path().join("e3")),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown model \"no-such-model\""));
}

fn plan_set_query(set: &Path) -> String {
    jsonl(&set.join("items.jsonl"))[0]["query"]
        .as_str()
        .unwrap()
        .to_string()
}
