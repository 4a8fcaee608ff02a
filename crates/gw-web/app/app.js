// GameWorld web app: Play, the run viewer and the suite dashboard.
// Plain DOM, no framework, no network beyond this server. Text from runs
// (model replies, reasoning) is untrusted: it only ever goes into textContent.
"use strict";

const app = document.getElementById("app");
const flash = document.getElementById("flash");
let cleanup = [];

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}
const svgNS = "http://www.w3.org/2000/svg";
function s(tag, attrs) {
  const el = document.createElementNS(svgNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  return el;
}

async function api(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["content-type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(url, opts);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}
// Children for replaceChildren: nested lists flattened, empty slots dropped.
function nodes(...kids) {
  return kids.flat(Infinity).filter(k => k !== null && k !== undefined && k !== false)
    .map(k => k instanceof Node ? k : document.createTextNode(String(k)));
}
function say(msg) { flash.textContent = msg || ""; }
function q(params) { return new URLSearchParams(params).toString(); }
function fmt(x, d = 2) { return typeof x === "number" ? x.toFixed(d) : (x ?? "–"); }

// ---------------------------------------------------------------- routing
function route() {
  for (const f of cleanup) f();
  cleanup = [];
  say("");
  const hash = location.hash.slice(1) || "/play";
  const [path, query] = hash.split("?");
  const params = Object.fromEntries(new URLSearchParams(query || ""));
  if (path === "/play") return pickTask();
  if (path.startsWith("/play/")) return playView(decodeURIComponent(path.slice(6)));
  if (path === "/runs") return runList();
  if (path === "/run") return viewer(params);
  if (path === "/suite") return dashboard(params);
  app.replaceChildren(h("p", {}, "Unknown page."));
}
window.addEventListener("hashchange", route);

// ---------------------------------------------------------------- play
async function pickTask() {
  const tasks = await api("GET", "/api/tasks");
  const games = [...new Map(tasks.map(t => [t.game_id, t.game_name])).entries()];
  const gameSel = h("select", { id: "game" }, games.map(([id, name]) => h("option", { value: id }, `${id} — ${name}`)));
  const taskSel = h("select", { id: "task" });
  const info = h("p", { class: "muted", id: "task-info" });
  const fillTasks = () => {
    taskSel.replaceChildren(...tasks.filter(t => t.game_id === gameSel.value)
      .map(t => h("option", { value: t.task_id }, t.task_id)));
    showInfo();
  };
  const showInfo = () => {
    const t = tasks.find(t => t.game_id === gameSel.value && t.task_id === taskSel.value);
    info.textContent = t ? `${t.instruction} (${t.max_steps} steps)` : "";
  };
  gameSel.addEventListener("change", fillTasks);
  taskSel.addEventListener("change", showInfo);
  const seed = h("input", { id: "seed", type: "number", min: 0, value: 1 });
  const mode = h("select", { id: "mode" }, h("option", { value: "step" }, "step (paused between inputs)"),
    h("option", { value: "realtime" }, "real time"));
  const name = h("input", { id: "player", placeholder: "your name (optional)", maxlength: 40 });
  const start = h("button", { id: "start", onclick: async () => {
    start.disabled = true;
    try {
      const p = await api("POST", "/api/play", {
        preset: `${gameSel.value}+${taskSel.value}`, seed: Number(seed.value || 1),
        mode: mode.value, name: name.value || undefined });
      location.hash = `#/play/${encodeURIComponent(p.id)}`;
    } catch (e) { say(e.message); start.disabled = false; }
  } }, "Start");
  app.replaceChildren(h("div", { class: "panel" },
    h("h2", {}, "Play a task"),
    h("label", {}, "Game"), gameSel, h("label", {}, "Task"), taskSel, info,
    h("label", {}, "Seed"), seed, h("label", {}, "Mode"), mode,
    h("label", {}, "Player"), name, h("p", {}, start),
    h("p", { class: "muted" }, "Your play is recorded as a normal run (model human) under the server's runs folder, so reports show it beside the agents.")));
  fillTasks();
}

// Browser key names → the registry's key names.
function keyName(e) {
  if (e.key === " " || e.code === "Space") return "Space";
  if (e.key.length === 1) return e.key.toLowerCase();
  return e.key;
}

async function playView(id) {
  let p;
  try { p = await api("GET", `/api/play/${encodeURIComponent(id)}`); }
  catch (e) { app.replaceChildren(h("p", {}, e.message)); return; }
  const [vw, vh] = p.viewport;
  const img = h("img", { id: "play-frame", alt: "game", draggable: "false", width: vw, height: vh });
  const status = h("div", { id: "play-status", class: "big" });
  const note = h("div", { id: "play-note", class: "muted" });
  const result = h("div", { id: "play-result" });
  let busy = false, seq = -1, ended = false;
  const show = (v) => {
    if (v.seq !== seq) { img.src = `/api/play/${encodeURIComponent(id)}/frame.png?seq=${v.seq}`; seq = v.seq; }
    status.textContent = `step ${v.steps_done} / ${v.max_steps}` + (v.episode ? ` · episode ${v.episode + 1}` : "");
    note.textContent = v.last_valid === false ? `last input not executed: ${v.last_note}` : "";
    if (v.done && !ended) {
      ended = true;
      const r = v.result;
      result.replaceChildren(...nodes(
        r ? h("p", { class: r.success ? "ok big" : "bad big", id: "play-outcome" },
              r.success ? "Task solved" : "Task not solved",
              ` — progress ${fmt(r.progress)}, best score ${r.best_score}, ${r.steps} steps (${r.stop_reason})`) : null,
        v.error ? h("p", { class: "bad" }, v.error) : null,
        h("p", {}, h("a", { href: `#/run?${q({ root: 0, path: v.run_dir })}`, id: "open-run" }, "Open this run in the viewer")),
        h("p", {}, h("a", { href: "#/play" }, "Play again"))));
    }
  };
  const send = async (action) => {
    if (busy || ended) return;
    busy = true;
    try { show(await api("POST", `/api/play/${encodeURIComponent(id)}/input`, { action })); }
    catch (e) { say(e.message); }
    finally { busy = false; }
  };
  const toGame = (ev) => {
    const r = img.getBoundingClientRect();
    return [Math.round((ev.clientX - r.left) * vw / r.width), Math.round((ev.clientY - r.top) * vh / r.height)];
  };
  // Keyboard: one key press = one step; real-time mode repeats while held.
  const held = new Map();
  const onKeyDown = (e) => {
    if (e.target.tagName === "INPUT" || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (e.repeat) return;
    const key = keyName(e);
    send({ action: "press_key", key });
    if (p.mode === "realtime" && !held.has(key)) {
      held.set(key, setInterval(() => send({ action: "press_key", key }), 150));
    }
  };
  const onKeyUp = (e) => {
    const key = keyName(e);
    if (held.has(key)) { clearInterval(held.get(key)); held.delete(key); }
  };
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp);
  cleanup.push(() => {
    document.removeEventListener("keydown", onKeyDown);
    document.removeEventListener("keyup", onKeyUp);
    for (const t of held.values()) clearInterval(t);
  });
  // Mouse: a click, or a drag when the pointer moved.
  let down = null;
  img.addEventListener("mousedown", (e) => { e.preventDefault(); down = toGame(e); });
  img.addEventListener("mouseup", (e) => {
    if (!down) return;
    const [x, y] = toGame(e);
    const [fx, fy] = down;
    down = null;
    if (Math.hypot(x - fx, y - fy) > 6) send({ action: "drag", from_x: fx, from_y: fy, x, y });
    else send({ action: e.button === 2 ? "right_click" : "click", x, y });
  });
  img.addEventListener("contextmenu", (e) => e.preventDefault());
  img.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, y] = toGame(e);
    send({ action: "scroll", x, y, dx: Math.round(e.deltaX), dy: Math.round(e.deltaY) });
  }, { passive: false });
  if (p.mode === "realtime") {
    const timer = setInterval(async () => {
      if (busy || ended) return;
      busy = true;
      try { show(await api("POST", `/api/play/${encodeURIComponent(id)}/watch`)); }
      catch (e) { say(e.message); }
      finally { busy = false; }
    }, 100);
    cleanup.push(() => clearInterval(timer));
  }
  const quit = h("button", { id: "quit", onclick: async () => {
    try { show(await api("DELETE", `/api/play/${encodeURIComponent(id)}`)); } catch (e) { say(e.message); }
  } }, "Quit");
  const c = p.controls || {};
  app.replaceChildren(h("div", { class: "row" },
    h("div", { class: "stage" }, img),
    h("div", { class: "panel side" },
      h("h3", {}, p.preset), status, note,
      h("p", {}, c.instruction || ""),
      h("p", { class: "muted" }, `Mode: ${p.mode === "realtime" ? "real time (the game keeps running)" : "step (the game waits for you)"}`),
      c.keys && c.keys.length ? h("p", {}, "Keys: ", c.keys.join(" ")) : null,
      c.clicks ? h("p", {}, "Mouse: click or drag on the game") : null,
      c.description ? h("pre", {}, c.description) : null,
      result, quit)));
  show(p);
}

