use super::*;
use crate::testkit;
use gw_core::Status;
use gw_core::registry::Interface;
use gw_core::state::lookup;

crate::game_contract! {
    golden_frame: (1, 2, "878653d443b5b2411b35d0b2fa09bd183f6ddfd7d2d7a04b4b05c95615169294"),
    deterministic: ("32_03", 6),
    expert_solves_all: 4,
}

fn w(s: &str) -> Word {
    let b = s.as_bytes();
    std::array::from_fn(|i| b[i])
}

fn marks(s: &str) -> [Mark; WORD_LEN] {
    let b = s.as_bytes();
    std::array::from_fn(|i| match b[i] {
        b'g' => Mark::Correct,
        b'y' => Mark::Present,
        _ => Mark::Absent,
    })
}

fn game_with(answer: &str) -> Wordle {
    let mut g = Wordle::new();
    g.init(&GameConfig {
        seed: 1,
        ..Default::default()
    });
    g.answer = w(answer);
    g
}

fn type_text(g: &mut Wordle, text: &str) {
    for ch in text.chars() {
        let key = gw_core::action::char_key(ch);
        g.handle_event(&InputEvent::KeyDown { key: key.clone() });
        g.handle_event(&InputEvent::KeyUp { key });
    }
}

#[test]
fn word_lists_are_clean() {
    let a = answers();
    assert!(a.len() >= 300, "{} answers", a.len());
    assert!(
        valid_words().len() >= a.len() + 1000,
        "{} valid words",
        valid_words().len()
    );
    assert!(a.iter().all(is_valid));
    assert_eq!(
        ANSWERS_TXT.split_whitespace().count(),
        a.len(),
        "every answer line is a five-letter lowercase word"
    );
    assert_eq!(
        ALLOWED_TXT.split_whitespace().count(),
        parse_list(ALLOWED_TXT).len(),
        "every allowed line is a five-letter lowercase word"
    );
    assert!(!is_valid(&w("xqzvk")));
}

#[test]
fn marks_follow_the_duplicate_letter_rule() {
    assert_eq!(score_guess(&w("crane"), &w("crane")), marks("ggggg"));
    // Only one E in the answer: the green one uses it up.
    assert_eq!(score_guess(&w("geese"), &w("those")), marks("---gg"));
    // One E in the answer, guessed twice out of place: the first is yellow.
    assert_eq!(score_guess(&w("speed"), &w("abide")), marks("--y-y"));
    // Two Ls in the answer, three guessed: both greens use them up.
    assert_eq!(score_guess(&w("lolly"), &w("hello")), marks("-ygg-"));
    // One L left after the green: the first extra L is yellow, the next grey.
    assert_eq!(score_guess(&w("lolly"), &w("allot")), marks("yyg--"));
    assert_eq!(score_guess(&w("allot"), &w("hello")), marks("-ygy-"));
    assert_eq!(score_guess(&w("sweet"), &w("ember")), marks("--yg-"));
    assert_eq!(score_guess(&w("eerie"), &w("crane")), marks("--y-g"));
}

