//! Rolling memory: the last `memory_rounds` rounds of interaction, each
//! recorded as `user_prompt → screenshot → reasoning → action`, re-injected
//! before the current observation as an interleaved text-and-image
//! "Action History". Which of the four fields are re-injected is
//! configurable (`memory_include_fields`); `outcome` (whether the action
//! executed) may be added as a fifth.

use crate::conversation::{Image, Part};
use std::collections::VecDeque;

/// Rounds kept when a model profile sets no `memory_rounds`.
pub const DEFAULT_ROUNDS: u32 = 2;
pub const FIELDS: [&str; 5] = gw_core::registry::MEMORY_FIELDS;
pub const DEFAULT_FIELDS: [&str; 4] = ["user_prompt", "screenshot", "reasoning", "action"];

/// One past step.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    pub step: u32,
    pub user_prompt: String,
    pub screenshot: Option<Image>,
    pub reasoning: Option<String>,
    /// The action as the model proposed it (or a note that it proposed none).
    pub action: String,
    /// Filled in once the runtime reports how the action went.
    pub outcome: Option<String>,
    /// Set when this round's action failed the episode and the game
    /// restarted: what happened and the frame that shows it. Always shown,
    /// whatever `memory_include_fields` says (the screenshot only when
    /// screenshots are included).
    pub episode_end: Option<(String, Option<Image>)>,
}

#[derive(Clone, Debug)]
pub struct Memory {
    rounds: usize,
    fields: Vec<String>,
    history: VecDeque<Round>,
}

impl Memory {
    /// `fields` must be names from [`FIELDS`] (checked by [`Memory::check_fields`]).
    pub fn new(rounds: u32, fields: Option<&[String]>) -> Memory {
        let fields = fields
            .map(<[String]>::to_vec)
            .unwrap_or_else(|| DEFAULT_FIELDS.iter().map(|s| s.to_string()).collect());
        Memory {
            rounds: rounds as usize,
            fields,
            history: VecDeque::new(),
        }
    }

    pub fn check_fields(fields: &[String]) -> Result<(), String> {
        match fields.iter().find(|f| !FIELDS.contains(&f.as_str())) {
            Some(bad) => Err(format!(
                "unknown memory_include_fields entry \"{bad}\"; use any of {}",
                FIELDS.join(", ")
            )),
            None => Ok(()),
        }
    }

    fn has(&self, field: &str) -> bool {
        self.fields.iter().any(|f| f == field)
    }

    pub fn len(&self) -> usize {
        self.history.len()
    }

    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    pub fn push(&mut self, round: Round) {
        if self.rounds == 0 {
            return;
        }
        self.history.push_back(round);
        while self.history.len() > self.rounds {
            self.history.pop_front();
        }
    }

    /// Attach the runtime's verdict to the newest round.
    pub fn set_outcome(&mut self, outcome: String) {
        if let Some(last) = self.history.back_mut() {
            last.outcome = Some(outcome);
        }
    }

    /// Record that the newest round ended its episode (see [`Round::episode_end`]).
    pub fn set_episode_end(&mut self, note: String, screenshot: Option<Image>) {
        if let Some(last) = self.history.back_mut() {
            last.episode_end = Some((note, screenshot));
        }
    }

    /// The Action History block, oldest round first; empty without history.
    pub fn render(&self) -> Vec<Part> {
        if self.history.is_empty() {
            return Vec::new();
        }
        let mut parts = vec![Part::Text("## Action History".into())];
        let total = self.history.len();
        for (i, r) in self.history.iter().enumerate() {
            let mut text = format!("### Round {} of {total} (step {})", i + 1, r.step);
            if self.has("user_prompt") {
                text.push_str(&format!("\nPrompt: {}", r.user_prompt));
            }
            parts.push(Part::Text(text));
            if self.has("screenshot")
                && let Some(img) = &r.screenshot
            {
                parts.push(Part::Image(img.clone()));
            }
            let mut after = Vec::new();
            if self.has("reasoning") {
                after.push(format!(
                    "Reasoning: {}",
                    r.reasoning.as_deref().unwrap_or("(none given)")
                ));
            }
            if self.has("action") {
                after.push(format!("Action: {}", r.action));
            }
            if self.has("outcome")
                && let Some(o) = &r.outcome
            {
                after.push(format!("Outcome: {o}"));
            }
            if !after.is_empty() {
                parts.push(Part::Text(after.join("\n")));
            }
            if let Some((note, shot)) = &r.episode_end {
                parts.push(Part::Text(format!("Result: {note}.")));
                if self.has("screenshot")
                    && let Some(img) = shot
                {
                    parts.push(Part::Text("The screen when the episode ended:".into()));
                    parts.push(Part::Image(img.clone()));
                }
            }
        }
        parts.push(Part::Text("## Current Step".into()));
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn round(step: u32) -> Round {
        Round {
            step,
            user_prompt: format!("Step {step}."),
            screenshot: Some(Image {
                png: Arc::from(vec![step as u8].as_slice()),
                frame_path: Some(format!("frames/step_{step:06}.png")),
            }),
            reasoning: Some(format!("why {step}")),
            action: format!("move_up #{step}"),
            outcome: None,
            episode_end: None,
        }
    }

    #[test]
    fn keeps_the_last_rounds_interleaved() {
        let mut m = Memory::new(2, None);
        for s in 1..=3 {
            m.push(round(s));
        }
        m.set_outcome("executed".into());
        let parts = m.render();
        let images: Vec<_> = parts
            .iter()
            .filter_map(|p| {
                if let Part::Image(i) = p {
                    i.frame_path.clone()
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(
            images,
            vec!["frames/step_000002.png", "frames/step_000003.png"]
        );
        let text: String = parts
            .iter()
            .filter_map(|p| {
                if let Part::Text(t) = p {
                    Some(t.as_str())
                } else {
                    None
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        assert!(text.starts_with("## Action History"));
        assert!(
            text.contains("Prompt: Step 2.")
                && text.contains("Reasoning: why 3")
                && text.contains("Action: move_up #3")
        );
        assert!(!text.contains("step 1)") && !text.contains("Outcome"));
        // Images sit between the prompt and the reasoning of their round.
        assert!(matches!(&parts[2], Part::Image(_)));
    }

    #[test]
    fn fields_and_rounds_are_configurable() {
        let mut m = Memory::new(1, Some(&["action".to_string(), "outcome".to_string()]));
        m.push(round(1));
        m.set_outcome("out of the action space".into());
        let parts = m.render();
        assert!(parts.iter().all(|p| matches!(p, Part::Text(_))));
        let text: Vec<_> = parts
            .iter()
            .filter_map(|p| {
                if let Part::Text(t) = p {
                    Some(t.clone())
                } else {
                    None
                }
            })
            .collect();
        assert!(text.join("\n").contains("Outcome: out of the action space"));
        assert!(!text.join("\n").contains("Reasoning"));
        let mut off = Memory::new(0, None);
        off.push(round(1));
        assert!(off.render().is_empty());
        assert!(Memory::check_fields(&["screenshots".into()]).is_err());
    }
}
