"""A small goal-observation-action dataset made by the CLI, read back the way a
training user would: pyarrow for a shard, yaml for the card's front matter."""

import json
import os
import pathlib
import subprocess

import pyarrow.parquet as pa_parquet
import pytest
import yaml


def test_cli_dataset_reads_with_pyarrow_and_the_card_parses(tmp_path):
    cli = os.environ.get("GAMEWORLD_BIN")
    if not cli:
        pytest.skip("set GAMEWORLD_BIN to the gameworld binary (scripts/test.sh does)")
    out = tmp_path / "mgoa"
    done = subprocess.run(
        [cli, "world", "dataset", "--tasks", "atomic_logs,atomic_dirt", "--episodes", "1",
         "--out", str(out), "--resolution", "64x64", "--workers", "2", "--seed", "3"],
        capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    stats = json.loads((out / "stats.json").read_text())
    assert stats["attempted"] == 2
    assert stats["episodes"] + stats["dropped"]["total"] == 2
    assert stats["episodes"] >= 1, stats
    assert stats["resolution"] == [64, 64]

    files = sorted(out.glob("data/*/*.parquet"))
    assert len(files) == stats["episodes"]
    table = pa_parquet.read_table(files[0])
    assert table.num_rows == stats["per_task"][files[0].parent.name]["frames"]
    names = table.schema.names
    for col in ("task", "goal", "frame", "action", "vpt_action", "inventory", "position",
                "reward", "progress", "done", "step", "seed"):
        assert col in names, names
    rows = table.to_pylist()
    assert [r["step"] for r in rows] == list(range(len(rows)))
    assert rows[-1]["done"] and rows[-1]["progress"] == 1.0
    assert not any(r["done"] for r in rows[:-1])
    first = rows[0]
    # JPEG by default (`--frame-format png` keeps PNG): a JFIF start of image.
    assert first["frame"]["bytes"][:3] == b"\xff\xd8\xff"
    assert first["frame"]["path"] is None
    assert set(first["action"]) >= {"forward", "attack", "yaw", "pitch", "hotbar", "craft", "smelt"}
    assert 0 <= first["vpt_action"]["buttons"] < 8641 and 0 <= first["vpt_action"]["camera"] < 121
    assert all(set(i) == {"item", "count"} for r in rows for i in r["inventory"])
    assert len({r["goal"] for r in rows}) == 1

    card = (out / "README.md").read_text()
    assert card.startswith("---\n")
    front = yaml.safe_load(card.split("---\n")[1])
    default = front["configs"][0]
    assert default["config_name"] == "default"
    assert default["data_files"][0] == {"split": "train", "path": "data/*/*.parquet"}
    # One dataset_info entry per config, `frame` an image in each of them.
    infos = front["dataset_info"]
    assert [i["config_name"] for i in infos] == [c["config_name"] for c in front["configs"]]
    for i in infos:
        assert {"name": "frame", "dtype": "image"} in i["features"], i["config_name"]
    info = next(i for i in infos if i["config_name"] == "default")
    assert info["splits"][0]["num_examples"] == stats["frames"]
    feature_names = [f["name"] for f in info["features"]]
    assert feature_names == names

    # Rebuilding the card from the folder gives the same files.
    before = (out / "stats.json").read_text(), card
    subprocess.run([cli, "world", "dataset", "--out", str(out), "--rebuild-card"], check=True,
                   capture_output=True)
    assert ((out / "stats.json").read_text(), (out / "README.md").read_text()) == before


def test_cli_dataset_rejects_bad_options(tmp_path):
    cli = os.environ.get("GAMEWORLD_BIN")
    if not cli:
        pytest.skip("set GAMEWORLD_BIN to the gameworld binary (scripts/test.sh does)")
    for args, needle in (
        (["--tasks", "atomic_nothing", "--episodes", "1"], "atomic_logs"),
        (["--tasks", "atomic_logs", "--episodes", "1", "--resolution", "big"], "WIDTHxHEIGHT"),
        (["--tasks", "atomic_logs", "--episodes", "1", "--shard", "3/2"], "1 <= I <= N"),
        (["--tasks", "atomic_logs"], "--episodes"),
    ):
        done = subprocess.run([cli, "world", "dataset", "--out", str(tmp_path / "x"), *args],
                              capture_output=True, text=True)
        assert done.returncode == 2, (args, done.stderr)
        assert needle in done.stderr, (args, done.stderr)
    assert not pathlib.Path(tmp_path / "x").exists()
