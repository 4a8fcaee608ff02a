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
  // Cooperative games: the person's role and the agent in the others.
  const roleSel = h("select", { id: "role" });
  const partnerSel = h("select", { id: "partner" });
  const coopBox = h("div", { id: "coop", hidden: true },
    h("label", {}, "Your role"), roleSel,
    h("label", {}, "Partner agent (plays the other role)"), partnerSel);
  api("GET", "/api/agents").then(a => {
    partnerSel.replaceChildren(...a.builtin.map(id => h("option", { value: id }, id)),
      ...(a.models.length ? [h("optgroup", { label: "models (need their API key)" }, a.models.map(id => h("option", { value: id }, id)))] : []));
  }).catch(() => {});
  const fillTasks = () => {
    taskSel.replaceChildren(...tasks.filter(t => t.game_id === gameSel.value)
      .map(t => h("option", { value: t.task_id }, t.task_id)));
    showInfo();
  };
  const showInfo = () => {
    const t = tasks.find(t => t.game_id === gameSel.value && t.task_id === taskSel.value);
    info.textContent = t ? `${t.instruction} (${t.max_steps} steps)` : "";
    const coop = !!(t && t.cooperative);
    coopBox.hidden = !coop;
    if (coop && roleSel.dataset.game !== t.game_id) {
      roleSel.dataset.game = t.game_id;
      roleSel.replaceChildren(...t.roles.map(r => h("option", { value: r }, r)));
    }
    // A cooperative step waits for both players: step mode only.
    mode.value = coop ? "step" : mode.value;
    mode.disabled = coop;
  };
  gameSel.addEventListener("change", fillTasks);
  taskSel.addEventListener("change", showInfo);
  const seed = h("input", { id: "seed", type: "number", min: 0, value: 1 });
  const mode = h("select", { id: "mode" }, h("option", { value: "step" }, "step (paused between inputs)"),
    h("option", { value: "realtime" }, "real time (starts on your first key, or after a countdown)"));
  const name = h("input", { id: "player", placeholder: "your name (optional)", maxlength: 40 });
  const start = h("button", { id: "start", onclick: async () => {
    start.disabled = true;
    try {
      const p = await api("POST", "/api/play", {
        preset: `${gameSel.value}+${taskSel.value}`, seed: Number(seed.value || 1),
        mode: mode.value, name: name.value || undefined,
        role: coopBox.hidden ? undefined : roleSel.value,
        partner: coopBox.hidden ? undefined : partnerSel.value });
      location.hash = `#/play/${encodeURIComponent(p.id)}`;
    } catch (e) { say(e.message); start.disabled = false; }
  } }, "Start");
  app.replaceChildren(h("div", { class: "panel" },
    h("h2", {}, "Play a task"),
    h("label", {}, "Game"), gameSel, h("label", {}, "Task"), taskSel, info, coopBox,
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
  // Real time: the game clock starts with the first input, or when the
  // countdown ends (the first watch tick).
  let started = p.mode !== "realtime" || p.steps_done > 0;
  const COUNTDOWN_S = 5;
  const countdown = h("div", { class: "countdown", id: "countdown", hidden: started });
  const begin = () => { if (started) return; started = true; countdown.hidden = true; };
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
    begin();
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
  if (p.mode === "realtime" && !started) {
    let left = COUNTDOWN_S;
    const tickDown = () => {
      countdown.textContent = `The game starts in ${left} s — or press a key to start now`;
      if (left-- <= 0) { begin(); clearInterval(cd); }
    };
    const cd = setInterval(tickDown, 1000);
    tickDown();
    cleanup.push(() => clearInterval(cd));
  }
  if (p.mode === "realtime") {
    const timer = setInterval(async () => {
      if (busy || ended || !started) return;
      busy = true;
      try { show(await api("POST", `/api/play/${encodeURIComponent(id)}/watch`)); }
      catch (e) { say(e.message); }
      finally { busy = false; }
    }, 100);
    cleanup.push(() => clearInterval(timer));
  }
  // Leaving the page ends the play (recorded as player_left); the server
  // also ends a play left without input for its idle limit.
  const leaveUrl = `/api/play/${encodeURIComponent(id)}/leave`;
  const onLeave = () => { if (!ended) navigator.sendBeacon(leaveUrl); };
  window.addEventListener("pagehide", onLeave);
  cleanup.push(() => { window.removeEventListener("pagehide", onLeave); onLeave(); });
  const quit = h("button", { id: "quit", onclick: async () => {
    try { show(await api("DELETE", `/api/play/${encodeURIComponent(id)}`)); } catch (e) { say(e.message); }
  } }, "Quit");
  const c = p.controls || {};
  app.replaceChildren(h("div", { class: "row split", id: "play-row" },
    h("div", { class: "frame-col" }, h("div", { class: "stage" }, img, countdown)),
    h("div", { class: "panel side", id: "play-side" },
      h("h3", {}, p.preset), status, note,
      c.role ? h("p", { id: "play-role" }, `You play ${c.role}; the partner agent plays the other role (${c.partner}).`) : null,
      h("p", {}, c.instruction || ""),
      h("p", { class: "muted" }, `Mode: ${p.mode === "realtime" ? "real time (the game keeps running)" : "step (the game waits for you)"}`),
      c.keys && c.keys.length ? h("p", {}, "Keys: ", c.keys.join(" ")) : null,
      c.clicks ? h("p", {}, "Mouse: click or drag on the game") : null,
      // The registry's prose is hard-wrapped: reflow it, one <p> a paragraph.
      c.description ? h("div", { id: "play-controls" }, c.description.split(/\n\s*\n/)
        .map(par => h("p", {}, par.trim().replace(/\s*\n\s*/g, " ")))) : null,
      result, quit)));
  show(p);
}

// ---------------------------------------------------------------- runs
// The runs list: filter, sort and page on the client (running and failed
// runs first by default), so a folder of thousands of runs stays usable.
const RUN_COLUMNS = [
  ["game", "game"], ["task", "task"], ["model", "model"], ["seed", "seed"],
  ["outcome", "outcome"], ["progress", "progress"], ["steps", "steps"], ["path", "run folder"],
];
const OUTCOME_ORDER = { running: 0, error: 1, fail: 2, success: 3 };
function runFields(r) {
  // A running run has no result yet: its preset comes from its folder name.
  let game = r.game_id, task = r.task_id, model = r.model;
  const preset = r.preset || (r.path || "").split("/").find(p => p.split("+").length === 3) || "";
  const [pg, pt, pm] = preset.split("+");
  return { ...r, game: game ?? pg ?? "", task: task ?? pt ?? "", model: model ?? pm ?? "",
    outcome: r.outcome || (r.running ? "running" : (r.success ? "success" : "fail")) };
}
function compareRuns(key, dir) {
  return (a, b) => {
    let x = a[key], y = b[key];
    if (key === "outcome") { x = OUTCOME_ORDER[x] ?? 9; y = OUTCOME_ORDER[y] ?? 9; }
    if (x === y) return a.path < b.path ? -1 : (a.path > b.path ? 1 : 0);
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    return (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true })) * dir;
  };
}
async function runList(params = {}) {
  const data = await api("GET", "/api/runs");
  const suites = data.suites.map(su => h("tr", {},
    h("td", {}, h("a", { href: `#/suite?${q({ root: su.root, path: su.path })}` }, su.path || "(root)")),
    h("td", {}, su.name ?? ""), h("td", {}, su.planned_runs ?? ""),
    h("td", {}, su.report ? h("a", { href: `/report/${su.path ? su.path + "/" : ""}report.html?root=${su.root}` }, "report") : "")));
  const all = data.runs.map(runFields);
  const st = { sort: "outcome", dir: 1, page: 0, size: 50, text: "", outcome: "", model: "", game: "" };
  const distinct = (k) => [...new Set(all.map(r => r[k]).filter(Boolean))].sort();
  const sel = (id, label, values) => h("label", {}, label, h("br"),
    h("select", { id, onchange: (e) => { st[id.slice(2)] = e.target.value; st.page = 0; draw(); } },
      h("option", { value: "" }, "all"), values.map(v => h("option", { value: v }, v))));
  const search = h("input", { id: "f-text", placeholder: "task, seed, folder…", oninput: (e) => { st.text = e.target.value.toLowerCase(); st.page = 0; draw(); } });
  const filters = h("div", { class: "filters" },
    h("label", {}, "search", h("br"), search),
    sel("f-game", "game", distinct("game")), sel("f-model", "model", distinct("model")),
    sel("f-outcome", "outcome", ["running", "error", "fail", "success"]),
    h("label", {}, "per page", h("br"), h("select", { id: "f-size", onchange: (e) => { st.size = Number(e.target.value); st.page = 0; draw(); } },
      [25, 50, 100, 250].map(n => h("option", { value: n, selected: n === st.size }, n)))));
  const table = h("table", { id: "run-table" });
  const pager = h("div", { class: "pager", id: "run-pager" });
  const counts = h("p", { class: "muted", id: "run-counts" });
  const draw = () => {
    const shown = all.filter(r => (!st.game || r.game === st.game) && (!st.model || r.model === st.model)
      && (!st.outcome || r.outcome === st.outcome)
      && (!st.text || `${r.game} ${r.task} ${r.model} ${r.seed} ${r.path}`.toLowerCase().includes(st.text)))
      .sort(compareRuns(st.sort, st.dir));
    const pages = Math.max(1, Math.ceil(shown.length / st.size));
    st.page = Math.min(st.page, pages - 1);
    const rows = shown.slice(st.page * st.size, (st.page + 1) * st.size);
    const by = {};
    for (const r of all) by[r.outcome] = (by[r.outcome] || 0) + 1;
    counts.textContent = `${all.length} runs: ${["running", "error", "fail", "success"].map(o => `${by[o] || 0} ${o}`).join(" · ")}` +
      (shown.length !== all.length ? ` — ${shown.length} match the filters` : "");
    table.replaceChildren(
      h("tr", {}, RUN_COLUMNS.map(([k, t]) => h("th", { class: "sortable", "data-key": k, onclick: () => {
        st.dir = st.sort === k ? -st.dir : 1; st.sort = k; draw();
      } }, t + (st.sort === k ? (st.dir > 0 ? " ▲" : " ▼") : "")))),
      ...rows.map(r => h("tr", { class: "run-row" },
        h("td", {}, r.game), h("td", {}, r.task), h("td", {}, r.model), h("td", {}, r.seed ?? ""),
        h("td", { class: r.outcome === "success" ? "ok" : (r.outcome === "running" ? "muted" : "bad"), title: r.error || r.stop_reason || "" },
          r.outcome + (r.stop_reason && r.outcome === "fail" ? ` (${r.stop_reason})` : "")),
        h("td", {}, fmt(r.progress)), h("td", {}, r.steps ?? ""),
        h("td", {}, h("a", { href: `#/run?${q({ root: r.root, path: r.path })}` }, r.path)))));
    const go = (n) => { st.page = Math.max(0, Math.min(pages - 1, n)); draw(); };
    pager.replaceChildren(
      h("button", { id: "page-prev", disabled: st.page === 0, onclick: () => go(st.page - 1) }, "‹ previous"),
      h("span", { id: "page-label" }, `page ${st.page + 1} of ${pages}`),
      h("button", { id: "page-next", disabled: st.page >= pages - 1, onclick: () => go(st.page + 1) }, "next ›"));
  };
  app.replaceChildren(...nodes(
    h("div", { class: "panel" }, h("h2", {}, "Suites"),
      suites.length ? h("table", {}, h("tr", {}, h("th", {}, "folder"), h("th", {}, "suite"), h("th", {}, "runs"), h("th", {}, "")), suites)
        : h("p", { class: "muted" }, "No suite folders under the runs roots.")),
    h("div", { class: "panel" }, h("h2", {}, "Runs"),
      h("p", { class: "muted" }, data.roots.join(", ")),
      all.length ? [counts, filters, pager, table] : h("p", { class: "muted" }, "No runs yet."))));
  if (all.length) draw();
  void params;
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
  // Frame i is what the agent saw before step i + 1 (null when not kept).
  const frameAt = (i) => {
    const before = i === 0 ? { frame: run.first_frame } : steps[i - 1];
    return before ? (before.reset_frame || before.frame || null) : null;
  };
  const anyFrame = steps.some((_, i) => frameAt(i + 1)) || !!frameAt(0);
  const frameNote = h("div", { id: "frame-note", class: "muted" });
  const noFrames = h("div", { class: "no-frames", id: "no-frames", hidden: anyFrame },
    "No frames recorded for this run (run with frames on, or a suite with frames: sparse or all).");
  if (!anyFrame) {
    const [w, h2] = (res.game_id && steps[0] && steps[0].state && steps[0].state.viewport) || [1280, 720];
    img.width = w; img.height = h2;
    img.src = "data:image/svg+xml," + encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h2}"><rect width="100%" height="100%" fill="#1d2430"/></svg>`);
  }
  let idx = 0, playing = null;
  function go(i) {
    idx = Math.max(0, Math.min(steps.length, i));
    scrub.value = idx;
    cv.mark(idx);
    // Frame idx is what the agent saw before step idx + 1; the overlay is the
    // action it chose on it. A sparse frame set shows the nearest earlier
    // frame kept, and says so.
    let shown = idx;
    while (shown > 0 && !frameAt(shown)) shown--;
    const name = frameAt(shown);
    const next = steps[idx];
    if (anyFrame) {
      if (name) img.src = frameUrl(name); else img.removeAttribute("src");
      frameNote.textContent = !name ? "no frame kept before this step" :
        (shown !== idx ? `frame not kept for this step; showing the one before step ${shown + 1}` : "");
      img.onload = () => drawAction(svg, next && shown === idx ? next.action : null, img.naturalWidth, img.naturalHeight);
      if (img.complete) img.onload();
    }
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
    h("div", { class: "row split", id: "viewer-row" },
      h("div", { class: "frame-col" }, h("div", { class: "stage" }, img, svg, noFrames), frameNote, scrub, cv.svg,
        h("p", { class: "muted" }, "← → step · Home/End · Space play/pause · ",
          h("a", { href: `/api/run/clip.gif?${q({ root, path })}`, id: "clip" }, "export GIF"))),
      h("div", { class: "panel side", id: "viewer-side" }, pos, detail))));
  void vp;
  go(Number(params.step || 0));
}

