//! The learned policy as the hierarchical agent's low level: the current
//! sub-goal becomes the GOAP policy's goal text (phrased as the dataset
//! phrases goals) and the policy acts every step on its own small view.

use crate::Step;
use gw_agents::{AgentError, Observation};
use gw_goap::Runner;
use gw_goap::agent::Eyes;
use gw_openworld::SubGoal;
use std::path::Path;

pub struct GoapPolicy {
    runner: Runner,
    eyes: Eyes,
    goal: Option<SubGoal>,
    episodes: u64,
}

impl GoapPolicy {
    /// `checkpoint` `None` = the shipped `goap` checkpoint.
    pub fn new(checkpoint: Option<&Path>, seed: u64) -> Result<GoapPolicy, AgentError> {
        let net = gw_goap::agent::load_network(checkpoint)?;
        let d = gw_goap::agent::BUILTIN_DECODING;
        let mut runner = Runner::new(net, "", seed, d.sampling)
            .map_err(|e| AgentError::Config(format!("the GOAP policy: {e}")))?;
        runner.temperature = d.temperature;
        Ok(GoapPolicy {
            runner,
            eyes: Eyes::new(),
            goal: None,
            episodes: 0,
        })
    }

    /// A new episode: the policy's history starts over.
    pub fn restart_episode(&mut self) {
        self.episodes += 1;
        self.runner.restart(self.episodes);
        self.goal = None;
    }

    /// One step towards `goal`.
    pub fn act(
        &mut self,
        obs: &Observation,
        goal: &SubGoal,
        step: &mut Step,
    ) -> Result<(), AgentError> {
        if self.goal.as_ref() != Some(goal) {
            let text = gw_goap::goal_text(&goal.item, goal.count);
            self.runner
                .set_goal(&text)
                .map_err(|e| AgentError::Provider(format!("the GOAP policy failed: {e}")))?;
            self.goal = Some(goal.clone());
        }
        step.payload = Some(gw_goap::agent::act_payload(
            &mut self.runner,
            &mut self.eyes,
            obs,
        )?);
        Ok(())
    }
}