// ---------------------------------------------------------------- runs
async function runList() {
  const data = await api("GET", "/api/runs");
  const suites = data.suites.map(su => h("tr", {},
    h("td", {}, h("a", { href: `#/suite?${q({ root: su.root, path: su.path })}` }, su.path || "(root)")),
    h("td", {}, su.name ?? ""), h("td", {}, su.planned_runs ?? ""),
    h("td", {}, su.report ? h("a", { href: `/report/${su.path ? su.path + "/" : ""}report.html?root=${su.root}` }, "report") : "")));
  const runs = data.runs.map(r => h("tr", {},
    h("td", {}, h("a", { href: `#/run?${q({ root: r.root, path: r.path })}` }, r.path)),
    h("td", {}, r.model ?? ""), h("td", {}, r.seed ?? ""),
    h("td", { class: r.running ? "muted" : (r.success ? "ok" : "bad") }, r.running ? "running" : (r.success ? "success" : "fail")),
    h("td", {}, fmt(r.progress)), h("td", {}, r.steps ?? "")));
  app.replaceChildren(...nodes(
    h("div", { class: "panel" }, h("h2", {}, "Suites"),
      suites.length ? h("table", {}, h("tr", {}, h("th", {}, "folder"), h("th", {}, "suite"), h("th", {}, "runs"), h("th", {}, "")), suites)
        : h("p", { class: "muted" }, "No suite folders under the runs roots.")),
    h("div", { class: "panel" }, h("h2", {}, "Runs"),
      h("p", { class: "muted" }, data.roots.join(", ")),
      runs.length ? h("table", { id: "run-table" }, h("tr", {}, ["run", "model", "seed", "outcome", "progress", "steps"].map(t => h("th", {}, t))), runs)
        : h("p", { class: "muted" }, "No runs yet."))));
}