#[test]
fn typing_backspace_and_submit() {
    let mut g = game_with("crane");
    type_text(&mut g, "slo");
    type_text(&mut g, "\u{8}");
    assert_eq!(g.input(), b"sl");
    type_text(&mut g, "a");
    type_text(&mut g, "\n");
    assert_eq!(g.message(), Some("Not enough letters"));
    assert_eq!(g.rows().len(), 0);
    assert_eq!(g.input(), b"sla", "a short row is kept");
    type_text(&mut g, "t");
    assert_eq!(g.rows().len(), 0, "four letters do not submit");
    type_text(&mut g, "e");
    assert_eq!(g.rows().len(), 1, "the fifth letter submits without Enter");
    assert!(g.input().is_empty());
    type_text(&mut g, "\n");
    assert_eq!(g.rows().len(), 1, "Enter on an empty row does nothing");
    assert_eq!(g.message(), None);
    assert_eq!(g.rows()[0].marks, marks("--g-g"));
    let st = g.state().to_value();
    assert_eq!(lookup(&st, "metrics.attempts").unwrap(), 1);
    assert_eq!(lookup(&st, "metrics.guesses_remaining").unwrap(), 5);
    assert_eq!(lookup(&st, "metrics.letters_correct").unwrap(), 2);
    assert_eq!(lookup(&st, "metrics.letters_present").unwrap(), 0);
    assert_eq!(lookup(&st, "metrics.letters_absent").unwrap(), 3);
    assert_eq!(lookup(&st, "game_state.completion_progress").unwrap(), 0.4);
    assert_eq!(st["game_state"]["rows"][0]["word"], "slate");
    assert_eq!(
        st["game_state"]["answer"],
        Value::Null,
        "the answer stays hidden while playing"
    );
}

#[test]
fn unknown_words_are_refused_without_spending_a_try() {
    let mut g = game_with("crane");
    type_text(&mut g, "abcde\n");
    assert_eq!(g.rows().len(), 0);
    assert!(g.input().is_empty(), "the refused word is cleared");
    assert_eq!(g.message(), Some("ABCDE is not in the word list"));
    let st = g.state().to_value();
    assert_eq!(st["metrics"]["invalid_guesses"], 1);
    assert_eq!(st["metrics"]["guesses_remaining"], 6);
    type_text(&mut g, "t");
    assert_eq!(g.message(), None, "typing clears the message");
}

#[test]
fn keyboard_keeps_the_best_colour() {
    let mut g = game_with("crane");
    type_text(&mut g, "react\n");
    type_text(&mut g, "crane\n");
    let k = g.keyboard();
    assert_eq!(k[(b'r' - b'a') as usize], Some(Mark::Correct));
    assert_eq!(k[(b't' - b'a') as usize], Some(Mark::Absent));
    assert_eq!(k[(b'z' - b'a') as usize], None);
    let mut g = game_with("crane");
    type_text(&mut g, "crane\n");
    type_text(&mut g, "react\n");
    assert_eq!(
        g.keyboard()[(b'r' - b'a') as usize],
        Some(Mark::Correct),
        "a later yellow does not downgrade a green"
    );
}

#[test]
fn solving_wins_and_six_misses_lose() {
    let mut g = game_with("crane");
    type_text(&mut g, "crane\n");
    let st = g.state().to_value();
    assert_eq!(st["terminal"]["outcome"], "success");
    assert_eq!(st["metrics"]["letters_correct"], 5);
    assert_eq!(st["game_state"]["completion_progress"], 1.0);
    assert_eq!(st["game_state"]["answer"], "crane");
    type_text(&mut g, "slate\n");
    assert_eq!(g.rows().len(), 1, "no input after the end");

    let mut g = game_with("crane");
    for word in ["slate", "moist", "pudgy", "chimp", "fjord"] {
        type_text(&mut g, &format!("{word}\n"));
        assert!(!g.state().terminal.is_terminal);
    }
    type_text(&mut g, "brick\n");
    let st = g.state();
    assert_eq!(st.terminal.outcome, Some(Outcome::Fail));
    assert_eq!(st.status, Status::Terminal);
    assert_eq!(st.metrics["guesses_remaining"], 0);
}

#[test]
fn answer_depends_on_seed_puzzle_and_episode() {
    let pick = |seed: u64, level: u32, episode: u32| {
        let mut g = Wordle::new();
        g.init(&GameConfig {
            seed,
            level: Some(level),
            ..Default::default()
        });
        g.reset(episode);
        g.answer
    };
    assert_eq!(pick(1, 1, 0), pick(1, 1, 0));
    let all: Vec<Word> = (1..=5)
        .flat_map(|s| (1..=5).map(move |l| pick(s, l, 0)))
        .collect();
    let mut uniq = all.clone();
    uniq.sort_unstable();
    uniq.dedup();
    assert!(
        uniq.len() >= 20,
        "answers barely vary: {} distinct of 25",
        uniq.len()
    );
    assert_ne!(pick(2, 3, 0), pick(2, 3, 1));
    let s = testkit::stepper(ID, "32_04", 1);
    assert_eq!(s.state_value()["game_state"]["level"], 4);
}

