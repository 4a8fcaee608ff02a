"""`gameworld mcp` driven by the official MCP Python SDK (`pip install mcp`).

Run by scripts/test.sh in its virtual environment (GAMEWORLD_BIN: the CLI that
`cargo test` built). Every test starts the real server as a subprocess and
talks to it the way a third-party agent harness would: over stdio, or over
streamable HTTP on 127.0.0.1.
"""

import asyncio
import base64
import json
import os
import re
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(os.environ.get("GAMEWORLD_BIN", ROOT / "target" / "debug" / "gameworld"))
CLIENT = Implementation(name="gw-test-client", version="1.2.3")


def run(coro):
    return asyncio.run(coro)


def server(preset, out, *extra):
    return StdioServerParameters(
        command=str(BIN), args=["mcp", preset, "--out", str(out), *extra], cwd=str(ROOT)
    )


def texts(result):
    return "\n".join(c.text for c in result.content if c.type == "text")


def png_size(result):
    """Width and height of the result's PNG image (None without one)."""
    images = [c for c in result.content if c.type == "image"]
    if not images:
        return None
    assert images[0].mime_type == "image/png"
    png = base64.b64decode(images[0].data)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def wait_for(path, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if path.exists():
            return json.loads(path.read_text())
        time.sleep(0.1)
    raise AssertionError(f"{path} was not written")


def lines(path):
    return [json.loads(l) for l in path.read_text().splitlines() if l.strip()]


def test_tools_list_and_observe_shows_frame_and_task(tmp_path):
    async def go():
        async with stdio_client(server("01_2048+01_01", tmp_path / "run")) as (r, w):
            async with ClientSession(r, w, client_info=CLIENT) as s:
                init = await s.initialize()
                assert init.server_info.name == "gameworld"
                tools = (await s.list_tools()).tools
                names = [t.name for t in tools]
                assert names == ["observe", "wait", "move_up", "move_down", "move_left", "move_right"]
                for t in tools:
                    assert t.input_schema["type"] == "object"
                obs = await s.call_tool("observe", {})
                assert not obs.is_error
                assert png_size(obs) == (1280, 720)
                text = texts(obs)
                assert "Build a tile worth 32 or more" in text
                assert "- move_up: Slide every tile up." in text
                assert "Step 1 of 100: 100 steps left." in text
                # Nothing the game's own screen does not show.
                assert "progress" not in text.lower()
                # Observing plays no step.
                again = await s.call_tool("observe", {})
                assert "Step 1 of 100" in texts(again)

    run(go())
    result = wait_for(tmp_path / "run" / "result.json")
    assert result["steps"] == 0
    assert result["stop_reason"] == "agent_left"


def test_2048_played_to_target_equals_a_cli_run_with_the_same_actions(tmp_path):
    cli_dir, mcp_dir = tmp_path / "cli", tmp_path / "mcp"
    subprocess.run(
        [str(BIN), "run", "01_2048+01_01+scripted", "--seed", "3", "--out", str(cli_dir)],
        check=True, cwd=ROOT, capture_output=True,
    )
    cli_traj = lines(cli_dir / "trajectory.jsonl")
    cli_result = json.loads((cli_dir / "result.json").read_text())
    assert cli_result["success"] and cli_result["stop_reason"] == "target_reached"
    moves = [row["proposed"]["action"] for row in cli_traj]

    async def go():
        async with stdio_client(server("01_2048+01_01", mcp_dir, "--seed", "3")) as (r, w):
            async with ClientSession(r, w, client_info=CLIENT) as s:
                await s.initialize()
                for i, move in enumerate(moves):
                    res = await s.call_tool(move, {})
                    assert not res.is_error, texts(res)
                    assert png_size(res) == (1280, 720)
                    if i + 1 < len(moves):
                        assert f"{100 - i - 1} steps left" in texts(res)
                last = texts(res)
                assert "The run has finished: success (stop reason target_reached)" in last
                # Later calls: a clear "run finished" result with the outcome.
                after = await s.call_tool("move_up", {})
                assert after.is_error
                assert "The run has finished: success" in texts(after)
                assert "The run has finished" in texts(await s.call_tool("observe", {}))

    run(go())
    mcp_traj = lines(mcp_dir / "trajectory.jsonl")
    assert len(mcp_traj) == len(cli_traj)
    for a, b in zip(cli_traj, mcp_traj):
        # The same action through the model agents' tool-call payload.
        assert b["proposed"] == {"tool_name": a["proposed"]["action"], "arguments": {}}
        for row in (a, b):
            for k in ("latency_ms", "proposed"):
                row.pop(k)
            row["state"].pop("timestampMs")
        assert a == b
    mcp_result = json.loads((mcp_dir / "result.json").read_text())
    assert mcp_result["model"] == "mcp"
    assert mcp_result["preset"] == "01_2048+01_01+mcp"
    assert mcp_result["client"] == {"name": "gw-test-client", "version": "1.2.3"}
    for r in (cli_result, mcp_result):
        for k in ("preset", "model", "wall_ms", "latency_ms", "client"):
            r.pop(k, None)
    assert mcp_result == cli_result
    cli_frames = sorted(p.name for p in (cli_dir / "frames").iterdir())
    mcp_frames = sorted(p.name for p in (mcp_dir / "frames").iterdir())
    assert cli_frames == mcp_frames and len(cli_frames) == len(cli_traj) + 1
    for name in cli_frames:
        assert (cli_dir / "frames" / name).read_bytes() == (mcp_dir / "frames" / name).read_bytes(), name
    # `report` takes the MCP run like any other.
    rep = tmp_path / "report"
    subprocess.run([str(BIN), "report", str(mcp_dir), "--out", str(rep)], check=True, cwd=ROOT,
                   capture_output=True)
    assert "mcp" in (rep / "runs.csv").read_text()


def test_bad_calls_are_invalid_steps_and_a_disconnect_writes_the_result(tmp_path):
    out = tmp_path / "cu"

    async def go():
        params = server("01_2048+01_01", out, "--interface", "computer-use")
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w, client_info=CLIENT) as s:
                await s.initialize()
                names = [t.name for t in (await s.list_tools()).tools]
                assert names == ["observe", "computer"]
                bad = await s.call_tool("computer", {"action": "key", "key": "q"})
                assert bad.is_error and "q" in texts(bad), texts(bad)
                assert "step was used up" in texts(bad)
                unknown = await s.call_tool("fly_away", {"speed": 3})
                assert unknown.is_error and "fly_away" in texts(unknown), texts(unknown)
                missing = await s.call_tool("computer", {"action": "click"})
                assert missing.is_error and "x and y" in texts(missing), texts(missing)
                odd = await s.call_tool("computer", {"action": "teleport", "x": 1})
                assert odd.is_error and "teleport" in texts(odd), texts(odd)
                ok = await s.call_tool("computer", {"action": "key", "key": "ArrowUp"})
                assert not ok.is_error, texts(ok)
                assert "Step 6 of 100: 95 steps left." in texts(ok)
                # The client leaves here, mid-run.

    run(go())
    result = wait_for(out / "result.json")
    assert result["stop_reason"] == "agent_left"
    assert result["error"] is None
    assert result["model"] == "mcp" and result["interface"] == "computer-use"
    assert result["client"] == {"name": "gw-test-client", "version": "1.2.3"}
    assert result["proposed_actions"] == 5 and result["valid_actions"] == 1
    assert result["invalid_out_of_space"] == 4
    traj = lines(out / "trajectory.jsonl")
    assert [row["valid"] for row in traj] == [False, False, False, False, True]
    assert traj[0]["proposed"] == {"action": "press_key", "key": "q"}
    assert (out / "frames" / "step_000005.png").is_file()


