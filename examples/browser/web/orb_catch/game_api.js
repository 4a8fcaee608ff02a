// The GameWorld gameAPI of Orb Catch (schema 2.0). reset() is reload-style:
// it answers {method: 'reload'} and reloads the page.
(function () {
  'use strict';
  const g = () => window.orbCatch;
  window.gameAPI = {
    version: '2.0',
    capabilities: {
      supports_seed: true, supports_level_select: true, supports_difficulty: false,
      supports_inplace_reset: false, supports_reload_reset: true,
      supports_pause_detection: false, supports_menu_detection: true, provides_actionable_flag: true,
    },
    async init(config) {
      const notes = [];
      const cfg = config || {};
      if (typeof cfg.seed === 'number') { window.__setDeterministicSeed(cfg.seed); g().seed = cfg.seed; }
      if (cfg.level !== undefined && cfg.level !== null) notes.push('level_from_url_only');
      if (cfg.difficulty) notes.push('difficulty_not_supported');
      return { ok: true, accepted: { seed: cfg.seed ?? null, level: cfg.level ?? null, difficulty: cfg.difficulty ?? null },
               applied: { seed: g().seed, level: g().level }, notes };
    },
    async reset(options) {
      setTimeout(() => window.location.reload(), 0);
      return { ok: true, method: 'reload', accepted: options || {}, applied: {}, notes: [] };
    },
    getState() {
      const s = g();
      const loading = !s || s.status === 'loading';
      const terminal = !!s && s.status === 'terminal';
      return {
        schemaVersion: '2.0',
        gameId: 'web_orb_catch',
        seed: s ? s.seed : null,
        timestampMs: Date.now(),
        gameTimeMs: s && s.startTime !== null ? Math.round(performance.now() - s.startTime) : null,
        status: s ? s.status : 'loading',
        is_actionable: !loading && !terminal,
        terminal: { isTerminal: terminal, outcome: terminal ? s.outcome : null, reason: terminal ? s.reason : null },
        game_state: loading ? { score: null, level: null } : {
          score: s.score, level: s.level, lives: s.lives,
          player: { x: Math.round(s.basketX) },
          entities: s.orbs.map((o) => ({ x: Math.round(o.x), y: Math.round(o.y) })),
          completion_progress: Math.min(1, s.score / 5),
        },
        metrics: loading ? {} : { primary_score: s.score, caught: s.caught, popped: s.popped, missed: s.missed },
        debug: { frame: s ? s.frame : 0, url: location.search },
      };
    },
  };
})();