#[test]
fn expert_payload_goes_through_the_action_layer() {
    let mut s = testkit::stepper(ID, "32_01", 2);
    let p = s.expert_payload();
    assert_eq!(p["action"], "type_text");
    assert_eq!(
        p["text"].as_str().unwrap().len(),
        5,
        "five letters, no Enter: the fifth letter submits"
    );
    let rec = s.step(Interface::Generalist, Some(&p)).unwrap();
    assert!(rec.valid());
    assert_eq!(rec.state["metrics"]["attempts"], 1);
    for f in [
        "metrics.attempts",
        "game_state.completion_progress",
        "metrics.guesses_remaining",
        "metrics.letters_correct",
        "metrics.letters_present",
        "metrics.letters_absent",
        "terminal.outcome",
        "terminal.isTerminal",
    ] {
        assert!(lookup(&rec.state, f).is_some(), "missing state field {f}");
    }
}

#[test]
fn expert_solves_within_six_tries() {
    // Play the expert on many answers directly: it must solve nearly all in
    // six tries without ever reading the answer.
    let mut tries_hist = [0usize; 8];
    for (i, a) in answers().iter().enumerate().filter(|(i, _)| i % 7 == 0) {
        let mut g = game_with("crane");
        g.answer = *a;
        let task = TaskInfo {
            task_id: "32_01".into(),
            score_field: "metrics.letters_correct".into(),
            target: 5.0,
            level: Some(1),
        };
        while !g.state().terminal.is_terminal {
            let p = g.expert_action(&task);
            type_text(&mut g, p["text"].as_str().unwrap());
        }
        let n = if g.solved() { g.rows().len() } else { 7 };
        tries_hist[n] += 1;
        let _ = i;
    }
    let total: usize = tries_hist.iter().sum();
    assert!(
        tries_hist[7] * 50 <= total,
        "too many failures: {tries_hist:?}"
    );
    assert_eq!(tries_hist[0], 0);
}

#[test]
fn random_guesser_does_clearly_worse() {
    let list = answers();
    let mut random_wins = 0;
    let mut expert_steps = 0;
    for seed in 1..=5 {
        let mut rng = Rng::new(seed, 77);
        let r = testkit::play(ID, "32_02", seed, |_| {
            Some(
                json!({"action": "type_text", "text": format!("{}\n", word_str(&list[rng.index(list.len())]))}),
            )
        });
        random_wins += r.success as u32;
        let e = testkit::play_expert(ID, "32_02", seed);
        assert!(e.success);
        expert_steps += e.steps;
    }
    assert!(random_wins <= 2, "random guessing won {random_wins}/5");
    assert!(
        expert_steps <= 5 * 6,
        "expert used {expert_steps} steps for 5 puzzles"
    );
}

