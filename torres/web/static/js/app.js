// The single page app: routing by location.pathname, the header (language switch), the home page
// (new game, my games, replay upload, rules link), joining by invite and the rules page.

import { h, clear, api } from "./dom.js";
import { t, getLang, setLang, onLangChange, editionName, levelName, speedName } from "./i18n.js";
import * as store from "./store.js";
import { gamePage } from "./game.js";
import { replayPage } from "./replay.js";
import { tutorialPage } from "./tutorial.js";
import { dot, gameItem } from "./panels.js";
import { session, me, onSession } from "./session.js";

const main = document.getElementById("app");
let cleanup = () => {};
let routeToken = 0;

export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

async function route() {
  const token = ++routeToken;
  openMenu(false);
  cleanup();
  cleanup = () => {};
  document.title = t("app_title");
  const path = location.pathname.replace(/\/+$/, "") || "/";
  markCurrentLink();
  // Each page draws into a box of its own: one still loading when the next is asked for draws into a box that has
  // left the document, and cannot cover the page the person went on to.
  const root = h("div", { class: "view" });
  main.replaceChildren(root);
  let m;
  let done;
  if (path === "/") done = homePage(root);
  else if ((m = path.match(/^\/game\/([\w-]+)$/))) done = gamePage(root, m[1]);
  else if ((m = path.match(/^\/join\/([\w-]+)\/([\w-]+)$/))) done = joinPage(root, m[1], m[2]);
  else if ((m = path.match(/^\/replay\/([\w-]+)$/))) done = replayPage(root, m[1]);
  else if (path === "/replay") done = replayPage(root, null);
  else if (path === "/rules") done = rulesPage(root);
  else if (path === "/tutorial") done = tutorialPage(root, null, navigate);
  else if ((m = path.match(/^\/tutorial\/([\w-]+)$/))) done = tutorialPage(root, m[1], navigate);
  else if (path === "/login") done = import("./account.js").then((a) => a.loginPage(root, navigate));
  else if (path === "/signup") done = import("./account.js").then((a) => a.signupPage(root, navigate));
  else if (path === "/account") done = import("./account.js").then((a) => a.accountPage(root, navigate));
  else if (path === "/lobby") done = import("./lobby.js").then((l) => l.lobbyPage(root, navigate));
  else if (path === "/leaderboard") done = import("./profile.js").then((p) => p.leaderboardPage(root, navigate));
  else if (path === "/board") done = import("./sandbox.js").then((b) => b.sandboxPage(root, navigate));
  else if (path === "/board/edit") done = import("./editor.js").then((e) => e.editorPage(root, navigate));
  else if (path === "/puzzles") done = import("./puzzles.js").then((p) => p.puzzlesPage(root, null, navigate));
  else if ((m = path.match(/^\/puzzles\/([\w-]+)$/))) done = import("./puzzles.js").then((p) => p.puzzlesPage(root, m[1], navigate));
  else if ((m = path.match(/^\/players\/([\w-]+)$/))) done = import("./profile.js").then((p) => p.profilePage(root, decodeURIComponent(m[1])));
  else done = notFound(root);
  const fn = await done;
  if (token !== routeToken) { if (typeof fn === "function") fn(); return; }
  cleanup = typeof fn === "function" ? fn : () => {};
  window.scrollTo(0, 0);
}

function notFound(root) {
  clear(root).append(h("div", { class: "page narrow" }, h("h1", { class: "page-title" }, t("not_found")), h("a", { href: "/", "data-link": "" }, t("back_home"))));
}

// ---- header ----
// Where the links do not fit on one line (a phone, a narrow window, a long name or the German labels), they fold
// into a menu behind a button: cut off, the last ones could not be reached at all.
function header() {
  const el = document.getElementById("header");
  const account = me()
    ? [h("a", { href: "/account", "data-link": "", id: "nav-account", title: t("account") }, me().username),
      h("button", { type: "button", class: "linkish", id: "nav-logout", onclick: () => import("./account.js").then((a) => a.logOut(navigate)) }, t("logout"))]
    : [h("a", { href: "/login", "data-link": "", id: "nav-login" }, t("login")), h("a", { href: "/signup", "data-link": "", id: "nav-signup" }, t("signup"))];
  const toggle = h("button", { type: "button", class: "nav-toggle", id: "nav-menu", "aria-expanded": "false", "aria-controls": "site-nav",
    onclick: () => openMenu(toggle.getAttribute("aria-expanded") !== "true") },
  h("span", { class: "nav-toggle-bars", "aria-hidden": "true" }), t("menu"));
  clear(el).append(
    h("a", { href: "/", "data-link": "", class: "brand", id: "brand" }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "♜"), " Torres"),
    toggle,
    h("nav", { id: "site-nav", "aria-label": t("nav_main") }, h("a", { href: "/", "data-link": "", id: "nav-home" }, t("nav_home")),
      h("a", { href: "/rules", "data-link": "", id: "nav-rules" }, t("nav_rules")),
      h("a", { href: "/lobby", "data-link": "", id: "nav-lobby" }, t("nav_lobby")),
      h("a", { href: "/leaderboard", "data-link": "", id: "nav-leaderboard" }, t("leaderboard")),
      h("a", { href: "/replay", "data-link": "", id: "nav-replay" }, t("nav_replay")),
      h("a", { href: "/board/edit", "data-link": "", id: "nav-board" }, t("nav_board")),
      h("a", { href: "/puzzles", "data-link": "", id: "nav-puzzles" }, t("nav_puzzles")),
      h("div", { class: "who-am-i" }, account)),
    h("div", { class: "lang", role: "group", "aria-label": t("lang") },
      ["en", "de"].map((l) => h("button", { type: "button", id: "lang-" + l, "data-testid": "lang-" + l, class: getLang() === l ? "on" : null,
        "aria-pressed": getLang() === l ? "true" : "false", onclick: () => setLang(l) }, l.toUpperCase()))));
  markCurrentLink();
  fitHeader();
}

