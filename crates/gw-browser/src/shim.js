// GameWorld-RS host shim, installed before any page script on every
// navigation (Page.addScriptToEvaluateOnNewDocument). The Rust side replaces
// __GW_SEED__ with the run's 32-bit seed.
//
// 1. A virtual game clock: Date, performance.now, requestAnimationFrame and
//    the timers run on a clock that moves only when the host calls
//    __gwHost.advance(ms). Frames fall every 1000/60 ms of game time; timers
//    fire in due order (ties: earlier registration first), before the frame
//    that shares their time. Between steps the game is frozen.
// 2. Seeded Math.random / crypto.getRandomValues / crypto.randomUUID
//    (mulberry32; the crypto stream uses seed ^ 0x9E3779B9).
// 3. preserveDrawingBuffer forced on WebGL contexts so screenshots of 3D
//    canvases are not blank.
(function () {
  'use strict';
  if (window.__gwHost) return;
  const SEED = (__GW_SEED__) >>> 0;
  const FRAME_MS = 1000 / 60;
  const EPOCH_MS = 1700000000000;

  function mulberry32(a) {
    return function () {
      a |= 0; a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  let rand = mulberry32(SEED);
  let cryptoRand = mulberry32((SEED ^ 0x9E3779B9) >>> 0);
  Math.random = function random() { return rand(); };
  if (window.crypto) {
    const fill = function getRandomValues(arr) {
      const bytes = new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(cryptoRand() * 256);
      return arr;
    };
    try { Object.defineProperty(window.crypto, 'getRandomValues', { value: fill, configurable: true }); } catch (e) {}
    try {
      Object.defineProperty(window.crypto, 'randomUUID', {
        configurable: true,
        value: function randomUUID() {
          const b = fill(new Uint8Array(16));
          b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
          const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
          return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
        },
      });
    } catch (e) {}
  }

  // ---- virtual clock ----
  let now = 0;          // game ms since page start
  let frame = 1;        // index of the next frame (frame k at k * FRAME_MS)
  let seq = 0;
  let nextId = 1;
  const timers = new Map();   // id -> {due, seq, fn, args, every}
  let rafs = new Map();       // id -> callback
  let speed = 1;

  const RealDate = Date;
  function VDate(...a) {
    if (!new.target) return new RealDate(EPOCH_MS + now).toString();
    return a.length ? new RealDate(...a) : new RealDate(EPOCH_MS + now);
  }
  VDate.prototype = RealDate.prototype;
  VDate.now = function () { return EPOCH_MS + Math.floor(now); };
  VDate.parse = RealDate.parse;
  VDate.UTC = RealDate.UTC;
  window.Date = VDate;
  const perfNow = function now_() { return now; };
  try { Object.defineProperty(performance, 'now', { value: perfNow, configurable: true }); } catch (e) {}

  function call(fn, args) {
    try {
      if (typeof fn === 'function') fn.apply(window, args);
      else (0, eval)(String(fn));
    } catch (e) {
      try { window.reportError(e); } catch (e2) { console.error(e); }
    }
  }
  function addTimer(fn, delay, args, every) {
    const d = Math.max(0, Number(delay) || 0);
    const id = nextId++;
    timers.set(id, { due: now + d, seq: seq++, fn, args, every: every ? Math.max(1, d) : 0 });
    return id;
  }
  window.setTimeout = function setTimeout(fn, delay, ...args) { return addTimer(fn, delay, args, false); };
  window.setInterval = function setInterval(fn, delay, ...args) { return addTimer(fn, delay, args, true); };
  window.clearTimeout = window.clearInterval = function clearTimer(id) { timers.delete(id); };
  window.requestAnimationFrame = function requestAnimationFrame(cb) {
    const id = nextId++;
    rafs.set(id, cb);
    return id;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) { rafs.delete(id); };

  function nextTimer() {
    let best = null;
    for (const [id, t] of timers) {
      if (!best || t.due < best.t.due || (t.due === best.t.due && t.seq < best.t.seq)) best = { id, t };
    }
    return best;
  }
  const channel = new MessageChannel();
  const hopQueue = [];
  channel.port1.onmessage = () => { const r = hopQueue.shift(); if (r) r(); };
  // One macrotask hop so promise chains started by a callback settle before
  // the next callback, as they would between real frames.
  function hop() { return new Promise((r) => { hopQueue.push(r); channel.port2.postMessage(0); }); }

  let busy = false;
  async function advance(ms) {
    if (busy) throw new Error('advance already running');
    busy = true;
    try {
      const target = now + Math.max(0, Number(ms) || 0);
      let guard = 0;
      for (;;) {
        const t = nextTimer();
        const frameAt = frame * FRAME_MS;
        const timerFirst = t && t.t.due <= frameAt;
        const at = timerFirst ? t.t.due : frameAt;
        if (at > target + 1e-9) break;
        if (++guard > 200000) throw new Error('timer storm: more than 200000 callbacks in one advance');
        now = Math.max(now, at);
        if (timerFirst) {
          if (t.t.every) { t.t.due += t.t.every; t.t.seq = seq++; } else timers.delete(t.id);
          call(t.t.fn, t.t.args || []);
        } else {
          frame += 1;
          const due = rafs;
          rafs = new Map();
          for (const cb of due.values()) call(cb, [now]);
        }
        await hop();
      }
      now = target;
      return now;
    } finally {
      busy = false;
    }
  }

  // Compatibility with the original harness' globals: the host owns time,
  // so pausing is the default and speed is applied by the host.
  let paused = true;
  window.__pauseGame = function () { paused = true; };
  window.__resumeGame = function () { paused = false; };
  window.__isGamePaused = function () { return paused; };
  window.__setGameSpeed = function (x) { const v = Number(x); if (v > 0) speed = v; };
  window.__getGameSpeedState = function () { return { speed, paused, virtualTimeMs: now }; };

  Object.defineProperty(window, '__gwHost', {
    configurable: false,
    enumerable: false,
    value: Object.freeze({
      advance,
      now: () => now,
      seed: SEED,
      reseed(s) { rand = mulberry32(s >>> 0); cryptoRand = mulberry32(((s >>> 0) ^ 0x9E3779B9) >>> 0); },
    }),
  });

  // ---- WebGL readable for screenshots ----
  const origGetContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function getContext(type, attrs) {
    if (typeof type === 'string' && /^(webgl2?|experimental-webgl)$/.test(type)) {
      attrs = Object.assign({}, attrs || {}, { preserveDrawingBuffer: true });
    }
    return origGetContext.call(this, type, attrs);
  };

  // CSS and Web animations would run on the wall clock: keep them still.
  function freezeAnimations() {
    try { for (const a of document.getAnimations()) a.pause(); } catch (e) {}
  }
  document.addEventListener('DOMContentLoaded', freezeAnimations);
  window.__gwFreezeAnimations = freezeAnimations;
})();
