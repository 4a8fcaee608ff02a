//! The game's scripted expert: the expert executor (`crate::expert::Expert`:
//! target → plan → skill policy, re-planning on failure) kept by the game
//! between steps, built on the first call of an episode.

use crate::expert::Expert;
use crate::game::OpenWorld;
use gw_world::Action;

/// The expert's state kept by the game across steps.
pub type ExpertSlot = Expert;

/// The expert's next factored action for the game's task.
pub fn next_action(slot: &mut Option<ExpertSlot>, game: &OpenWorld) -> Action {
    if game.task.target_item.is_empty() {
        return Action::noop();
    }
    // Atomic tasks count items until time runs out: keep collecting past
    // the task's target.
    let count = match game.task.suite {
        crate::game::Suite::Atomic => crate::expert::KEEP_COLLECTING,
        _ => game.task.count,
    };
    let ex = slot.get_or_insert_with(|| Expert::new(&game.task.target_item, count));
    ex.act(&game.world)
}