/** Folds the links into the menu where they overflow their line, unfolds them where they fit. */
function fitHeader() {
  const el = document.getElementById("header");
  const nav = document.getElementById("site-nav");
  if (!nav) return;
  const wasCompact = el.classList.contains("compact");
  el.classList.remove("compact");  // measured on one line: no frame is painted in between
  const compact = nav.scrollWidth > nav.clientWidth;
  el.classList.toggle("compact", compact);
  if (wasCompact && !compact) openMenu(false);
}

/** The header's link to the page shown, or to the part of the site it is in (a puzzle: Puzzles), says so
 *  (aria-current), to the eye and to a screen reader. */
function markCurrentLink() {
  const path = location.pathname.replace(/\/+$/, "") || "/";
  for (const a of document.querySelectorAll("#site-nav a")) {
    const href = a.getAttribute("href");
    if (href === path || (href !== "/" && path.startsWith(href + "/"))) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function openMenu(open) {
  const el = document.getElementById("header");
  const toggle = document.getElementById("nav-menu");
  if (!toggle) return;
  el.classList.toggle("nav-open", open);
  toggle.setAttribute("aria-expanded", open ? "true" : "false");
}

let fitPending = false;
window.addEventListener("resize", () => {
  if (fitPending) return;
  fitPending = true;
  requestAnimationFrame(() => { fitPending = false; fitHeader(); });
});
if (document.fonts) document.fonts.ready.then(fitHeader);
// the menu closes as a link in it is followed, on Escape (the focus back on its button), and on a click elsewhere
document.addEventListener("keydown", (ev) => {
  const el = document.getElementById("header");
  if (ev.key !== "Escape" || !el.classList.contains("nav-open")) return;
  const inMenu = el.contains(document.activeElement);
  openMenu(false);
  if (inMenu) document.getElementById("nav-menu").focus();
});
document.addEventListener("pointerdown", (ev) => {
  const el = document.getElementById("header");
  if (el.classList.contains("nav-open") && !el.contains(ev.target)) openMenu(false);
});

// ---- home ----
async function homePage(root) {
  clear(root);
  const formBox = h("section", { class: "card-box new-game", id: "new-game-box" }, h("h2", {}, t("new_game")), h("p", { class: "loading" }, t("loading")));
  const gamesBox = h("section", { class: "card-box my-games", id: "my-games", "aria-labelledby": "my-games-title" },
    h("h2", { id: "my-games-title" }, t("my_games")), h("p", { class: "loading" }, t("loading")));
  root.append(h("div", { class: "page home" },
    h("h1", { class: "visually-hidden" }, t("home_heading")),
    h("p", { class: "intro" }, t("intro")),
    h("p", { class: "tut-invite" }, t("tut_home_text"), " ",
      h("a", { href: "/tutorial", "data-link": "", class: "btn primary", id: "tutorial-link" }, t("tut_home_link"))),
    h("div", { class: "home-grid" }, formBox, h("div", {}, gamesBox,
      h("section", { class: "card-box links" },
        h("p", {}, h("a", { href: "/rules", "data-link": "", id: "rules-link" }, t("rules_link"))),
        h("p", {}, h("a", { href: "/puzzles", "data-link": "", id: "puzzles-link" }, t("pz_home_link"))),
        h("p", {}, h("a", { href: "/replay", "data-link": "", id: "upload-link" }, t("upload_record"))))))));
  let meta;
  try { meta = await api("/api/meta"); } catch (e) {
    meta = { editions: ["riogrande", "ravensburger", "hebrew", "idw", "yucata"], levels: ["beginner", "casual", "strong", "expert", "master"],
      card_modes: ["own", "common"], speeds: ["slow", "normal", "fast", "instant"] };
  }
  newGameForm(formBox, meta);
  myGames(gamesBox);
  return onSession(() => myGames(gamesBox));      // logging in or out changes the list
}

function newGameForm(box, meta) {
  const saved = store.pref("newgame", {});
  const levels = meta.levels || ["beginner", "casual", "strong", "expert", "master"];
  const state = {
    players: saved.players || 2, edition: saved.edition || meta.editions[0], card_mode: saved.card_mode || "",
    master: !!saved.master, hotseat: !!saved.hotseat, bot_speed: saved.bot_speed || "normal",
    seats: saved.seats || [
      { kind: "human", level: "expert", name: "" }, { kind: "bot", level: "expert", name: "" },
      { kind: "bot", level: "strong", name: "" }, { kind: "bot", level: "casual", name: "" }],
  };
  const err = h("p", { class: "error", role: "alert", id: "new-game-error" });
  const seatsBox = h("div", { class: "seats", id: "seats" });
  const sel = (id, value, options, onchange, label) => h("select", { id, "aria-label": label || null, onchange: (ev) => onchange(ev.target.value) },
    options.map(([v, label]) => h("option", { value: v, selected: String(value) === String(v) }, label)));

  // redrawing the seats replaces their controls: the one just changed keeps the focus
  const focusSeat = (s) => { const el = document.getElementById(`seat-${s}-kind`); if (el) el.focus(); };
  function drawSeats() {
    clear(seatsBox);
    for (let s = 0; s < state.players; s++) {
      const seat = state.seats[s];
      seatsBox.append(h("div", { class: "seat-row", "data-seat": s },
        h("span", { class: "seat-label" }, dot(s), t("seat", { n: s + 1 })),
        sel(`seat-${s}-kind`, seat.kind, [["human", t("human")], ["bot", t("bot")]], (v) => { seat.kind = v; drawSeats(); focusSeat(s); }, t("seat_kind", { n: s + 1 })),
        seat.kind === "bot" ? sel(`seat-${s}-level`, seat.level, levels.map((l) => [l, levelName(l)]), (v) => { seat.level = v; }, t("seat_level", { n: s + 1 })) : h("span", { class: "level-gap" }),
        h("input", { id: `seat-${s}-name`, type: "text", maxlength: 24, value: seat.name, "aria-label": t("seat_name", { n: s + 1 }),
          placeholder: seat.kind === "bot" ? t("default_bot", { n: s + 1, level: levelName(seat.level) }) : t("default_human", { n: s + 1 }),
          oninput: (ev) => { seat.name = ev.target.value; } })));
    }
  }

  const form = h("form", { id: "new-game", "aria-labelledby": "new-game-title", onsubmit: async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const button = form.querySelector("#create-game");
    button.disabled = true;
    button.textContent = t("creating");
    const seats = state.seats.slice(0, state.players).map((s, i) => ({
      kind: s.kind, level: s.level || "expert",
      name: s.name.trim() || (s.kind === "bot" ? t("default_bot", { n: i + 1, level: levelName(s.level) }) : t("default_human", { n: i + 1 })),
    }));
    const body = { players: state.players, edition: state.edition, card_mode: state.card_mode || null, master: state.master,
      seats, hotseat: state.hotseat, bot_speed: state.bot_speed };
    store.setPref("newgame", state);
    try {
      const res = await api("/api/games", { json: body });
      store.saveGame(res.id, { tokens: res.tokens || {}, invites: res.invites || {}, hotseat: state.hotseat, creator: true });
      navigate(`/game/${res.id}`);
    } catch (e) {
      err.textContent = t("error", { msg: e.message });
      button.disabled = false;
      button.textContent = t("create");
    }
  } },
  h("div", { class: "form-grid" },
    h("label", {}, t("players"), sel("players", state.players, [[2, "2"], [3, "3"], [4, "4"]], (v) => { state.players = Number(v); drawSeats(); }, t("players"))),
    h("label", {}, t("edition"), sel("edition", state.edition, meta.editions.map((e) => [e, editionName(e)]), (v) => { state.edition = v; }, t("edition"))),
    h("label", {}, t("card_mode"), sel("card-mode", state.card_mode, [["", t("card_mode_default")], ...(meta.card_modes || ["own", "common"]).map((m) => [m, t("card_mode_" + m)])], (v) => { state.card_mode = v; }, t("card_mode"))),
    h("label", {}, t("bot_speed"), sel("bot-speed", state.bot_speed, (meta.speeds || ["slow", "normal", "fast", "instant"]).map((s) => [s, speedName(s)]), (v) => { state.bot_speed = v; }, t("bot_speed")))),
  h("label", { class: "check" }, h("input", { type: "checkbox", id: "master", checked: state.master, onchange: (ev) => { state.master = ev.target.checked; } }), t("master")),
  seatsBox,
  h("label", { class: "check" }, h("input", { type: "checkbox", id: "hotseat", checked: state.hotseat, onchange: (ev) => { state.hotseat = ev.target.checked; } }), t("hotseat")),
  h("button", { type: "submit", class: "btn primary big", id: "create-game", "data-testid": "create-game" }, t("create")), err);
  drawSeats();
  clear(box).append(h("h2", { id: "new-game-title" }, t("new_game")), form);
}

let gamesDraw = 0;

/** "My games": the games this browser holds seats of or has watched, and, when someone is logged in, their account's
 * games in progress (on a new device too; the game page opens an account's seat by its cookie). "Your turn" first. */
async function myGames(box) {
  const draw = ++gamesDraw;
  await session();
  const account = me();
  const ids = store.gameIds().slice(0, 100);
  const [local, accountGames] = await Promise.all([
    ids.length ? api(`/api/games?ids=${ids.map(encodeURIComponent).join(",")}`).then((r) => r.games || [], () => []) : [],
    account ? api("/api/account/games").then((r) => r.games || [], () => []) : [],
  ]);
  if (draw !== gamesDraw) return;
  const byId = new Map(local.map((g) => [g.id, g]));
  const ofAccount = new Map(accountGames.map((g) => [g.id, g]));
  const known = ids.map((id) => byId.get(id)).filter(Boolean);
  const all = [...known, ...accountGames.filter((g) => !byId.has(g.id))];
  const yourTurn = (g) => {
    if (g.status === "finished") return false;
    if (ofAccount.has(g.id) && ofAccount.get(g.id).your_turn) return true;
    const seat = g.seats && g.seats[g.current];
    return store.localSeats(g.id).includes(g.current) && !!seat && seat.kind === "human";
  };
  const playing = all.filter((g) => g.status !== "finished").sort((a, b) => Number(yourTurn(b)) - Number(yourTurn(a)));
  const finished = all.filter((g) => g.status === "finished");
  // the account's games come back by themselves: only what this browser alone remembers can be forgotten
  const item = (g) => gameItem(g, { yourTurn: yourTurn(g),
    onForget: byId.has(g.id) && !ofAccount.has(g.id) ? () => { store.forget(g.id); myGames(box); } : null });
  // (the DOM's own append() takes no arrays and would write "null": the parts, flattened, without the empty ones)
  box.replaceChildren(...[h("h2", { id: "my-games-title" }, t("my_games")),
    playing.length ? [h("h3", {}, t("in_progress")), h("ul", { class: "game-list", id: "games-playing" }, playing.map(item))] : null,
    finished.length ? [h("h3", {}, t("finished")), h("ul", { class: "game-list", id: "games-finished" }, finished.map(item))] : null,
    !all.length ? h("p", { class: "muted" }, t(account ? "no_games_account" : "no_games")) : null].flat().filter(Boolean));
}

// ---- join by invite ----
async function joinPage(root, gameId, invite) {
  clear(root).append(h("p", { class: "loading" }, t("joining")));
  try {
    const res = await api(`/api/games/${encodeURIComponent(gameId)}/join`, { json: { invite } });
    store.setToken(gameId, res.seat, res.token);
    navigate(`/game/${gameId}`, true);
  } catch (e) {
    if (store.localSeats(gameId).length) { navigate(`/game/${gameId}`, true); return; }
    clear(root).append(h("div", { class: "page narrow" }, h("h1", { class: "page-title" }, t("join_failed", { msg: e.message })),
      h("p", {}, h("a", { href: `/game/${gameId}`, "data-link": "" }, t("open"))), h("p", {}, h("a", { href: "/", "data-link": "" }, t("back_home")))));
  }
}

// ---- rules ----
async function rulesPage(root) {
  const box = h("article", { class: "card-box rules", id: "rules" }, h("p", { class: "loading" }, t("loading")));
  clear(root).append(h("div", { class: "page narrow" }, box));
  const load = async () => {
    try {
      const res = await api(`/api/rules/${getLang()}`);
      box.innerHTML = res.html;
      box.setAttribute("lang", getLang());
    } catch (e) { clear(box).append(h("p", { class: "error" }, t("error", { msg: e.message }))); }
  };
  await load();
  const off = onLangChange(load);
  return off;
}

// ---- start ----
document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-link]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);
onLangChange(() => {
  header();
  const path = location.pathname;
  // the game and replay pages redraw themselves
  if (/^\/(replay|login|signup|account|lobby|leaderboard|players\/[\w-]+)?$/.test(path.replace(/\/+$/, "") || "/")) route();
});
document.documentElement.lang = getLang();
onSession(header);
header();
session();
route();
