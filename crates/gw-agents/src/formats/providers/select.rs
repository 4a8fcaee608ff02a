//! Which provider speaks a profile's wire format. A new format is one file
//! beside this one and one line here.

use super::{Provider, anthropic, gemini, openai, openai_responses};
use gw_core::registry::{ApiKind, ModelSpec, ProviderKind};

/// The provider for a model profile.
pub fn for_model(model: &ModelSpec) -> Box<dyn Provider> {
    match (model.provider, model.api) {
        (ProviderKind::Openai, ApiKind::Chat) => Box::new(openai::OpenAiChat),
        (ProviderKind::Openai, ApiKind::Responses) => Box::new(openai_responses::OpenAiResponses),
        (ProviderKind::Anthropic, _) => Box::new(anthropic::Anthropic),
        (ProviderKind::Gemini, _) => Box::new(gemini::Gemini),
        // Never asked for: `provider: policy` profiles run a local checkpoint
        // (gw-goap) and `create_agent` / `Link::open` refuse them.
        (ProviderKind::Policy, _) => Box::new(openai::OpenAiChat),
    }
}
