//! The instruction pool: several goal phrasings per target item, one drawn
//! per episode with the project PRNG so a dataset's goals vary in wording
//! while staying reproducible from the seed.
//!
//! The eight MGOA atomic targets have hand-written phrasings; any other item
//! gets phrasings from the verb of its last plan step (mine, collect, craft,
//! smelt), so long-horizon targets work too.

use gw_core::Rng;
use gw_openworld::GoalKind;

/// The PRNG stream the goal draw uses (apart from every other use of a seed).
const STREAM: u64 = 0x6f77_6461_7461; // "owdata"

/// Singular and plural nouns of the MGOA targets, and their phrasings.
/// `{q}` is the quantity phrase ("one log", "3 logs").
const ATOMIC: &[(&str, &str, &str, &[&str])] = &[
    (
        "logs",
        "log",
        "logs",
        &[
            "Chop a tree to get {q}.",
            "Find a tree and cut {q} from its trunk.",
            "Collect {q} of wood.",
            "Punch the trunk of a tree until you hold {q}.",
        ],
    ),
    (
        "wheat_seeds",
        "wheat seed",
        "wheat seeds",
        &[
            "Collect {q}.",
            "Break grass until you find {q}.",
            "Gather {q} from the tall grass.",
        ],
    ),
    (
        "dirt",
        "block of dirt",
        "blocks of dirt",
        &["Dig up {q}.", "Mine {q} from the ground.", "Collect {q}."],
    ),
    (
        "cobblestone",
        "cobblestone",
        "cobblestone",
        &[
            "Mine {q} with your wooden pickaxe.",
            "Dig down to the stone and collect {q}.",
            "Use the pickaxe to break stone until you have {q}.",
        ],
    ),
    (
        "iron_ore",
        "iron ore",
        "iron ore",
        &[
            "Mine {q} with the stone pickaxe.",
            "Go underground, find iron and dig out {q}.",
            "Obtain {q}.",
        ],
    ),
    (
        "gold_ore",
        "gold ore",
        "gold ore",
        &[
            "Mine {q} with the iron pickaxe.",
            "Search the caves for gold and dig out {q}.",
            "Obtain {q}.",
        ],
    ),
    (
        "diamond",
        "diamond",
        "diamonds",
        &[
            "Dig deep and mine {q}.",
            "Find diamond ore below ground and get {q}.",
            "Use the iron pickaxe to obtain {q}.",
        ],
    ),
    (
        "redstone",
        "redstone dust",
        "redstone dust",
        &[
            "Mine redstone ore to get {q}.",
            "Go deep underground and collect {q}.",
            "Obtain {q}.",
        ],
    ),
];

/// Phrasings for any other target, by how its last plan step obtains it.
fn generic(kind: GoalKind) -> &'static [&'static str] {
    match kind {
        GoalKind::Mine => &["Mine {q}.", "Dig until you have {q}.", "Obtain {q}."],
        GoalKind::Collect => &["Collect {q}.", "Go and get {q}.", "Obtain {q}."],
        GoalKind::Craft => &[
            "Craft {q}.",
            "Gather what it takes and craft {q}.",
            "I need {q}; make it.",
        ],
        GoalKind::Smelt => &[
            "Smelt {q}.",
            "Use a furnace to make {q}.",
            "Obtain {q} by smelting.",
        ],
    }
}

/// "one log" / "3 logs".
fn quantity(singular: &str, plural: &str, count: u32) -> String {
    if count == 1 {
        format!("one {singular}")
    } else {
        format!("{count} {plural}")
    }
}

/// Every phrasing of the goal "hold `count` of `target`", the quantity filled in.
pub fn pool(target: &str, count: u32) -> Vec<String> {
    let (q, templates): (String, &[&str]) = match ATOMIC.iter().find(|(item, ..)| *item == target) {
        Some((_, one, many, t)) => (quantity(one, many, count), t),
        None => {
            let one = target.replace('_', " ");
            let many = if one.ends_with('s') {
                one.clone()
            } else {
                format!("{one}s")
            };
            let kind = gw_openworld::plan(target, count, &Default::default())
                .ok()
                .and_then(|p| p.last().map(|s| s.kind))
                .unwrap_or(GoalKind::Collect);
            (quantity(&one, &many, count), generic(kind))
        }
    };
    templates.iter().map(|t| t.replace("{q}", &q)).collect()
}

/// The goal text of one episode: a phrasing drawn from the pool by `seed`.
pub fn draw(target: &str, count: u32, seed: u64) -> String {
    let mut p = pool(target, count);
    let i = Rng::new(seed, STREAM).index(p.len());
    p.swap_remove(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_targets_have_several_phrasings_with_the_count() {
        for (item, ..) in ATOMIC {
            let p = pool(item, 3);
            assert!(p.len() >= 3, "{item}: {p:?}");
            assert!(p.iter().all(|g| g.contains("3 ")), "{p:?}");
        }
        assert_eq!(pool("logs", 1)[0], "Chop a tree to get one log.");
        assert_eq!(pool("diamond", 2)[0], "Dig deep and mine 2 diamonds.");
    }

    #[test]
    fn other_targets_use_the_verb_of_their_plan() {
        assert_eq!(pool("stone_pickaxe", 1)[0], "Craft one stone pickaxe.");
        assert_eq!(pool("iron_ingot", 2)[0], "Smelt 2 iron ingots.");
    }

    #[test]
    fn the_draw_is_seeded_and_covers_the_pool() {
        assert_eq!(draw("logs", 1, 42), draw("logs", 1, 42));
        let drawn: std::collections::BTreeSet<String> =
            (0..64).map(|s| draw("logs", 1, s)).collect();
        assert_eq!(drawn.len(), pool("logs", 1).len());
    }
}
