"""Load an MGOA-style goal-observation-action dataset with Hugging Face
``datasets`` and turn its rows into training tensors.

Make a small dataset first (the CLI writes Parquet shards and a dataset card
that ``datasets`` reads):

    gameworld world dataset --tasks atomic_logs,atomic_dirt --episodes 4 \
        --out mgoa --resolution 64x64
    pip install datasets pillow numpy
    python examples/python/load_mgoa_dataset.py mgoa

Each row is one step: ``goal`` (the task's instruction), ``frame`` (a PNG
image, decoded by ``datasets`` to a PIL image), ``action`` (the factored
action), ``vpt_action`` (its VPT classes: ``buttons`` in 0..8641, ``camera``
in 0..121), ``inventory``, ``position``, ``reward``, ``progress``, ``done``.
"""

from __future__ import annotations

import sys

import numpy as np
from datasets import load_dataset


def main(folder: str) -> None:
    # The card's front matter names the Parquet files (split "train").
    ds = load_dataset(folder, split="train")
    print(ds)
    print("features:", list(ds.features))
    row = ds[0]
    frame = np.asarray(row["frame"])  # (H, W, 3) uint8
    print("goal:", row["goal"].strip())
    print("frame:", frame.shape, frame.dtype, "vpt action:", row["vpt_action"])

    # Batches for a behaviour-cloning step: pixels and VPT action classes.
    for batch in ds.iter(batch_size=32):
        frames = np.stack([np.asarray(img) for img in batch["frame"]])  # (B, H, W, 3)
        buttons = np.array([a["buttons"] for a in batch["vpt_action"]])
        camera = np.array([a["camera"] for a in batch["vpt_action"]])
        print("batch", frames.shape, "buttons", buttons[:4], "camera", camera[:4])
        break

    # Episodes: split at `done`.
    episodes = int(np.sum(ds["done"]))
    print(f"{len(ds)} steps in {episodes} finished episode(s)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "mgoa")
