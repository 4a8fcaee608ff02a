"""Environment steps per second of the gameworld package, side by side with
Crafter in the same run.

    python crates/gw-python/bench/bench.py [--games 01_2048,13_flappy-bird,...]
        [--seconds 3] [--rounds 2] [--crafter-python /path/to/venv/bin/python]
        [--num-envs 8] [--threads 2] [--json out.json]

What it measures, all at 64x64 with uniformly random actions and resets
included:
  - single: one ``gameworld.make`` env per game (its first task) in a Python
    loop, pinned to one core; steps per second of CPU time (the fair figure
    on a shared machine) and per second of wall time;
  - openworld: ``gameworld.make("openworld+atomic_logs")`` the same way;
  - crafter: ``crafter.Env(size=(64, 64))`` the same way, run by the Python
    named with ``--crafter-python`` (Crafter need not be installed next to
    gameworld); the rounds alternate Crafter and gameworld so both see the
    same machine load;
  - vector: ``gameworld.vector.make`` of ``--num-envs`` envs on 1 thread and
    on ``--threads`` threads: env steps per second of wall time and the
    scaling of the threaded run over one env.
Build the package in release mode for meaningful figures
(``pip install ./crates/gw-python``); the dev wheel of scripts/test.sh is
optimised too but slower.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

import gameworld
from gameworld import _core

SIZE = (64, 64)

CRAFTER_SCRIPT = r"""
import json, os, sys, time
import numpy as np
import crafter
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
seconds = float(sys.argv[1])
env = crafter.Env(size=(64, 64), seed=1)
env.reset()
rng = np.random.default_rng(0)
n = env.action_space.n
steps = resets = 0
reset_cpu = 0.0
cpu, wall = time.process_time(), time.perf_counter()
while time.process_time() - cpu < seconds:
    for a in rng.integers(0, n, size=64):
        _, _, done, _ = env.step(int(a))
        steps += 1
        if done:
            t = time.process_time()
            env.reset()
            reset_cpu += time.process_time() - t
            resets += 1
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"per_cpu_s": steps / cpu, "per_s": steps / wall, "steps": steps, "resets": resets,
                  "between_resets_per_cpu_s": steps / max(cpu - reset_cpu, 1e-9)}))
"""


def first_task(game_id: str) -> str:
    return next(t for g, t, _n in _core.task_ids() if g == game_id)


def pin_one_core():
    if hasattr(os, "sched_setaffinity"):
        before = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {sorted(before)[0]})
        return before
    return None


def unpin(before):
    if before is not None:
        os.sched_setaffinity(0, before)


def bench_single(env_id: str, seconds: float) -> dict:
    env = gameworld.make(env_id, render_size=SIZE)
    env.action_space.seed(0)
    actions = [env.action_space.sample() for _ in range(256)]
    env.reset(seed=1)
    steps = resets = 0
    before = pin_one_core()
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        while time.process_time() - cpu < seconds:
            for a in actions:
                _, _, term, trunc, _ = env.step(a)
                steps += 1
                if term or trunc:
                    env.reset()
                    resets += 1
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        unpin(before)
    return {"per_cpu_s": steps / cpu, "per_s": steps / wall, "steps": steps, "resets": resets}


def bench_crafter(python: str, seconds: float) -> dict | None:
    try:
        done = subprocess.run([python, "-c", CRAFTER_SCRIPT, str(seconds)], capture_output=True, text=True,
                              timeout=seconds * 20 + 60)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"crafter: {e}", file=sys.stderr)
        return None
    if done.returncode != 0:
        print(f"crafter failed: {done.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def bench_vector(env_id: str, seconds: float, num_envs: int, threads: int) -> dict:
    venv = gameworld.vector.make(env_id, num_envs=num_envs, threads=threads, render_size=SIZE)
    n = venv.single_action_space.n
    venv.reset(seed=1)
    actions = np.random.default_rng(0).integers(0, n, size=(64, num_envs))
    steps = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < seconds:
        for a in actions:
            venv.step(a)
            steps += num_envs
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"per_s": steps / wall, "per_cpu_s": steps / cpu, "num_envs": num_envs, "threads": venv.threads}


def mean(rows: list[dict], key: str) -> float:
    return float(np.mean([r[key] for r in rows])) if rows else float("nan")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", default="01_2048,13_flappy-bird,23_pacman,29_tetris,05_breakout")
    p.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    p.add_argument("--rounds", type=int, default=2, help="alternating rounds of Crafter and gameworld")
    p.add_argument("--crafter-python", default=None, help="a Python with crafter installed")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--vector-game", default="01_2048")
    p.add_argument("--no-openworld", action="store_true")
    p.add_argument("--json", default=None, help="also write the figures here")
    args = p.parse_args()

    ids = [f"{g}+{first_task(g)}" for g in args.games.split(",") if g]
    if not args.no_openworld:
        ids.append("openworld+atomic_logs")
    single: dict[str, list[dict]] = {i: [] for i in ids}
    crafter: list[dict] = []
    for r in range(args.rounds):
        if args.crafter_python:
            c = bench_crafter(args.crafter_python, args.seconds)
            if c:
                crafter.append(c)
                print(f"round {r + 1}: crafter {c['per_cpu_s']:.0f} steps/cpu-s", flush=True)
        for i in ids:
            s = bench_single(i, args.seconds)
            single[i].append(s)
            print(f"round {r + 1}: {i} {s['per_cpu_s']:.0f} steps/cpu-s", flush=True)

    # Crafter's rate between resets (its world generation left out) is the
    # stricter base: gameworld's figures include their resets.
    base = mean(crafter, "between_resets_per_cpu_s")
    print()
    print(f"{'env (64x64, random actions, 1 core)':40} {'steps/cpu-s':>12} {'steps/s':>9} {'x Crafter':>10}")
    if crafter:
        print(f"{'crafter (resets included)':40} {mean(crafter, 'per_cpu_s'):12.0f} {mean(crafter, 'per_s'):9.0f}")
        print(f"{'crafter (between resets: the base)':40} {base:12.0f} {'':>9} {1.0:10.1f}")
    for i in ids:
        v = mean(single[i], "per_cpu_s")
        ratio = f"{v / base:10.1f}" if crafter else f"{'-':>10}"
        print(f"{i:40} {v:12.0f} {mean(single[i], 'per_s'):9.0f} {ratio}")

    vid = f"{args.vector_game}+{first_task(args.vector_game)}"
    one = bench_vector(vid, args.seconds, 1, 1)
    many_1 = bench_vector(vid, args.seconds, args.num_envs, 1)
    many_t = bench_vector(vid, args.seconds, args.num_envs, args.threads)
    print()
    print(f"vector {vid} (wall clock): 1 env {one['per_s']:.0f} steps/s; {args.num_envs} envs on 1 thread "
          f"{many_1['per_s']:.0f}; on {many_t['threads']} threads {many_t['per_s']:.0f} "
          f"= {many_t['per_s'] / one['per_s']:.2f}x one env, {many_t['per_s'] / many_1['per_s']:.2f}x one thread")
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    meta = {"cpus": os.cpu_count(), "machine": platform.machine(), "python": platform.python_version(),
            "gameworld": gameworld.__version__, "loadavg": load}
    print(json.dumps(meta))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "crafter": crafter, "single": single,
                       "vector": {"one": one, "many_1_thread": many_1, "many": many_t}}, f, indent=1)


if __name__ == "__main__":
    main()