def test_open_world_plays_through_its_factored_action_tool(tmp_path):
    out = tmp_path / "ow"

    async def go():
        async with stdio_client(server("openworld+atomic_dirt", out)) as (r, w):
            async with ClientSession(r, w, client_info=CLIENT) as s:
                await s.initialize()
                tools = {t.name: t for t in (await s.list_tools()).tools}
                assert sorted(tools) == ["act", "observe", "wait"]
                props = tools["act"].input_schema["properties"]
                for part in ("forward", "jump", "attack", "yaw", "pitch", "craft", "hotbar"):
                    assert part in props
                obs = await s.call_tool("observe", {})
                assert png_size(obs) is not None
                res = await s.call_tool("act", {"forward": True, "yaw": 15, "reasoning": "look around"})
                assert not res.is_error, texts(res)
                assert png_size(res) is not None
                bad = await s.call_tool("act", {"craft": "spaceship"})
                assert bad.is_error, texts(bad)
                await s.call_tool("act", {"attack": True, "pitch": 30})

    run(go())
    result = wait_for(out / "result.json")
    assert result["stop_reason"] == "agent_left"
    assert result["proposed_actions"] == 3 and result["valid_actions"] == 2
    traj = lines(out / "trajectory.jsonl")
    assert traj[0]["control"] == "act"
    assert traj[0]["reasoning"] == "look around"


def test_realtime_advances_the_game_by_the_time_between_calls(tmp_path):
    async def play(out, *extra, pause=0.0):
        async with stdio_client(server("01_2048+01_01", out, *extra)) as (r, w):
            async with ClientSession(r, w, client_info=CLIENT) as s:
                await s.initialize()
                await asyncio.sleep(pause)
                await s.call_tool("move_left", {})

    run(play(tmp_path / "paused", pause=1.0))
    run(play(tmp_path / "rt", "--realtime", pause=1.0))
    paused = wait_for(tmp_path / "paused" / "result.json")
    rt = wait_for(tmp_path / "rt" / "result.json")
    assert not paused["realtime"] and rt["realtime"]
    assert rt["game_time_ms"] >= paused["game_time_ms"] + 1000


def start_http(out, *extra, preset="01_2048+01_01"):
    proc = subprocess.Popen(
        [str(BIN), "mcp", preset, "--transport", "http", "--port", "0", "--out", str(out), *extra],
        cwd=ROOT, stderr=subprocess.PIPE, text=True,
    )
    line = proc.stderr.readline()
    m = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line)
    assert m, line
    return proc, m.group(1)


