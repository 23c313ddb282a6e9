// What this browser remembers: seat tokens per game, the games it has seen ("My games"), preferences.
// localStorage key "torres.games": {gameId: {tokens: {seat: token}, invites: {seat: path}, hotseat, touched}}

const KEY = "torres.games";

function readAll() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
}
function writeAll(all) {
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (e) { /* storage full or blocked */ }
}

export function getGame(id) {
  const g = readAll()[id];
  return g ? { tokens: {}, invites: {}, ...g } : null;
}

export function saveGame(id, patch) {
  const all = readAll();
  const old = all[id] || { tokens: {}, invites: {} };
  all[id] = { ...old, ...patch, tokens: { ...old.tokens, ...(patch.tokens || {}) }, touched: Date.now() };
  writeAll(all);
  return all[id];
}

export function setToken(id, seat, token) { return saveGame(id, { tokens: { [seat]: token } }); }

/** The seats this browser holds a token for, as numbers. */
export function localSeats(id) {
  const g = getGame(id);
  return g ? Object.keys(g.tokens).map(Number).sort((a, b) => a - b) : [];
}

export function tokenFor(id, seat) { const g = getGame(id); return g && g.tokens ? g.tokens[seat] || null : null; }

/** Ids of the games this browser knows, most recently touched first. */
export function gameIds() {
  const all = readAll();
  return Object.keys(all).sort((a, b) => (all[b].touched || 0) - (all[a].touched || 0));
}

export function touch(id) { if (getGame(id)) saveGame(id, {}); else saveGame(id, { watched: true }); }

export function forget(id) { const all = readAll(); delete all[id]; writeAll(all); }

export function pref(name, fallback) {
  try { const v = localStorage.getItem("torres." + name); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
}
export function setPref(name, value) { try { localStorage.setItem("torres." + name, JSON.stringify(value)); } catch (e) { /* ignore */ } }

/** The seat tokens this browser holds, most recent games first: sent at log-in so the seats join the account. */
export function allSeats(limit = 50) {
  const all = readAll();
  const out = [];
  for (const id of gameIds()) {
    for (const [seat, token] of Object.entries(all[id].tokens || {})) if (token) out.push({ game: id, seat: Number(seat), token });
  }
  return out.slice(0, limit);
}
