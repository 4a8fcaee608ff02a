//! Scripted Wordle expert. It never reads the answer: it keeps the answers
//! that agree with every feedback row so far and picks the accepted word
//! that splits those candidates into the smallest expected group (sum of
//! squared group sizes over feedback patterns), preferring a word that could
//! itself be the answer. With one or two candidates left, or on the last try,
//! it guesses a candidate.

use super::{MAX_TRIES, Mark, Row, Word, answers, score_guess, valid_words};
use gw_core::TaskInfo;
use std::sync::OnceLock;

fn pattern(guess: &Word, answer: &Word) -> usize {
    score_guess(guess, answer).iter().fold(0, |acc, m| {
        acc * 3
            + match m {
                Mark::Absent => 0,
                Mark::Present => 1,
                Mark::Correct => 2,
            }
    })
}

/// Answers consistent with every row.
pub fn candidates(rows: &[Row]) -> Vec<Word> {
    answers()
        .iter()
        .copied()
        .filter(|a| rows.iter().all(|r| score_guess(&r.word, a) == r.marks))
        .collect()
}

/// Expected-size score of `guess` over `cands` (lower is better).
fn split_score(guess: &Word, cands: &[Word]) -> u64 {
    let mut buckets = [0u32; 243];
    for a in cands {
        buckets[pattern(guess, a)] += 1;
    }
    buckets.iter().map(|&n| (n as u64) * (n as u64)).sum()
}

fn best_split(cands: &[Word]) -> Word {
    let mut best: Option<(u64, Word)> = None;
    // A candidate gets a small edge: it may be the answer outright.
    let is_cand = |w: &Word| cands.binary_search(w).is_ok();
    for g in valid_words() {
        let s = split_score(g, cands) * 2 - if is_cand(g) { 1 } else { 0 };
        if best.is_none_or(|(b, _)| s < b) {
            best = Some((s, *g));
        }
    }
    best.map(|(_, w)| w).unwrap_or(cands[0])
}

/// The opening guess (the same for every game, computed once).
fn opener() -> Word {
    static OPENER: OnceLock<Word> = OnceLock::new();
    *OPENER.get_or_init(|| best_split(answers()))
}

/// The word the expert types next.
pub fn next_guess(rows: &[Row], _task: &TaskInfo) -> Word {
    if rows.is_empty() {
        return opener();
    }
    let mut cands = candidates(rows);
    cands.sort_unstable();
    match cands.len() {
        0 => answers()[0],
        1 | 2 => cands[0],
        _ if rows.len() + 1 >= MAX_TRIES => cands[0],
        _ => best_split(&cands),
    }
}
