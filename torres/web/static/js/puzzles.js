// Puzzles, /puzzles and /puzzles/<id> (docs/puzzles.md): find the best turn. The server keeps nothing: every request
// sends the actions of the turn so far, the engine plays them from the puzzle's position and answers with the seat's
// view (never another seat's cards) and its legal actions; once the turn has ended, with the verdict. Undo drops the
// last action here. Lit targets come from the server's legal actions (boardTargets), as on the game page.

import { h, clear, api, refillKeepingFocus } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { renderBoard, squaresIn, announce } from "./board.js";
import { boardTargets, boardSquare } from "./boardkit.js";
import * as P from "./panels.js";

const BUTTON_KINDS = ["stack", "buy", "score", "end"];
const SOLVED_KEY = "torres.puzzlesSolved";

function solvedSet() {
  try { const v = JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"); return new Set(Array.isArray(v) ? v : []); } catch (e) { return new Set(); }
}
function markSolved(id) {
  const s = solvedSet(); s.add(id);
  try { localStorage.setItem(SOLVED_KEY, JSON.stringify([...s])); } catch (e) { /* private mode: not remembered */ }
}
const points = (x) => (Math.round(x * 10) / 10).toLocaleString(undefined, { maximumFractionDigits: 1 });

export async function puzzlesPage(root, puzzleId, navigate) {
  const st = { list: null, puzzle: null, data: null, actions: [], sel: null, choice: null, busy: false, error: "",
    result: null, solution: null, closed: false };
  const heading = h("h1", { class: "replay-title", id: "puzzle-title" });
  const statusArea = h("div", { class: "status-area", id: "status-area" });
  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const controls = h("div", { class: "controls puzzle-controls", id: "puzzle-controls" });
  const side = h("aside", { class: "side", id: "side" });
  const feedback = h("div", { class: "puzzle-feedback", id: "puzzle-feedback", role: "status", "aria-live": "polite" });
  const errorBox = h("p", { class: "error", role: "alert", id: "puzzle-error" });
  clear(root).append(h("div", { class: "game-page puzzle-page", id: "puzzle-page" },
    statusArea, h("div", { class: "board-col" }, boardBox), controls, side));

  const seat = () => (st.puzzle ? st.puzzle.seat : 0);
  const names = () => Array.from({ length: st.puzzle ? st.puzzle.players : 4 }, (_, s) => t("pz_player", { n: s + 1 }));
  const legal = () => (st.data && !st.busy && !st.data.done && !st.solution ? st.data.view.legal : []);

  async function request(actions) {
    st.busy = true;
    st.error = "";
    render();
    try {
      const data = await api(`/api/puzzles/${encodeURIComponent(st.puzzle.id)}/step`, { json: { actions } });
      if (st.closed) return;
      st.data = data;
      st.actions = data.actions;
      if (data.done) {
        st.result = data.result;
        st.solution = data.result.solution;
        if (data.result.solved) markSolved(st.puzzle.id);
      }
    } catch (e) {
      st.error = t("error", { msg: e.message });
    } finally {
      st.busy = false;
    }
    render();
    if (st.result) {   // (the verdict is read out from its own live region)
      const again = document.getElementById("pz-next") || document.getElementById("pz-retry");
      if (again) again.focus({ preventScroll: true });
    }
  }

  function act(action) {
    if (st.busy || !legal().some((a) => a.action === action)) return;
    if (!(st.sel && st.sel.type === "mode")) st.sel = null;
    request(st.actions.concat([action]));
  }

  function undo() {
    if (st.busy || !st.actions.length || st.data.done) return;
    st.sel = null;
    st.choice = null;
    request(st.actions.slice(0, -1));
    announce(boardBox, t("pz_undone"));
  }

  function retry() {
    st.result = null;
    st.solution = null;
    st.sel = null;
    st.choice = null;
    request([]);
  }

  async function showSolution() {
    if (st.busy) return;
    st.busy = true;
    render();
    try {
      st.solution = await api(`/api/puzzles/${encodeURIComponent(st.puzzle.id)}/solution`, { method: "POST" });
    } catch (e) {
      st.error = t("error", { msg: e.message });
    }
    st.busy = false;
    if (st.closed) return;
    render();
    announce(boardBox, t("pz_solution_shown"));
  }

  async function open(id) {
    st.puzzle = null; st.data = null; st.result = null; st.solution = null; st.actions = []; st.sel = null; st.choice = null;
    st.error = "";
    render();
    try {
      const p = await api(`/api/puzzles/${encodeURIComponent(id)}`);
      if (st.closed) return;
      st.puzzle = p;
      st.data = { actions: [], done: false, view: p.view };
      history.replaceState(null, "", `/puzzles/${encodeURIComponent(p.id)}`);
    } catch (e) {
      st.error = t("error", { msg: e.message });
    }
    render();
  }

  function nextId() {
    const ids = st.list.puzzles.map((p) => p.id);
    const solved = solvedSet();
    const from = st.puzzle ? ids.indexOf(st.puzzle.id) : -1;
    for (let i = 1; i <= ids.length; i++) {
      const id = ids[(from + i) % ids.length];
      if (!solved.has(id)) return id;
    }
    return ids[(from + 1) % ids.length];
  }

  function onSquare(name) {
    boardSquare(name, { st, L: legal(), act, render, say: (text) => announce(boardBox, text) });
  }

  function render() {
    if (st.closed) return;
    document.title = t("pz_title") + " · Torres";
    heading.textContent = st.puzzle ? t("pz_heading", { id: st.puzzle.id }) : t("pz_title");
    errorBox.textContent = st.error;
    const page = document.getElementById("puzzle-page");
    if (!st.puzzle || !st.data) {
      clear(statusArea).append(heading, picker(), h("p", { class: "muted", role: "status" }, st.error ? "" : t("loading")), errorBox);
      clear(boardBox); clear(controls); clear(side);
      return;
    }
    const nm = names(), L = legal();
    if (st.choice && !(L.length && boardTargets(L, st.sel, true).targets.has(st.choice.square))) st.choice = null;
    const inter = boardTargets(L, st.sel, true);
    const shown = st.solution ? st.solution.view : st.data.view;
    const solutionSquares = st.solution ? [...new Set(st.solution.actions.flatMap((a) => squaresIn(a)))] : [];
    const lastAction = st.actions[st.actions.length - 1];
    renderBoard(boardBox, shown, {
      targets: inter.targets, selectable: inter.selectable, selected: inter.selected, hint: solutionSquares,
      last: !st.solution && lastAction ? squaresIn(lastAction) : [], names: nm, onSquare, interactive: L.length > 0,
      tools: inter.modes.map((m) => ({ id: "mode-" + m.kind, pressed: m.on, label: t("mode_" + m.kind) + (m.cost ? ` (${t("move_cost", { n: m.cost })})` : ""),
        onClick: () => { st.sel = st.sel && st.sel.type === "mode" && st.sel.kind === m.kind ? null : { type: "mode", kind: m.kind }; render(); } })),
    });
    if (page) Object.assign(page.dataset, { puzzle: st.puzzle.id, actions: String(st.actions.length), busy: st.busy ? "1" : "0" });
    const p = st.puzzle;
    clear(statusArea).append(heading, picker(),
      h("p", { class: "puzzle-task", id: "puzzle-task" }, t("pz_task", { margin: points(p.margin), within: points(p.solved_within) })),
      h("p", { class: "puzzle-facts muted", id: "puzzle-facts" }, [
        t("pz_theme_" + p.theme.replace(/-/g, "_")), t("pz_difficulty_" + p.difficulty), t("pz_players", { n: p.players }),
        t("round_phase", { phase: p.phase, round: p.round }), p.scoring ? t("pz_scoring_follows") : null].filter(Boolean).join(" · ")),
      P.statusPanel(shown, { names: nm, mySeat: seat() }), errorBox);
    refillKeepingFocus([[controls, controlParts(shown, nm, L)], [side, sideParts(shown, nm)]]);
  }

  function picker() {
    if (!st.list) return null;
    const solved = solvedSet();
    return h("div", { class: "puzzle-picker", id: "puzzle-picker" },
      h("label", { for: "pz-select" }, t("pz_choose"), " "),
      h("select", { id: "pz-select", onchange: (ev) => open(ev.target.value) },
        st.list.puzzles.map((q, i) => h("option", { value: q.id, selected: st.puzzle && st.puzzle.id === q.id },
          `${i + 1}. ${t("pz_theme_" + q.theme.replace(/-/g, "_"))} · ${t("pz_difficulty_" + q.difficulty)} · ${t("pz_players", { n: q.players })}${solved.has(q.id) ? " ✓" : ""}`))),
      h("button", { type: "button", class: "btn", id: "pz-next", onclick: () => open(nextId()) }, t("pz_next")));
  }

  function controlParts(view, nm, L) {
    const parts = [feedbackBox(nm)];
    if (st.choice) parts.push(P.squareChoice(st, nm, act, render));
    if (st.sel && st.sel.type === "card") parts.push(P.cardPlays(st, L, act, render));
    const keep = P.quickKeep(view, L, act);
    if (keep) parts.push(keep);
    const buttons = L.filter((a) => BUTTON_KINDS.includes(a.kind)).map((a) => {
      const label = a.kind === "stack" ? t("btn_stack", { n: a.action.split(" ")[1] }) : a.kind === "buy" ? t("btn_buy")
        : a.kind === "score" ? t("btn_score") : t("btn_end");
      return h("button", { type: "button", class: ["btn", a.kind === "end" ? "end" : "act"], "data-action": a.action, onclick: () => act(a.action) }, label);
    });
    const over = st.data.done || !!st.solution;
    parts.push(h("div", { class: "buttons", id: "action-buttons" }, buttons, h("span", { class: "spacer" }),
      over ? null : h("button", { type: "button", class: "btn ghost", id: "pz-undo", disabled: st.busy || !st.actions.length, onclick: undo }, "↶ ", t("btn_undo")),
      h("button", { type: "button", class: "btn ghost", id: "pz-retry", disabled: st.busy || (!st.actions.length && !st.solution), onclick: retry }, t("pz_retry")),
      st.solution ? null : h("button", { type: "button", class: "btn", id: "pz-show", disabled: st.busy, onclick: showSolution }, t("pz_show_solution"))));
    if (st.actions.length && !over) {
      parts.push(h("p", { class: "muted small", id: "pz-so-far" }, t("pz_so_far"), " ", P.planWords(st.actions, nm)));
    }
    return parts;
  }

  function feedbackBox(nm) {
    clear(feedback);
    const r = st.result;
    if (r) {
      feedback.append(h("p", { class: ["puzzle-verdict", r.solved ? "solved" : "missed"], id: "puzzle-verdict" },
        h("strong", {}, r.solved ? t("pz_solved") : t("pz_short", { n: points(r.short) })), " ",
        t("pz_your_value", { n: points(r.value) })));
    }
    if (st.solution) {
      const s = st.solution;
      feedback.append(h("section", { class: "puzzle-solution", id: "puzzle-solution", "aria-labelledby": "pz-solution-title" },
        h("h2", { class: "panel-title", id: "pz-solution-title" }, t("pz_solution")),
        h("p", {}, P.planWords(s.actions, nm), "."),
        h("p", { class: "small" }, s.actions.map((a, i) => [i ? " → " : "", h("code", { class: "chip" }, a)])),
        h("p", { class: "muted small" }, t("pz_solution_values", { value: points(s.value), other: points(s.runner_up) }), " ", t("pz_solution_board"))));
    }
    return feedback;
  }

  function sideParts(view, nm) {
    const parts = [];
    if (!st.data.done && !st.solution) {
      parts.push(P.handPanel(view, {
        onCard: (card) => { st.sel = st.sel && st.sel.type === "card" && st.sel.card === card ? null : { type: "card", card }; render(); },
        selectedCard: st.sel && st.sel.type === "card" ? st.sel.card : null,
      }));
    }
    parts.push(P.playersPanel(view, { names: nm, seats: null, mySeat: seat() }), P.masterPanel(view), P.supplyLine(view));
    parts.push(h("p", { class: "muted small", id: "puzzle-about" }, t("pz_about", { within: points(st.puzzle.solved_within) })));
    return parts;
  }

  const offLang = onLangChange(render);
  render();
  try {
    st.list = await api("/api/puzzles");
  } catch (e) {
    st.error = t("error", { msg: e.message });
    render();
    return () => { st.closed = true; offLang(); };
  }
  if (st.closed) return () => {};
  const known = puzzleId && st.list.puzzles.some((p) => p.id === puzzleId);
  if (st.list.puzzles.length) await open(known ? puzzleId : nextId());
  if (puzzleId && !known) st.error = t("pz_unknown", { id: puzzleId });
  render();
  return () => { st.closed = true; offLang(); };
}
