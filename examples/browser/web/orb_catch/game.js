// Orb Catch: orbs fall from the sky; move the basket (ArrowLeft/ArrowRight
// or A/D) to catch them, or click an orb to pop it. Every 5 points is a new
// level with faster orbs. A missed orb costs a life; no lives left ends the
// game (a failure). ?level=N picks the starting level, ?lives=N the lives.
(function () {
  'use strict';
  const W = 800, H = 600, BASKET_W = 120, BASKET_Y = 550, ORB_R = 18;
  const params = new URLSearchParams(location.search);
  const startLevel = Math.max(1, parseInt(params.get('level') || '1', 10) || 1);
  const startLives = Math.max(1, parseInt(params.get('lives') || '3', 10) || 3);
  const canvas = document.getElementById('game');
  const ctx = canvas.getContext('2d');

  const game = {
    status: 'loading',
    seed: null,
    level: startLevel,
    score: 0,
    lives: startLives,
    caught: 0,
    popped: 0,
    missed: 0,
    basketX: W / 2,
    orbs: [],
    spawnIn: 0,
    startTime: null,
    frame: 0,
    outcome: null,
    reason: null,
  };
  const keys = new Set();
  let last = null;

  function orbSpeed() { return 140 + 60 * (game.level - 1); }
  function spawn() {
    game.orbs.push({ x: ORB_R + Math.random() * (W - 2 * ORB_R), y: -ORB_R, hue: Math.floor(Math.random() * 360) });
    game.spawnIn = 0.9 + Math.random() * 0.6;
  }
  function addPoint() {
    game.score += 1;
    if (game.score % 5 === 0) game.level += 1;
  }
  function update(dt) {
    if (game.status !== 'playing') return;
    const dir = (keys.has('ArrowRight') || keys.has('KeyD') ? 1 : 0) - (keys.has('ArrowLeft') || keys.has('KeyA') ? 1 : 0);
    game.basketX = Math.min(W - BASKET_W / 2, Math.max(BASKET_W / 2, game.basketX + dir * 420 * dt));
    game.spawnIn -= dt;
    if (game.spawnIn <= 0) spawn();
    const keep = [];
    for (const o of game.orbs) {
      o.y += orbSpeed() * dt;
      if (o.y >= BASKET_Y - ORB_R && o.y <= BASKET_Y + 10 && Math.abs(o.x - game.basketX) <= BASKET_W / 2) {
        game.caught += 1; addPoint();
      } else if (o.y > H + ORB_R) {
        game.missed += 1; game.lives -= 1;
      } else keep.push(o);
    }
    game.orbs = keep;
    if (game.lives <= 0) {
      game.status = 'terminal'; game.outcome = 'fail'; game.reason = 'no lives left';
    }
  }
  function draw() {
    ctx.fillStyle = '#10131c'; ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = '#1d2740'; ctx.fillRect(0, BASKET_Y + 14, W, H - BASKET_Y);
    for (const o of game.orbs) {
      ctx.fillStyle = 'hsl(' + o.hue + ',80%,60%)';
      ctx.beginPath(); ctx.arc(o.x, o.y, ORB_R, 0, Math.PI * 2); ctx.fill();
    }
    ctx.fillStyle = '#f2c14e';
    ctx.fillRect(game.basketX - BASKET_W / 2, BASKET_Y, BASKET_W, 14);
    ctx.fillStyle = '#e8ecf5'; ctx.font = 'bold 22px sans-serif';
    ctx.fillText('Score ' + game.score + '   Level ' + game.level + '   Lives ' + game.lives, 16, 32);
    if (game.status === 'ready') ctx.fillText('Press an arrow key or click to start', 220, 300);
    if (game.status === 'terminal') ctx.fillText('Game over', 340, 300);
  }
  function loop(t) {
    const dt = last === null ? 0 : Math.min(0.05, (t - last) / 1000);
    last = t;
    game.frame += 1;
    update(dt);
    draw();
    requestAnimationFrame(loop);
  }
  function begin() {
    if (game.status === 'ready') { game.status = 'playing'; game.startTime = performance.now(); spawn(); }
  }
  window.addEventListener('keydown', (e) => { keys.add(e.code); if (e.code.startsWith('Arrow') || e.code === 'KeyA' || e.code === 'KeyD') begin(); });
  window.addEventListener('keyup', (e) => { keys.delete(e.code); });
  canvas.addEventListener('mousedown', (e) => {
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    begin();
    const hit = game.orbs.findIndex((o) => (o.x - x) ** 2 + (o.y - y) ** 2 <= (ORB_R + 6) ** 2);
    if (hit >= 0 && game.status === 'playing') { game.orbs.splice(hit, 1); game.popped += 1; addPoint(); }
  });
  window.addEventListener('load', () => { game.status = 'ready'; draw(); requestAnimationFrame(loop); });
  window.orbCatch = game;
})();