// ---------------------------------------------------------------- dashboard
function dashboard(params) {
  const root = Number(params.root || 0), path = params.path || "";
  const head = h("div", { id: "suite-head", class: "big" }, "Connecting…");
  const table = h("table", { id: "suite-runs" });
  const errs = h("div", { id: "suite-errors" });
  const report = h("p", { id: "suite-report-line" });
  app.replaceChildren(h("div", { class: "panel" }, h("h2", {}, `Suite ${path}`), head, report, errs, table));
  const es = new EventSource(`/api/suite/events?${q({ root, path })}`);
  cleanup.push(() => es.close());
  es.addEventListener("status", (ev) => {
    const st = JSON.parse(ev.data);
    const pct = (x) => (x === null || x === undefined) ? "–" : `${(100 * x).toFixed(1)}%`;
    head.replaceChildren(...nodes(
      `${st.name ?? ""}: ${st.done}/${st.planned} done · ${st.running} running · ${st.pending} pending · ${st.failed} errors · `,
      `SR ${pct(st.sr)} · PG ${pct(st.pg)} · tokens ${st.input_tokens}/${st.output_tokens} · $${fmt(st.cost_usd, 4)}`,
      st.complete ? h("span", { class: "ok", id: "suite-complete" }, " · complete") : ""));
    report.replaceChildren(...nodes(st.report
      ? h("a", { id: "suite-report", href: `/report/${path ? path + "/" : ""}report.html?root=${root}` }, "Open the suite's report (report.html)")
      : h("span", { class: "muted" }, "The report (report.html) is written when the suite ends.")));
    errs.replaceChildren(...st.errors.map(e => h("p", { class: "bad" }, `${e.preset} seed ${e.seed}: ${e.error}`)));
    table.replaceChildren(h("tr", {}, ["run", "seed", "status", "steps", "progress"].map(t => h("th", {}, t))),
      ...st.runs.map(r => h("tr", {},
        h("td", {}, r.status === "pending" ? r.preset : h("a", { href: `#/run?${q({ root, path: (path ? path + "/" : "") + r.dir })}` }, r.preset)),
        h("td", {}, r.seed), h("td", { class: r.status === "error" ? "bad" : (r.success ? "ok" : "") }, r.status + (r.error ? `: ${r.error}` : "")),
        h("td", {}, r.steps), h("td", {}, fmt(r.progress)))));
    // A finished suite sends nothing more: stop following it.
    if (st.complete) es.close();
  });
}

route();
