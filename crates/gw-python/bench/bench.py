"""Environment steps per second of the gameworld package.

    python crates/gw-python/bench/bench.py [--games 01_2048,13_flappy-bird]
        [--seconds 3] [--num-envs 16] [--threads N] [--json out.json]

For each game (its first task, generalist interface, uniformly random
actions) it measures, with pixel observations at 64x64 and at the game's own
viewport (1280x720):
  - single: one ``gameworld.make`` env in a Python loop, resetting when an
    episode ends (resets included in the time, like Crafter's "with resets");
  - vector: ``gameworld.vector.make`` with N envs on T threads (auto-reset).
Steps/s counts environment steps (a vector step of N envs is N steps). Build
the package in release mode for meaningful figures
(``pip install ./crates/gw-python``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

import gameworld
from gameworld import _core


def first_task(game_id: str) -> str:
    return next(t for g, t, _n in _core.task_ids() if g == game_id)


def bench_single(env_id: str, size, seconds: float) -> dict:
    env = gameworld.make(env_id, render_size=size)
    rng = np.random.default_rng(0)
    n = env.action_space.n
    env.reset(seed=1)
    steps = resets = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in rng.integers(0, n, size=64):
            _, _, term, trunc, _ = env.step(int(a))
            steps += 1
            if term or trunc:
                env.reset()
                resets += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"steps_per_s": steps / elapsed, "steps_per_cpu_s": steps / cpu, "steps": steps, "resets": resets}


def bench_vector(env_id: str, size, seconds: float, num_envs: int, threads) -> dict:
    venv = gameworld.vector.make(env_id, num_envs=num_envs, threads=threads, render_size=size)
    rng = np.random.default_rng(0)
    n = venv.single_action_space.n
    venv.reset(seed=1)
    actions = rng.integers(0, n, size=(256, num_envs))
    steps = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in actions[:16]:
            venv.step(a)
            steps += num_envs
        actions = np.roll(actions, 16, axis=0)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"steps_per_s": steps / elapsed, "steps_per_cpu_s": steps / cpu, "steps": steps, "num_envs": num_envs, "threads": venv.threads}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default="01_2048,13_flappy-bird,29_tetris,31_wolf3d")
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--json", default=None, help="also write the rows here")
    args = p.parse_args()

    rows = []
    print(f"{'game':28} {'obs':>9} {'single/s':>10} {'vector/s':>10} {'single/cpu-s':>13} {'vector/cpu-s':>13}"
          f"  (N={args.num_envs}; /cpu-s = per second of this process's CPU time, all threads)")
    for game in args.games.split(","):
        env_id = f"{game}+{first_task(game)}"
        viewport = gameworld.make(env_id, render_size=None).viewport
        for label, size in (("64x64", (64, 64)), (f"{viewport[0]}x{viewport[1]}", None)):
            single = bench_single(env_id, size, args.seconds)
            vector = bench_vector(env_id, size, args.seconds, args.num_envs, args.threads)
            rows.append({"env": env_id, "obs": label, "single": single, "vector": vector})
            print(f"{env_id:28} {label:>9} {single['steps_per_s']:10.0f} {vector['steps_per_s']:10.0f}"
                  f" {single['steps_per_cpu_s']:13.0f} {vector['steps_per_cpu_s']:13.0f}", flush=True)
    meta = {"cpus": os.cpu_count(), "machine": platform.machine(), "python": platform.python_version(),
            "gameworld_threads": rows[0]["vector"]["threads"] if rows else None}
    print(json.dumps(meta))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
