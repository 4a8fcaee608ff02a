"""PPO on pixels over a GameWorld game, in one file (CleanRL style).

    pip install gameworld torch
    python examples/python/ppo_pixels.py --env-id GameWorld/2048-01_01-v0 --total-timesteps 200000

The vector environment steps ``--num-envs`` copies of the game on Rust
threads and writes their 64x64 frames into one array; the agent is the
Nature-CNN actor-critic of CleanRL's ``ppo_atari.py`` (without frame
stacking). Not run by CI: it needs PyTorch and minutes of CPU or a GPU.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions.categorical import Categorical

import gameworld


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--env-id", default="GameWorld/2048-01_01-v0")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--total-timesteps", type=int, default=200_000)
    p.add_argument("--learning-rate", type=float, default=2.5e-4)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--threads", type=int, default=None, help="Rust threads stepping the envs (default: all cores)")
    p.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=4)
    p.add_argument("--update-epochs", type=int, default=4)
    p.add_argument("--clip-coef", type=float, default=0.1)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--size", type=int, default=64, help="observation side in pixels")
    args = p.parse_args()
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    return args


def layer_init(layer, std=np.sqrt(2), bias_const=0.0):
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, n_actions: int, size: int):
        super().__init__()
        self.network = nn.Sequential(
            layer_init(nn.Conv2d(3, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(),
            nn.Flatten(),
        )
        with torch.no_grad():
            flat = self.network(torch.zeros(1, 3, size, size)).shape[1]
        self.trunk = nn.Sequential(layer_init(nn.Linear(flat, 512)), nn.ReLU())
        self.actor = layer_init(nn.Linear(512, n_actions), std=0.01)
        self.critic = layer_init(nn.Linear(512, 1), std=1)

    def hidden(self, x):
        # (B, H, W, 3) uint8 -> (B, 3, H, W) float in 0..1
        return self.trunk(self.network(x.permute(0, 3, 1, 2).float() / 255.0))

    def get_value(self, x):
        return self.critic(self.hidden(x))

    def get_action_and_value(self, x, action=None):
        h = self.hidden(x)
        probs = Categorical(logits=self.actor(h))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(h)


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    envs = gameworld.vector.make(args.env_id, num_envs=args.num_envs, threads=args.threads,
                                 render_size=(args.size, args.size))
    n_actions = envs.single_action_space.n
    print(f"{args.env_id}: {n_actions} actions ({', '.join(envs.action_names[:6])}...), "
          f"{args.num_envs} envs on {envs.threads} threads")
    agent = Agent(n_actions, args.size).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs) + envs.single_observation_space.shape, dtype=torch.uint8).to(device)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long).to(device)
    logprobs = torch.zeros((args.num_steps, args.num_envs)).to(device)
    rewards = torch.zeros((args.num_steps, args.num_envs)).to(device)
    dones = torch.zeros((args.num_steps, args.num_envs)).to(device)
    values = torch.zeros((args.num_steps, args.num_envs)).to(device)

    global_step, start = 0, time.time()
    next_obs, _ = envs.reset(seed=args.seed)
    # The vector env overwrites its arrays in place: copy into torch.
    next_obs = torch.tensor(np.array(next_obs), device=device)
    next_done = torch.zeros(args.num_envs).to(device)
    returns_seen: list[float] = []
    episode_return = np.zeros(args.num_envs)
    num_updates = args.total_timesteps // args.batch_size

    for update in range(1, num_updates + 1):
        frac = 1.0 - (update - 1.0) / num_updates
        optimizer.param_groups[0]["lr"] = frac * args.learning_rate
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
                values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            o, reward, term, trunc, info = envs.step(action.cpu().numpy())
            done = np.logical_or(term, trunc)
            episode_return += reward
            for i in np.flatnonzero(done):
                returns_seen.append(episode_return[i])
                episode_return[i] = 0.0
            # Next-step auto-reset: the step after `done` starts a new episode
            # and its reward is 0, so the transition is masked by `dones`.
            rewards[step] = torch.tensor(reward, dtype=torch.float32, device=device)
            next_obs = torch.tensor(np.array(o), device=device)
            next_done = torch.tensor(done, dtype=torch.float32, device=device)

        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards).to(device)
            lastgaelam = 0
            for t in reversed(range(args.num_steps)):
                if t == args.num_steps - 1:
                    nextnonterminal = 1.0 - next_done
                    nextvalues = next_value
                else:
                    nextnonterminal = 1.0 - dones[t + 1]
                    nextvalues = values[t + 1]
                delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
                advantages[t] = lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            returns = advantages + values

        b_obs = obs.reshape((-1,) + envs.single_observation_space.shape)
        b_logprobs, b_actions = logprobs.reshape(-1), actions.reshape(-1)
        b_advantages, b_returns, b_values = advantages.reshape(-1), returns.reshape(-1), values.reshape(-1)
        b_inds = np.arange(args.batch_size)
        for _epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for s in range(0, args.batch_size, args.minibatch_size):
                mb = b_inds[s:s + args.minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        recent = returns_seen[-20:]
        mean = f"{np.mean(recent):.3f}" if recent else "-"
        print(f"update {update}/{num_updates} step {global_step} "
              f"return(20) {mean} sps {int(global_step / (time.time() - start))}")
    envs.close()


if __name__ == "__main__":
    main()
