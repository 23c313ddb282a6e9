// The analysis of a finished game on its replay page (docs/analysis.md): "Analyse" starts it on the server, a
// progress bar follows it, then each player's chance to win over the game (an SVG graph with a table beside it),
// the biggest mistakes per player (one click shows the position with the played and the better turn on the board)
// and a summary per player. The server judges; this page only draws what it says.

import { h, svg, clear, api, PLAYER_COLOURS } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { squaresIn } from "./board.js";
import { planWords } from "./panels.js";

const LEVEL = "master";
const POLL_MS = 1000;
const DASHES = ["", "7 4", "2 3", "10 3 2 3"]; // colour is never the only sign of a player

/**
 * The analysis panel of game `gameId`. `ctx`: names (per seat), show(turn) puts a turn's position on the board
 * with its marks (see boardMarks). Returns {el, close}; the panel asks the server what it has on the game first.
 */
export function analysisPanel(gameId, ctx) {
  const base = `/api/games/${encodeURIComponent(gameId)}/analysis?level=${LEVEL}`;
  const el = h("section", { class: "analysis", id: "analysis", "aria-labelledby": "analysis-title" });
  let timer = null, closed = false, state = null, chosen = null;

  function schedule() { if (!closed) timer = setTimeout(poll, POLL_MS); }
  async function poll() {
    try { show(await api(base)); } catch (e) { failed(e.message); }
  }
  async function start() {
    draw({ status: "running", done: 0, total: 0 });
    try { show(await api(base, { method: "POST" })); } catch (e) { failed(e.message); }
  }
  function show(data) {
    state = data;
    draw(data);
    if (data.status === "running") schedule();
  }
  function failed(msg) { state = { status: "failed", error: msg }; draw(state); }

  function draw(data) {
    const head = h("h2", { id: "analysis-title" }, t("analysis_title"));
    clear(el).append(head);
    if (data && data.status === "loading") {
      el.append(h("p", { class: "muted" }, t("loading")));
    } else if (!data || data.status === "none") {
      el.append(h("p", { class: "muted" }, t("analysis_intro")),
        h("button", { type: "button", class: "btn primary", id: "analyse", onclick: start }, t("analyse")));
    } else if (data.status === "running") {
      const pct = data.total ? Math.round((100 * data.done) / data.total) : 0;
      el.append(h("div", { class: "progress", role: "progressbar", "aria-label": t("analysis_progress"),
        "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(pct),
        "aria-valuetext": t("analysis_running", { done: data.done, total: data.total || "…" }) },
      h("div", { class: "progress-bar", style: `width:${pct}%` })),
      h("p", { class: "muted", "aria-hidden": "true" }, t("analysis_running", { done: data.done, total: data.total || "…" })));
    } else if (data.status === "failed") {
      el.append(h("p", { class: "error", role: "alert" }, t("analysis_failed", { msg: data.error || "" })),
        h("button", { type: "button", class: "btn", id: "analyse", onclick: start }, t("analyse_again")));
    } else {
      el.append(...results(data.analysis));
    }
  }

  function results(a) {
    const names = ctx.names;
    const byTurn = new Map(a.turns.map((x) => [x.turn, x]));
    const mistakes = h("div", { class: "mistakes" }, h("h3", {}, t("mistakes_title")),
      a.players.map((p) => h("div", { class: "mistake-group" }, h("h4", {}, names[p.seat]),
        p.worst.length ? h("ul", {}, p.worst.map((k) => {
          const x = byTurn.get(k);
          return h("li", {}, h("button", { type: "button", class: ["btn", "small", "mistake", chosen === k ? "on" : null],
            "aria-pressed": chosen === k ? "true" : "false", onclick: () => pick(x) },
          t("mistake", { turn: k + 1, loss: fmt(x.loss) })));
        })) : h("p", { class: "muted" }, t("no_mistakes")))));
    const parts = [graph(a, names), mistakes];
    if (chosen !== null && byTurn.has(chosen)) parts.push(detail(byTurn.get(chosen), names));
    parts.push(summary(a, names));
    return parts;
  }

  function pick(turn) {
    chosen = turn.turn;
    ctx.show(turn);
    draw(state);
    const d = document.getElementById("mistake-detail");
    if (d) d.focus({ preventScroll: false });
  }

  const offLang = onLangChange(() => draw(state));
  state = { status: "loading" };
  draw(state);
  api(base).then(show).catch(() => { state = null; draw(null); });
  return { el, close() { closed = true; offLang(); if (timer) clearTimeout(timer); } };
}

function fmt(x) { return (Math.round(x * 10) / 10).toLocaleString(document.documentElement.lang || "en"); }
function pct(p) { return Math.round(100 * p) + " %"; }