def test_http_one_run_per_session_and_max_sessions(tmp_path):
    out = tmp_path / "http"
    proc, url = start_http(out, "--max-sessions", "1")
    try:
        async def go():
            async with streamable_http_client(url) as (r, w):
                async with ClientSession(r, w, client_info=CLIENT) as s:
                    await s.initialize()
                    assert (await s.call_tool("move_up", {})).is_error is False
                    await s.call_tool("move_left", {})
                    # A second session while the first plays: refused.
                    with pytest.raises(Exception) as refused:
                        async with streamable_http_client(url) as (r2, w2):
                            async with ClientSession(r2, w2, client_info=CLIENT) as s2:
                                await s2.initialize()
                    assert "max-sessions" in str(refused.value) or refused.value is not None
            first = wait_for(out / "run-001" / "result.json")
            assert first["steps"] == 2 and first["stop_reason"] == "agent_left"
            async with streamable_http_client(url) as (r, w):
                async with ClientSession(r, w, client_info=CLIENT) as s:
                    await s.initialize()
                    res = await s.call_tool("move_down", {})
                    assert "Step 2 of 100" in texts(res)
            second = wait_for(out / "run-002" / "result.json")
            assert second["steps"] == 1

        run(go())
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0


def guide_block(marker):
    # The guide's MCP chapter (docs/mcp.md) shows these blocks to users.
    text = (ROOT / "docs" / "mcp.md").read_text()
    m = re.search(rf"<!-- {marker} -->\s*```\w*\n(.*?)```", text, re.S)
    assert m, f"docs/mcp.md has no block after <!-- {marker} -->"
    return m.group(1)


def test_guide_snippets_work_as_written(tmp_path):
    env = dict(os.environ, PATH=f"{BIN.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    script = tmp_path / "snippet.py"
    script.write_text(guide_block("mcp-python"))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Step 2 of 100" in done.stdout, done.stdout
    result = json.loads((tmp_path / "runs" / "01_2048+01_01+mcp" / "seed-1" / "result.json").read_text())
    assert result["steps"] == 1 and result["model"] == "mcp"

    config = json.loads(guide_block("mcp-desktop-config"))
    entry = config["mcpServers"]["gameworld-2048"]

    async def go():
        params = StdioServerParameters(command=entry["command"], args=entry["args"], cwd=str(tmp_path / "d"),
                                       env={"PATH": env["PATH"]})
        (tmp_path / "d").mkdir()
        async with stdio_client(params) as (r, w):
            async with ClientSession(r, w) as s:
                await s.initialize()
                assert "observe" in [t.name for t in (await s.list_tools()).tools]

    run(go())


def test_cooperative_game_one_session_per_role_steps_joined(tmp_path):
    out = tmp_path / "coop"
    proc, url = start_http(out, "--step-timeout", "60", preset="12_fireboy-and-watergirl+12_01")
    try:
        async def role(name, moves, waited, results):
            info = Implementation(name=f"client-{name}", version="0.1")
            if name == "second":
                # Seats go in the order sessions join: the first role first.
                while not waited:
                    await asyncio.sleep(0.02)
            async with streamable_http_client(url) as (r, w):
                async with ClientSession(r, w, client_info=info) as s:
                    await s.initialize()
                    if name == "first":
                        # Until every role has joined, the run waits.
                        early = await s.call_tool("observe", {})
                        assert early.is_error and "waits for its other roles" in texts(early), texts(early)
                        early = await s.call_tool("move_right", {})
                        assert early.is_error and "1 of 2 MCP sessions have joined" in texts(early)
                        waited.append(True)
                    while True:
                        obs = await s.call_tool("observe", {})
                        if not obs.is_error:
                            break
                        await asyncio.sleep(0.05)
                    results.append(texts(obs))
                    for m in moves:
                        res = await s.call_tool(m, {})
                        results.append(texts(res))
                    # Stay until the other role has played its steps too.
                    await asyncio.sleep(0.5)

        async def go():
            waited, a, b = [], [], []
            await asyncio.gather(
                role("first", ["move_right", "move_right"], waited, a),
                role("second", ["move_left", "jump_left"], waited, b),
            )
            return a, b

        a, b = run(go())
        assert 'You play the role "watergirl"' in a[0]
        assert 'You play the role "fireboy"' in b[0]
        assert "Step 3 of" in a[-1] and "Step 3 of" in b[-1]
        result = wait_for(out / "run-001" / "result.json")
        assert result["steps"] == 2 and result["stop_reason"] == "agent_left"
        roles = {r["role"]: r for r in result["roles"]}
        assert roles["watergirl"]["client"] == {"name": "client-first", "version": "0.1"}
        assert roles["fireboy"]["client"] == {"name": "client-second", "version": "0.1"}
        traj = lines(out / "run-001" / "trajectory.jsonl")
        assert [row["control"] for row in traj] == [
            {"watergirl": "move_right", "fireboy": "move_left"},
            {"watergirl": "move_right", "fireboy": "jump_left"},
        ]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
