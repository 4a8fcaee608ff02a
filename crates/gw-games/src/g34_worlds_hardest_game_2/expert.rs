//! The WHG2 expert is the shared planning expert of the first game
//! (`g33_worlds_hardest_game::expert`): a breadth-first search over position,
//! dot-clock phase and coins held, simulating the deterministic dots tick by
//! tick. For this game's coin tasks (`metrics.coins`) it plans only until
//! enough coins are held; otherwise it plans to the exit.

#[cfg(test)]
pub(crate) use crate::g33_worlds_hardest_game::expert::{Act, Goal, plan};