// Flatten a state object into path → value for the diff.
function flatten(v, prefix = "", out = {}) {
  if (v && typeof v === "object" && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = JSON.stringify(v);
  return out;
}
function stateDiff(prev, cur) {
  const a = flatten(prev || {}), b = flatten(cur || {});
  const lines = [];
  for (const k of Object.keys(b)) {
    if (k === "timestampMs") continue;
    if (!(k in a)) lines.push(["add", `+ ${k} = ${b[k]}`]);
    else if (a[k] !== b[k]) lines.push(["chg", `~ ${k}: ${a[k]} → ${b[k]}`]);
  }
  for (const k of Object.keys(a)) if (!(k in b)) lines.push(["del", `- ${k}`]);
  return lines;
}

function drawAction(svg, action, vw, vh) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${vw} ${vh}`);
  if (!action) return;
  const r = Math.max(8, vw / 80);
  const label = (text) => {
    const g = s("g", {});
    const w = 14 + text.length * 11;
    g.append(s("rect", { x: 8, y: 8, width: w, height: 34, rx: 6, fill: "rgba(0,0,0,0.7)" }));
    const t = s("text", { x: 16, y: 32, fill: "#fff", "font-size": 20, "font-family": "monospace" });
    t.textContent = text;
    g.append(t);
    svg.append(g);
  };
  const a = action.action;
  if ("x" in action && "y" in action && a !== "drag") {
    svg.append(s("circle", { cx: action.x, cy: action.y, r, fill: "none", stroke: "#ff3b30", "stroke-width": 4 }));
    svg.append(s("circle", { cx: action.x, cy: action.y, r: 3, fill: "#ff3b30" }));
  }
  if (a === "drag") {
    svg.append(s("line", { x1: action.from_x, y1: action.from_y, x2: action.x, y2: action.y, stroke: "#ff3b30", "stroke-width": 5 }));
    svg.append(s("circle", { cx: action.from_x, cy: action.from_y, r, fill: "none", stroke: "#ff3b30", "stroke-width": 4 }));
    svg.append(s("circle", { cx: action.x, cy: action.y, r: r / 2, fill: "#ff3b30" }));
  }
  const dur = action.duration ? ` ${action.duration}s` : "";
  if (a === "press_key") label(`key ${action.key}${dur}`);
  else if (a === "press_keys") label(`keys ${action.keys.join("+")}${dur}`);
  else if (a === "type") label(`type "${action.text}"`);
  else if (a === "wait") label(`wait${dur}`);
  else if (a === "scroll") label(`scroll ${action.dx},${action.dy}`);
  else label(a + dur);
}

function curve(steps, onSeek) {
  const W = 600, H = 90, n = Math.max(1, steps.length);
  const svg = s("svg", { class: "curve", viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", id: "curve" });
  const pts = (key) => [[0, H - 4]].concat(steps.map((st, i) => [((i + 1) / n) * W, H - 4 - (H - 8) * Math.max(0, Math.min(1, st[key] || 0))]))
    .map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  svg.append(s("polyline", { points: pts("progress"), fill: "none", stroke: "#98a2b3", "stroke-width": 2 }));
  svg.append(s("polyline", { points: pts("best_progress"), fill: "none", stroke: "#2f5bd3", "stroke-width": 2 }));
  const marker = s("line", { x1: 0, x2: 0, y1: 0, y2: H, stroke: "#ff3b30", "stroke-width": 2 });
  svg.append(marker);
  svg.addEventListener("click", (e) => {
    const r = svg.getBoundingClientRect();
    onSeek(Math.round(((e.clientX - r.left) / r.width) * n));
  });
  return { svg, mark: (i) => { const x = (i / n) * W; marker.setAttribute("x1", x); marker.setAttribute("x2", x); } };
}

async function viewer(params) {
  const root = Number(params.root || 0), path = params.path || "";
  let run;
  try { run = await api("GET", `/api/run?${q({ root, path })}`); }
  catch (e) { app.replaceChildren(h("p", {}, e.message)); return; }
  const steps = run.steps;
  const res = run.result || {};
  const vp = (steps[0] && steps[0].state && steps[0].state.viewport) || null;
  const img = h("img", { id: "run-frame", alt: "frame" });
  const svg = s("svg", { preserveAspectRatio: "none" });
  const scrub = h("input", { id: "scrub", type: "range", min: 0, max: steps.length, value: 0 });
  const pos = h("div", { id: "step-label", class: "big" });
  const detail = h("div", { id: "step-detail" });
  const frameUrl = (name) => `/api/run/frame?${q({ root, path, name })}`;
  const cv = curve(steps, (i) => go(i));
  let idx = 0, playing = null;
  function go(i) {
    idx = Math.max(0, Math.min(steps.length, i));
    scrub.value = idx;
    cv.mark(idx);
    // Frame idx is what the agent saw before step idx + 1; the overlay is the
    // action it chose on it.
    const before = idx === 0 ? { frame: run.first_frame } : steps[idx - 1];
    const name = before.reset_frame || before.frame;
    if (name) img.src = frameUrl(name); else img.removeAttribute("src");
    const next = steps[idx];
    img.onload = () => drawAction(svg, next ? next.action : null, img.naturalWidth, img.naturalHeight);
    if (img.complete) img.onload();
    pos.textContent = next ? `before step ${next.step} of ${steps.length}` : `after the last step (${steps.length})`;
    if (!next) { detail.replaceChildren(h("p", {}, `stop: ${res.stop_reason || "running"}`)); return; }
    const kind = next.valid ? h("span", { class: "ok" }, "valid") :
      h("span", { class: "bad" }, next.invalid_kind === "no_tool_call" ? "NTC (no tool call)" : "OOS (out of action space)");
    const raw = (next.calls || []).map(c => h("pre", {}, JSON.stringify(c.response ?? c.response_text ?? c.error ?? c, null, 1)));
    // /api/run attaches one page of calls; a step past it fetches its own.
    if (!next.calls_loaded && !(next.calls || []).length && run.calls_page && run.calls_page.next != null) {
      next.calls_loaded = true;
      api("GET", `/api/run/calls?${q({ root, path, step: next.step })}`)
        .then(r => { next.calls = r.calls; if (steps[idx] === next) go(idx); })
        .catch(() => {});
    }
    const prevState = idx > 0 ? steps[idx - 1].state : null;
    const diff = stateDiff(prevState, next.state).slice(0, 200)
      .map(([k, t]) => h("div", { class: k === "add" ? "diff-add" : (k === "del" ? "diff-del" : "") }, t));
    detail.replaceChildren(...nodes(
      h("p", {}, `step ${next.step} · episode ${next.episode + 1} · `, kind,
        ` · score ${next.score} · progress ${fmt(next.progress)} (best ${fmt(next.best_progress)})`),
      next.invalid_reason ? h("p", { class: "bad" }, next.invalid_reason) : null,
      h("div", {}, h("strong", {}, "Action "), h("code", { id: "step-action" }, JSON.stringify(next.action ?? next.proposed ?? null))),
      next.control ? h("div", { class: "muted" }, `semantic: ${JSON.stringify(next.control)}`) : null,
      next.reasoning ? [h("strong", {}, "Reasoning"), h("pre", { id: "step-reasoning" }, next.reasoning)] : null,
      next.stated_reason ? h("p", { class: "muted" }, `stated: ${next.stated_reason}`) : null,
      next.parse_error ? h("p", { class: "bad" }, `parse error: ${next.parse_error}`) : null,
      raw.length ? [h("strong", {}, "Raw reply"), raw] : null,
      next.events && next.events.length ? h("div", { class: "muted" }, `events: ${JSON.stringify(next.events)}`) : null,
      h("strong", {}, "State change"), h("pre", { id: "state-diff" }, diff.length ? diff : "no change")));
  }
  scrub.addEventListener("input", () => go(Number(scrub.value)));
  const onKey = (e) => {
    if (e.target.tagName === "INPUT" && e.target !== scrub) return;
    if (e.key === "ArrowRight" || e.key === "l") { e.preventDefault(); go(idx + 1); }
    else if (e.key === "ArrowLeft" || e.key === "h") { e.preventDefault(); go(idx - 1); }
    else if (e.key === "Home") { e.preventDefault(); go(0); }
    else if (e.key === "End") { e.preventDefault(); go(steps.length); }
    else if (e.key === " ") { e.preventDefault(); toggle(); }
  };
  const toggle = () => {
    if (playing) { clearInterval(playing); playing = null; return; }
    playing = setInterval(() => { if (idx >= steps.length) { clearInterval(playing); playing = null; } else go(idx + 1); }, 400);
  };
  document.addEventListener("keydown", onKey);
  cleanup.push(() => { document.removeEventListener("keydown", onKey); if (playing) clearInterval(playing); });
  const summary = h("p", { id: "run-summary" },
    `${res.preset || path} · seed ${res.seed ?? "?"} · `,
    res.preset ? h("span", { class: res.success ? "ok" : "bad" }, res.success ? "success" : "fail") : "running",
    res.preset ? ` · progress ${fmt(res.progress)} · ${res.steps} steps · valid ${res.valid_actions}/${res.proposed_actions} · NTC ${res.invalid_no_tool_call} · OOS ${res.invalid_out_of_space}` : "");
  app.replaceChildren(...nodes(
    summary,
    h("div", { class: "row" },
      h("div", {}, h("div", { class: "stage" }, img, svg), scrub, cv.svg,
        h("p", { class: "muted" }, "← → step · Home/End · Space play/pause · ",
          h("a", { href: `/api/run/clip.gif?${q({ root, path })}`, id: "clip" }, "export GIF"))),
      h("div", { class: "panel side" }, pos, detail))));
  void vp;
  go(0);
}

// ---------------------------------------------------------------- dashboard
function dashboard(params) {
  const root = Number(params.root || 0), path = params.path || "";
  const head = h("div", { id: "suite-head", class: "big" }, "Connecting…");
  const table = h("table", { id: "suite-runs" });
  const errs = h("div", { id: "suite-errors" });
  app.replaceChildren(h("div", { class: "panel" }, h("h2", {}, `Suite ${path}`), head, errs, table));
  const es = new EventSource(`/api/suite/events?${q({ root, path })}`);
  cleanup.push(() => es.close());
  es.addEventListener("status", (ev) => {
    const st = JSON.parse(ev.data);
    const pct = (x) => (x === null || x === undefined) ? "–" : `${(100 * x).toFixed(1)}%`;
    head.replaceChildren(...nodes(
      `${st.name ?? ""}: ${st.done}/${st.planned} done · ${st.running} running · ${st.pending} pending · ${st.failed} errors · `,
      `SR ${pct(st.sr)} · PG ${pct(st.pg)} · tokens ${st.input_tokens}/${st.output_tokens} · $${fmt(st.cost_usd, 4)}`,
      st.complete ? h("span", { class: "ok", id: "suite-complete" }, " · complete") : ""));
    errs.replaceChildren(...st.errors.map(e => h("p", { class: "bad" }, `${e.preset} seed ${e.seed}: ${e.error}`)));
    table.replaceChildren(h("tr", {}, ["run", "seed", "status", "steps", "progress"].map(t => h("th", {}, t))),
      ...st.runs.map(r => h("tr", {},
        h("td", {}, r.status === "pending" ? r.preset : h("a", { href: `#/run?${q({ root, path: (path ? path + "/" : "") + r.dir })}` }, r.preset)),
        h("td", {}, r.seed), h("td", { class: r.status === "error" ? "bad" : (r.success ? "ok" : "") }, r.status + (r.error ? `: ${r.error}` : "")),
        h("td", {}, r.steps), h("td", {}, fmt(r.progress)))));
  });
}

route();
