//! One sub-goal of a plan: "mine 3 oak_log", "craft 1 crafting_table", "smelt 3 iron_ingot".
//! Its JSON form is the SPEC's `world plan --json` step: `{"kind", "item", "count"}`.

use serde::{Deserialize, Serialize};

/// How a sub-goal's item is obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalKind {
    /// Break blocks that drop the item (logs, stone, ores), with the tool the block needs.
    Mine,
    /// Obtain the item another way than breaking blocks: from mobs (leather, wool) or by
    /// picking it up.
    Collect,
    /// Craft the item, in the 2×2 inventory grid or at a crafting table.
    Craft,
    /// Smelt the item in a furnace.
    Smelt,
}

impl GoalKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GoalKind::Mine => "mine",
            GoalKind::Collect => "collect",
            GoalKind::Craft => "craft",
            GoalKind::Smelt => "smelt",
        }
    }
}

/// Reach `count` of `item` (a world item id) in the inventory, obtained by `kind`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SubGoal {
    pub kind: GoalKind,
    pub item: String,
    pub count: u32,
}

impl std::fmt::Display for SubGoal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.kind.as_str(), self.count, self.item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_shape_is_the_specs_plan_step() {
        let g = SubGoal {
            kind: GoalKind::Smelt,
            item: "iron_ingot".into(),
            count: 3,
        };
        let text = serde_json::to_string(&g).unwrap();
        assert_eq!(text, r#"{"kind":"smelt","item":"iron_ingot","count":3}"#);
        let back: SubGoal = serde_json::from_str(&text).unwrap();
        assert_eq!(back, g);
        assert_eq!(g.to_string(), "smelt 3 iron_ingot");
        assert!(serde_json::from_str::<SubGoal>(r#"{"kind":"dig","item":"x","count":1}"#).is_err());
    }
}