/// Every frame of expert plays and of a random typist (half-typed rows,
/// unknown words, backspaces, lost games), hashed with the drawing code
/// from before the grid and keyboard were drawn from cached tiles: pins the
/// pixels across many states.
#[test]
fn golden_frames_over_whole_plays() {
    let expert: Vec<String> = [(1, "32_05"), (2, "32_03"), (3, "32_01")]
        .iter()
        .map(|&(seed, task)| {
            testkit::frames_digest(ID, task, seed, 12, |s| Some(s.expert_payload()))
        })
        .collect();
    let mut rng = gw_core::Rng::new(5, 77);
    let random = testkit::frames_digest(ID, "32_03", 5, 60, move |_| {
        let text = match rng.index(5) {
            0 => return Some(serde_json::json!({"action": "wait"})),
            1 => word_str(&answers()[rng.index(answers().len())]),
            2 => (0..5)
                .map(|_| (b'a' + rng.index(26) as u8) as char)
                .collect(),
            3 => (0..2)
                .map(|_| (b'a' + rng.index(26) as u8) as char)
                .collect(),
            _ => "\u{8}".to_string(),
        };
        Some(serde_json::json!({"action": "type_text", "text": text}))
    });
    assert_eq!(
        [
            expert[0].as_str(),
            expert[1].as_str(),
            expert[2].as_str(),
            random.as_str()
        ],
        [
            "3ee6be5841518f460afd618e313363e1d12d86c18b3f630828b4673e793c2bb1",
            "0f1575fc6ba1dc7a07ca20bed13ab301ca2d0019d7e500605192e04588193c95",
            "e4c5b0443e51290aa8140411d472e04a432db3825731d01f6199ef2d946cfba8",
            "5d4eb18dcf345e76195fedafdf7db54ccf3baaeb23db87ddf40646e353cd451a",
        ]
    );
}

#[test]
#[ignore = "writes PNGs for a person to look at"]
fn save_sample_frames() {
    let mut s = testkit::stepper(ID, "32_01", 3);
    for _ in 0..2 {
        let p = s.expert_payload();
        s.step(Interface::Generalist, Some(&p)).unwrap();
    }
    let p = json!({"action": "type_text", "text": "qwert\n"});
    s.step(Interface::Generalist, Some(&p)).unwrap();
    testkit::save_frame(&s, std::path::Path::new("/tmp/wordle_msg.png"));
    let p = json!({"action": "type_text", "text": "sh"});
    s.step(Interface::Generalist, Some(&p)).unwrap();
    testkit::save_frame(&s, std::path::Path::new("/tmp/wordle.png"));
    // Play to the end of the puzzle.
    testkit::save_frame_after(ID, "32_01", 3, u32::MAX, "/tmp/wordle_end.png");
}

#[test]
#[ignore = "diagnostic: render timing"]
fn render_timing() {
    for (id, task) in [
        (ID, "32_01"),
        (crate::g03_astray::ID, "03_05"),
        (crate::g01_2048::ID, "01_01"),
    ] {
        let s = testkit::stepper(id, task, 1);
        let mut pm = tiny_skia::Pixmap::new(1280, 720).unwrap();
        s.render(&mut pm);
        let t = std::time::Instant::now();
        for _ in 0..50 {
            s.render(&mut pm);
        }
        println!(
            "{id}: {:.3} ms per frame",
            t.elapsed().as_secs_f64() * 1000.0 / 50.0
        );
    }
}

#[test]
#[ignore = "diagnostic: the expert's tries over every answer"]
fn expert_tries_histogram() {
    let task = TaskInfo {
        task_id: "32_01".into(),
        score_field: "metrics.letters_correct".into(),
        target: 5.0,
        level: Some(1),
    };
    let mut hist = [0usize; 8];
    for a in answers() {
        let mut g = game_with("crane");
        g.answer = *a;
        while !g.state().terminal.is_terminal {
            let p = g.expert_action(&task);
            type_text(&mut g, p["text"].as_str().unwrap());
        }
        hist[if g.solved() { g.rows().len() } else { 7 }] += 1;
    }
    println!("tries 1..6, fail: {:?}", &hist[1..]);
    let mut line = String::new();
    for task in ["32_01", "32_02", "32_03", "32_04", "32_05"] {
        for seed in 1..=5 {
            let r = testkit::play_expert(ID, task, seed);
            line += &format!(
                "{task}/s{seed}:{}{} ",
                r.steps,
                if r.success { "" } else { "!" }
            );
        }
    }
    println!("{line}");
}
