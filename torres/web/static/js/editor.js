// The position editor, /board/edit[?position=...] (docs/analysis-board.md): heights, castles, knights, the king,
// scores, hands, phase and round, set on a board and a form. Every change is built and checked by the engine's
// builder on the server (POST /api/sandbox/position); an impossible position shows the engine's reason beside the
// form. A possible one opens on the analysis board: to ask the master, or to play it out against a bot.

import { h, clear, api, squareName } from "./dom.js";
import { t, onLangChange, cardName, editionName, levelName } from "./i18n.js";
import { renderBoard, announce } from "./board.js";
import { boardUrl } from "./sandbox.js";
import { dot } from "./panels.js";

const CARDS = ["climb", "lift", "build", "gate", "diagonal", "six", "seven", "shift", "redeploy", "vault"];
const LEVELS = ["beginner", "casual", "strong", "expert", "master"];
const SAMPLE = { players: 2, edition: "riogrande", heights: { c3: 1, c4: 1, d5: 2, e5: 1, f6: 1 }, knights: [["c3"], ["d5"]],
  king: "f6", phase: 1, round: 1, current: 0, start: 0, scores: [0, 0], hands: [[], []] };

export async function editorPage(root, navigate) {
  const params = new URLSearchParams(location.search);
  let f = JSON.parse(JSON.stringify(SAMPLE));   // the form's fields, as the builder takes them
  let tool = "raise", data = null, reason = "", editions = ["riogrande"], building = 0, closed = false, playLevel = "expert";
  try { editions = (await api("/api/meta")).editions || editions; } catch (e) { /* the default edition stays */ }
  if (params.get("position")) {
    try { f = fieldsOf(await api("/api/sandbox", { json: { position: params.get("position"), actions: [] } })); } catch (e) { reason = e.message; }
  }

  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const formBox = h("div", { class: "editor-form", id: "editor-form" });
  const reasonBox = h("p", { class: "error", role: "alert", id: "editor-reason" });
  clear(root).append(h("div", { class: "editor-page", id: "editor-page" },
    h("h1", { class: "page-title", id: "editor-title" }), h("div", { class: "editor-grid" }, h("div", { class: "board-col" }, boardBox), formBox)));

  async function rebuild() {
    const mine = ++building;
    try {
      const answer = await api("/api/sandbox/position", { json: f });
      if (mine !== building || closed) return;
      data = answer;
      reason = "";
      history.replaceState(null, "", "/board/edit?" + new URLSearchParams({ position: answer.position }).toString());
    } catch (e) {
      if (mine !== building || closed) return;
      data = null;
      reason = e.message;
    }
    render();
  }

  function resize(players) {
    const fit = (list, empty) => Array.from({ length: players }, (_, s) => (list[s] !== undefined ? list[s] : empty()));
    f.players = players;
    f.knights = fit(f.knights, () => []);
    f.scores = fit(f.scores, () => 0);
    f.hands = fit(f.hands, () => []);
    if (f.current >= players) f.current = 0;
    if (f.start >= players) f.start = 0;
  }

  function onSquare(name) {
    const removePiece = () => {
      f.knights = f.knights.map((list) => list.filter((sq) => sq !== name));
      if (f.king === name) f.king = null;
    };
    const height = f.heights[name] || 0;
    if (tool === "raise") f.heights[name] = height + 1;
    else if (tool === "lower") { if (height > 1) f.heights[name] = height - 1; else delete f.heights[name]; }
    else if (tool === "clear") removePiece();
    else if (tool === "king") { removePiece(); f.king = name; }
    else if (tool.startsWith("knight-")) { removePiece(); f.knights[Number(tool.slice(7))].push(name); }
    announce(boardBox, t("ed_changed", { sq: name }));
    rebuild();
  }

  function localView() {   // the board as the form has it, while the builder refuses it
    const heights = Array.from({ length: 64 }, (_, sq) => f.heights[squareName(sq)] || 0);
    return { heights, castles: heights.map((v, sq) => (v > 0 ? sq : -1)), knights: f.knights, king: f.king, players: f.players };
  }

  const num = (id, label, value, min, max, set) => h("label", { class: "ed-field" }, label,
    h("input", { type: "number", id, min, max, value, onchange: (ev) => { const v = Math.round(Number(ev.target.value)); if (Number.isFinite(v)) { set(v); rebuild(); } } }));
  const choice = (id, label, value, options, set) => h("label", { class: "ed-field" }, label,
    h("select", { id, onchange: (ev) => { set(ev.target.value); rebuild(); } },
      options.map(([v, text]) => h("option", { value: v, selected: String(v) === String(value) }, text))));
  const seatOptions = () => Array.from({ length: f.players }, (_, s) => [s, t("default_human", { n: s + 1 })]);

  function render() {
    if (closed) return;
    document.title = t("ed_title") + " · Torres";
    document.getElementById("editor-title").textContent = t("ed_title");
    renderBoard(boardBox, data ? data.view : localView(), { onSquare, interactive: true, names: seatOptions().map(([, n]) => n) });
    const active = document.activeElement;
    const focusId = active && active.id && formBox.contains(active) ? active.id : null;
    reasonBox.textContent = reason ? t("ed_impossible", { reason }) : "";
    const tools = [["raise", t("ed_raise")], ["lower", t("ed_lower")],
      ...Array.from({ length: f.players }, (_, s) => [`knight-${s}`, t("ed_knight", { n: s + 1 })]), ["king", t("ed_king")], ["clear", t("ed_clear")]];
    clear(formBox).append(
      h("p", { class: "muted" }, t("ed_intro")),
      reasonBox,
      h("fieldset", { class: "ed-tools", id: "ed-tools" }, h("legend", {}, t("ed_tool")),
        tools.map(([v, text]) => h("label", { class: "radio" }, h("input", { type: "radio", name: "ed-tool", id: "ed-tool-" + v, value: v, checked: tool === v,
          onchange: () => { tool = v; } }), " ", v.startsWith("knight-") ? dot(Number(v.slice(7))) : null, text))),
      h("fieldset", { class: "ed-game" }, h("legend", {}, t("ed_game")),
        h("div", { class: "form-grid" },
          choice("ed-players", t("players"), f.players, [[2, "2"], [3, "3"], [4, "4"]], (v) => resize(Number(v))),
          choice("ed-edition", t("edition"), f.edition.split(":")[0], editions.map((e) => [e, editionName(e)]), (v) => { f.edition = v; }),
          num("ed-phase", t("ed_phase"), f.phase, 1, 3, (v) => { f.phase = v; }),
          num("ed-round", t("ed_round"), f.round, 1, 20, (v) => { f.round = v; }),
          choice("ed-current", t("ed_current"), f.current, seatOptions(), (v) => { f.current = Number(v); }),
          choice("ed-start", t("ed_start"), f.start, seatOptions(), (v) => { f.start = Number(v); }))),
      h("fieldset", { class: "ed-seats" }, h("legend", {}, t("ed_scores_hands")),
        Array.from({ length: f.players }, (_, s) => h("div", { class: "ed-seat" },
          h("h3", {}, dot(s), t("default_human", { n: s + 1 })),
          num(`ed-score-${s}`, t("ed_score", { n: s + 1 }), f.scores[s], 0, 999, (v) => { f.scores[s] = v; }),
          h("details", { class: "ed-hand" }, h("summary", {}, t("ed_hand", { n: s + 1, count: f.hands[s].length })),
            h("div", { class: "ed-cards" }, CARDS.map((c) => num(`ed-hand-${s}-${c}`, t("ed_card_count", { card: cardName(c), n: s + 1 }),
              f.hands[s].filter((x) => x === c).length, 0, 9, (v) => { f.hands[s] = f.hands[s].filter((x) => x !== c).concat(Array(Math.max(0, v)).fill(c)); }))))))),
      h("div", { class: "buttons ed-go" },
        h("button", { type: "button", class: "btn", id: "ed-ask", disabled: !data, onclick: () => navigate(boardUrl(data.position, { ask: "1" })) }, "? ", t("sb_ask")),
        h("label", { class: "ed-field inline" }, t("ed_against"), " ", h("select", { id: "ed-level", onchange: (ev) => { playLevel = ev.target.value; } },
          LEVELS.map((l) => h("option", { value: l, selected: l === playLevel }, levelName(l))))),
        h("button", { type: "button", class: "btn primary", id: "ed-play", disabled: !data, onclick: () => navigate(boardUrl(data.position, { play: playLevel })) }, t("ed_play")),
        h("button", { type: "button", class: "btn ghost", id: "ed-open", disabled: !data, onclick: () => navigate(boardUrl(data.position)) }, t("ed_open"))));
    const again = focusId && document.getElementById(focusId);
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }

  const offLang = onLangChange(render);
  render();
  if (!reason) await rebuild();
  return () => { closed = true; offLang(); };
}

/** The form's fields from a sandbox answer (the builder's inputs: what the board and the view hold). */
function fieldsOf(data) {
  const v = data.view, heights = {};
  v.heights.forEach((level, sq) => { if (level > 0) heights[squareName(sq)] = level; });
  return {
    players: v.players, edition: v.rules, heights, knights: v.knights.map((list) => list.slice()), king: v.king,
    phase: v.phase, round: v.round, current: v.current, start: v.start, scores: v.scores.slice(),
    hands: v.hands.map((hand) => Object.entries(hand).flatMap(([c, n]) => Array(n).fill(c))),
  };
}
