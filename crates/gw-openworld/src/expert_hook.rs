//! Where the game's scripted expert lives between steps.
use crate::game::OpenWorld;
use gw_world::Action;

/// The expert's state kept by the game across steps.
pub struct ExpertSlot;

/// The expert's next factored action.
pub fn next_action(_slot: &mut Option<ExpertSlot>, _game: &OpenWorld) -> Action {
    Action::noop()
}
