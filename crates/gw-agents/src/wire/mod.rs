//! The wire layer: how requests travel and how they are kept. It knows
//! requests and responses, never a provider's format or an agent.

pub mod http;
pub mod replay;
pub mod secrets;