/** Each seat's chance to win after every turn, with a title, a description and the same numbers as a table. */
function graph(a, names) {
  const n = names.length, turns = a.turns, W = 360, H = 150, L = 30, R = 8, T = 8, B = 20;
  const x = (i) => L + ((W - L - R) * i) / Math.max(1, turns.length);
  const y = (p) => T + (H - T - B) * (1 - p);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "winchance", role: "img", "aria-labelledby": "wc-title wc-desc" },
    svg("title", { id: "wc-title" }, t("winchance_title")),
    svg("desc", { id: "wc-desc" }, t("winchance_desc", { ends: names.map((name, s) => `${name} ${pct(turns.length ? turns[turns.length - 1].win_chance[s] : 1 / n)}`).join(", ") })));
  const art = svg("g", { "aria-hidden": "true" });
  for (const p of [0, 0.5, 1]) {
    art.append(svg("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "grid" }),
      svg("text", { x: L - 4, y: y(p) + 4, "text-anchor": "end", class: "axis" }, Math.round(p * 100) + "%"));
  }
  art.append(svg("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, t("wc_turns")));
  for (let s = 0; s < n; s++) {
    const pts = [[x(0), y(1 / n)]].concat(turns.map((tr, i) => [x(i + 1), y(tr.win_chance[s])]));
    art.append(svg("polyline", { points: pts.map((q) => q.join(",")).join(" "), class: "wc-line", stroke: PLAYER_COLOURS[s],
      "stroke-dasharray": DASHES[s] || null, "data-seat": s }));
  }
  for (const p of a.players) {
    for (const k of p.worst) {
      const tr = turns.find((q) => q.turn === k);
      const i = turns.indexOf(tr);
      art.append(svg("circle", { cx: x(i + 1), cy: y(tr.win_chance[p.seat]), r: 4, class: "wc-mistake", fill: PLAYER_COLOURS[p.seat] }));
    }
  }
  root.append(art);
  const legend = h("ul", { class: "wc-legend", "aria-hidden": "true" }, names.map((name, s) => h("li", {},
    svg("svg", { viewBox: "0 0 24 8", width: 24, height: 8 }, svg("line", { x1: 0, x2: 24, y1: 4, y2: 4, stroke: PLAYER_COLOURS[s], "stroke-width": 3, "stroke-dasharray": DASHES[s] || null })),
    " ", name)));
  const table = h("details", { class: "wc-table" }, h("summary", {}, t("winchance_table")),
    h("table", {}, h("caption", {}, t("winchance_title")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("wc_turn")), h("th", { scope: "col" }, t("wc_played_by")),
        names.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, turns.map((tr) => h("tr", {}, h("th", { scope: "row" }, String(tr.turn + 1)), h("td", {}, names[tr.seat]),
        tr.win_chance.map((p) => h("td", {}, pct(p))))))));
  return h("figure", { class: "wc-figure" }, root, legend, table);
}

/** The chosen mistake in words: what was played, what was better, the points lost. */
function detail(turn, names) {
  return h("div", { class: "mistake-detail", id: "mistake-detail", tabindex: "-1", role: "region", "aria-label": t("mistake_of", { turn: turn.turn + 1, name: names[turn.seat] }) },
    h("p", {}, h("strong", {}, t("mistake_of", { turn: turn.turn + 1, name: names[turn.seat] })), " ",
      t("points_lost", { loss: fmt(turn.loss) })),
    h("p", { class: "played-turn" }, h("span", { class: "swatch played", "aria-hidden": "true" }), h("strong", {}, t("played_turn")), " ", planWords(turn.played, names)),
    h("p", { class: "better-turn" }, h("span", { class: "swatch better", "aria-hidden": "true" }), h("strong", {}, t("better_turn")), " ", planWords(turn.best, names)));
}

function summary(a, names) {
  return h("div", { class: "analysis-summary" }, h("h3", {}, t("summary_title")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("wc_player")), h("th", { scope: "col" }, t("mean_loss")),
      h("th", { scope: "col" }, t("best_turns")))),
    h("tbody", {}, a.players.map((p) => h("tr", {}, h("th", { scope: "row" }, names[p.seat]), h("td", {}, fmt(p.mean_loss)),
      h("td", {}, `${p.best_turns} / ${p.turns}`))))));
}

/** The board's marks for a judged turn: the squares the played turn touched (outlined) and the better turn drawn
 *  as lit targets with what it would put there. */
export function boardMarks(turn) {
  const targets = new Map();
  for (const action of turn.best) {
    const words = String(action).trim().split(/\s+/);
    const squares = squaresIn(action);
    if (!squares.length) continue;
    const kind = words[0] === "play" ? words[1] : /^[a-h][1-8]-/.test(words[0]) ? "move" : words[0];
    const sq = squares[squares.length - 1];
    if (!targets.has(sq)) targets.set(sq, []);
    targets.get(sq).push({ kind, action, cost: 0, card: words[0] === "play" ? words[1] : undefined });
  }
  return { last: turn.played.flatMap((a) => squaresIn(a)), targets };
}
