// The lobby: create an open game (a "seek"), the open games updating live over /ws/lobby, who is online, the
// account's games in progress ("your turn" first). A {"type": "started"} message takes its players to the game.

import { h, clear, api, keepUnchanged } from "./dom.js";
import { t, editionName, levelName } from "./i18n.js";
import * as store from "./store.js";
import { session, change, me, sameName, playerLink } from "./session.js";
import { refusal } from "./account.js";
import { gameItem } from "./panels.js";

/** "5 min + 3 s", "20 s", "2 days per move", or "no clock". */
export function clockText(clock) {
  if (!clock) return t("clock_none");
  if (clock.kind === "correspondence") return t("clock_days", { n: clock.days });
  const s = clock.seconds;
  const base = s >= 60 && s % 60 === 0 ? t("min", { n: s / 60 }) : t("sec", { n: s });
  return clock.increment ? `${base} + ${t("sec", { n: clock.increment })}` : base;
}

export async function lobbyPage(root, navigate) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  document.title = `${t("lobby")} · Torres`;
  await session();
  let meta;
  try { meta = await api("/api/meta"); } catch (e) { meta = { editions: ["riogrande"], levels: ["beginner", "casual", "strong", "expert", "master"] }; }
  const st = { seeks: [], online: [], games: null, busy: false };
  const seeksBox = h("section", { class: "card-box", id: "open-games", "aria-labelledby": "open-title" });
  const onlineBox = h("section", { class: "card-box", id: "online", "aria-labelledby": "online-title" });
  const gamesBox = h("section", { class: "card-box", id: "your-games", "aria-labelledby": "your-games-title" });
  const formBox = h("section", { class: "card-box", id: "create-seek", "aria-labelledby": "seek-title" });
  const live = h("p", { class: "visually-hidden", "aria-live": "polite", id: "lobby-live" });
  const err = h("p", { class: "error", role: "alert", id: "lobby-error" });
  const seekErr = h("p", { class: "error", role: "alert", id: "seek-error" });
  root.replaceChildren(h("div", { class: "page lobby" },
    h("h1", { class: "page-title" }, t("lobby")), live,
    h("div", { class: "lobby-grid" }, h("div", {}, seeksBox, gamesBox), h("div", {}, formBox, onlineBox))));

  // ---- the form ----
  const saved = store.pref("seek", {});
  const f = {
    players: saved.players || 2, edition: saved.edition || meta.editions[0], rated: !!saved.rated, clock: saved.clock || "live",
    minutes: saved.minutes || 10, increment: saved.increment ?? 5, days: saved.days || 3,
    bots: !!saved.bots, level: saved.level || "strong", note: "",
  };
  function drawForm() {
    const account = me();
    if (!account) {
      clear(formBox).append(h("h2", { id: "seek-title" }, t("create_seek")), h("p", {}, t("lobby_login"), " ",
        h("a", { href: "/login?next=/lobby", "data-link": "" }, t("login")), " · ", h("a", { href: "/signup?next=/lobby", "data-link": "" }, t("signup"))));
      return;
    }
    if (f.rated) { f.bots = false; if (f.clock === "none") f.clock = "live"; }
    const radio = (name, value, label, checked, onchange, disabled) => h("label", { class: "radio" },
      h("input", { type: "radio", name, value, checked, disabled, onchange }), " ", label);
    const num = (id, label, value, attrs, onchange) => h("label", { class: "num" }, label,
      h("input", { type: "number", id, value: String(value), required: true, ...attrs, oninput: (ev) => onchange(ev.target.value) }));
    const redraw = (focusName) => () => { drawForm(); const el = formBox.querySelector(focusName); if (el) el.focus(); };
    const form = h("form", { id: "seek-form", "aria-labelledby": "seek-title", onsubmit: submit },
      h("div", { class: "form-grid" },
        h("label", {}, t("players"), h("select", { id: "seek-players", onchange: (ev) => { f.players = Number(ev.target.value); } },
          [2, 3, 4].map((n) => h("option", { value: n, selected: f.players === n }, String(n))))),
        h("label", {}, t("edition"), h("select", { id: "seek-edition", onchange: (ev) => { f.edition = ev.target.value; } },
          meta.editions.map((e) => h("option", { value: e, selected: f.edition === e }, editionName(e)))))),
      h("fieldset", { class: "choice" }, h("legend", {}, t("game_type")),
        radio("rated", "rated", t("rated"), f.rated, () => { f.rated = true; redraw('input[name="rated"][value="rated"]')(); }),
        radio("rated", "casual", t("casual"), !f.rated, () => { f.rated = false; redraw('input[name="rated"][value="casual"]')(); }),
        f.rated ? h("small", { class: "muted note" }, t("rated_note")) : null),
      h("fieldset", { class: "choice" }, h("legend", {}, t("time_control")),
        radio("clock", "none", t("clock_none"), f.clock === "none", () => { f.clock = "none"; redraw('input[value="none"]')(); }, f.rated),
        radio("clock", "live", t("clock_live"), f.clock === "live", () => { f.clock = "live"; redraw('input[value="live"]')(); }),
        radio("clock", "correspondence", t("clock_corr"), f.clock === "correspondence", () => { f.clock = "correspondence"; redraw('input[value="correspondence"]')(); }),
        f.clock === "live" ? h("div", { class: "clock-fields" },
          num("seek-minutes", t("minutes"), f.minutes, { min: 0.25, max: 180, step: 0.25 }, (v) => { f.minutes = v; }),
          num("seek-increment", t("increment"), f.increment, { min: 0, max: 180, step: 1 }, (v) => { f.increment = v; })) : null,
        f.clock === "correspondence" ? h("div", { class: "clock-fields" },
          num("seek-days", t("days_per_move"), f.days, { min: 1, max: 14, step: 1 }, (v) => { f.days = v; })) : null),
      h("div", { class: "bots-row" },
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "seek-bots", checked: f.bots, disabled: f.rated,
          onchange: (ev) => { f.bots = ev.target.checked; redraw("#seek-bots")(); } }), t("fill_bots")),
        f.bots ? h("label", {}, t("bot_level_label"), " ", h("select", { id: "seek-level", onchange: (ev) => { f.level = ev.target.value; } },
          meta.levels.map((l) => h("option", { value: l, selected: f.level === l }, levelName(l))))) : null),
      h("div", { class: "field" }, h("label", { for: "seek-note" }, t("note")),
        h("input", { type: "text", id: "seek-note", maxlength: 80, value: f.note, oninput: (ev) => { f.note = ev.target.value; } })),
      h("button", { type: "submit", class: "btn primary big", id: "seek-submit" }, t("create_seek_btn")), err);
    clear(formBox).append(h("h2", { id: "seek-title" }, t("create_seek")), form);
  }

  async function submit(ev) {
    ev.preventDefault();
    err.textContent = "";
    const clock = f.clock === "live" ? { kind: "live", seconds: Math.max(10, Math.round(Number(f.minutes) * 60)), increment: Math.round(Number(f.increment) || 0) }
      : f.clock === "correspondence" ? { kind: "correspondence", days: Math.round(Number(f.days)) } : null;
    const body = { players: f.players, edition: f.edition, rated: f.rated, clock, bots: f.bots && !f.rated ? f.level : null, note: f.note.trim() };
    store.setPref("seek", { ...f, note: "" });
    const button = formBox.querySelector("#seek-submit");
    button.disabled = true;
    try {
      await change("/api/lobby", "POST", body);
      f.note = "";
      drawForm();
      live.textContent = t("seek_created");
      refresh();
    } catch (e) {
      err.textContent = refusal(e);
      button.disabled = false;
    }
  }

  // ---- the open games ----
  const mineSeek = (s) => sameName(s.creator, me() && me().username);
  const joined = (s) => (s.joined || []).some((n) => sameName(n, me() && me().username));
  async function act(path, method, what) {
    seekErr.textContent = "";
    try {
      const res = await change(path, method);
      if (res && res.game) { navigate(`/game/${res.game}`); return; }
      live.textContent = what;
      refresh();
    } catch (e) { seekErr.textContent = refusal(e); }
  }
  function seekItem(s) {
    const account = me();
    const others = (s.joined || []).filter((n) => !sameName(n, s.creator));
    const seatsLeft = s.players - 1 - others.length;
    const buttons = [];
    if (account && mineSeek(s)) {
      if (s.bots) buttons.push(h("button", { type: "button", class: "btn small primary", onclick: () => act(`/api/lobby/${s.id}/start`, "POST") },
        t("start_bots")));
      buttons.push(h("button", { type: "button", class: "btn small", onclick: () => act(`/api/lobby/${s.id}`, "DELETE", t("seek_cancelled")) }, t("cancel_seek")));
    } else if (account && joined(s)) {
      buttons.push(h("button", { type: "button", class: "btn small", "aria-label": t("leave_seek", { name: s.creator }),
        onclick: () => act(`/api/lobby/${s.id}/leave`, "POST", t("seek_left")) }, t("leave")));
    } else if (account) {
      buttons.push(h("button", { type: "button", class: "btn small primary", "aria-label": t("join_seek", { name: s.creator }),
        onclick: () => act(`/api/lobby/${s.id}/join`, "POST", t("seek_joined")) }, t("join")));
    }
    return h("li", { class: ["game-item", "seek", mineSeek(s) ? "mine" : null], "data-seek": s.id },
      h("div", { class: "seek-main" },
        h("div", { class: "seek-head" }, playerLink(s.creator), " · ", t("n_players", { n: s.players }), " · ", editionName(s.edition),
          " · ", h("b", {}, s.rated ? t("rated") : t("casual"))),
        h("div", { class: "muted small" }, s.clock ? `${t("clock_label")}: ${clockText(s.clock)}` : clockText(s.clock), s.bots ? ` · ${t("bots_fill", { level: levelName(s.bots) })}` : "",
          " · ", t(seatsLeft === 1 ? "seat_open" : "seats_open", { n: seatsLeft })),
        others.length ? h("div", { class: "small" }, t("joined"), ": ", others.map((n, i) => [i ? ", " : "", playerLink(n)])) : null,
        s.note ? h("p", { class: "seek-note" }, s.note) : null),
      h("div", { class: "gi-actions" }, buttons));
  }
  // The lists keep every item drawn as before (keepUnchanged): a seek's button under the pointer or holding the
  // keyboard's focus is not replaced when another seek comes or goes or somebody comes online (a click on "Start now
  // with bots" was lost that way).
  const seekList = h("ul", { class: "game-list seeks" });
  const onlineList = h("ul", { class: "online-list" });
  function drawSeeks() {
    keepUnchanged(seekList, st.seeks.map(seekItem));
    keepUnchanged(seeksBox, [h("h2", { id: "open-title" }, t("open_games")), seekErr,
      st.seeks.length ? seekList : h("p", { class: "muted" }, t("no_seeks"))]);
  }
  function drawOnline() {
    keepUnchanged(onlineList, st.online.map((n) => h("li", {}, h("span", { class: "online-dot", "aria-hidden": "true" }), playerLink(n))));
    keepUnchanged(onlineBox, [h("h2", { id: "online-title" }, t("online_now", { n: st.online.length })),
      st.online.length ? onlineList : h("p", { class: "muted" }, t("nobody_online"))]);
  }
  async function drawGames() {
    if (!me()) { gamesBox.hidden = true; return; }
    gamesBox.hidden = false;
    try { st.games = (await api("/api/account/games")).games || []; } catch (e) { st.games = st.games || []; }
    const games = [...st.games].sort((a, b) => (b.your_turn ? 1 : 0) - (a.your_turn ? 1 : 0));
    clear(gamesBox).append(h("h2", { id: "your-games-title" }, t("your_games")),
      games.length ? h("ul", { class: "game-list" }, games.map((g) => gameItem(g, { yourTurn: g.your_turn })))
        : h("p", { class: "muted" }, t("no_account_games")));
  }
  let seen = null;
  function show(msg) {
    const fresh = (msg.seeks || []).filter((s) => seen && !seen.has(s.id) && !mineSeek(s));
    if (fresh.length) live.textContent = fresh.map((s) => t("seek_new", { name: s.creator })).join(" ");
    seen = new Set((msg.seeks || []).map((s) => s.id));
    st.seeks = msg.seeks || [];
    st.online = msg.online || [];
    drawSeeks();
    drawOnline();
  }
  async function refresh() {
    try { show(await api("/api/lobby")); } catch (e) { /* the socket brings it */ }
  }

  // ---- the live socket ----
  let ws = null, closed = false, attempt = 0, ping = null, retry = null;
  function connect() {
    if (closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(`${proto}//${location.host}/ws/lobby`);
    ws = sock;
    sock.onopen = () => { attempt = 0; clearInterval(ping); ping = setInterval(() => sock.readyState === 1 && sock.send('{"type":"ping"}'), 25000); };
    sock.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.type === "lobby") show(msg);
      else if (msg.type === "started" && msg.game) navigate(`/game/${msg.game}`);
    };
    sock.onclose = () => {
      clearInterval(ping);
      if (closed || ws !== sock) return;
      attempt += 1;
      retry = setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(attempt, 5)));
    };
  }

  drawForm();
  drawSeeks();
  drawOnline();
  await refresh();
  drawGames();
  connect();
  return () => { closed = true; clearInterval(ping); clearTimeout(retry); if (ws) ws.close(); };
}
