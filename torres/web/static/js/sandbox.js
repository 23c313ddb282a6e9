// The analysis board, /board?position=<a full position string> (docs/analysis-board.md): try turns from any
// position, undo at will, ask the master, and play the position out against bots. The server is stateless: every
// request sends the position and the actions tried since, and the engine replays and checks them; undo drops the
// last action here. Lit targets come from the server's legal actions (boardTargets), never from a rule of our own.
// A sandbox position is public (a finished game's moment or a built one), so every seat's cards show.

import { h, clear, api, refillKeepingFocus } from "./dom.js";
import { t, onLangChange, levelName } from "./i18n.js";
import { renderBoard, squaresIn, announce } from "./board.js";
import { boardTargets, boardSquare } from "./boardkit.js";
import * as P from "./panels.js";

const LEVELS = ["beginner", "casual", "strong", "expert", "master"];
const BUTTON_KINDS = ["stack", "buy", "score", "end", "king_stay", "first"];
/** Past this many actions the board starts again from the position reached (the server takes at most 500). */
const REBASE_AT = 400;

export function boardUrl(position, extra = {}) {
  const q = new URLSearchParams({ position, ...extra });
  return "/board?" + q.toString();
}

export async function sandboxPage(root, navigate) {
  const params = new URLSearchParams(location.search);
  const position = params.get("position");
  if (!position) { navigate("/board/edit", true); return () => {}; }
  const st = {
    base: position, actions: [], actors: [], earlier: [], data: null, sel: null, bots: {}, hint: null,
    hintWaiting: false, error: "", busy: false, closed: false,
  };
  const playLevel = LEVELS.includes(params.get("play")) ? params.get("play") : null;

  const heading = h("h1", { class: "replay-title", id: "board-title" });
  const statusArea = h("div", { class: "status-area", id: "status-area" });
  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const controls = h("div", { class: "controls sandbox-controls", id: "sandbox-controls" });
  const side = h("aside", { class: "side", id: "side" });
  const errorBox = h("p", { class: "error", role: "alert", id: "sandbox-error" });
  const busyLine = h("p", { class: "muted", role: "status", id: "sandbox-busy" });
  clear(root).append(h("div", { class: "game-page sandbox-page", id: "sandbox-page" },
    statusArea, h("div", { class: "board-col" }, boardBox), controls, side));

  const names = () => Array.from({ length: st.data ? st.data.view.players : 4 }, (_, s) =>
    st.bots[s] ? t("default_bot", { n: s + 1, level: levelName(st.bots[s]) }) : t("default_human", { n: s + 1 }));
  const legal = () => (st.data && !st.busy && !st.bots[st.data.current] ? st.data.legal : []);
  const botList = () => Object.entries(st.bots).filter(([, l]) => l).map(([s, level]) => ({ seat: Number(s), level }));

  async function request(actions) {
    st.busy = true;
    st.error = "";
    render();
    try {
      const data = await api("/api/sandbox", { json: { position: st.base, actions, bots: botList() } });
      if (st.closed) return;
      st.data = data;
      st.actions = data.actions;
      st.actors = data.actors;
      if (st.actions.length > REBASE_AT) {   // start again from here; undo still walks back through the earlier part
        st.earlier.push({ base: st.base, actions: st.actions, actors: st.actors });
        st.base = data.position;
        st.actions = [];
        st.actors = [];
      }
      history.replaceState(null, "", boardUrl(data.position));
    } catch (e) {
      st.error = t("error", { msg: e.message });
    } finally {
      st.busy = false;
    }
    render();
  }

  function act(action) {
    if (st.busy || !legal().some((a) => a.action === action)) return;
    if (!(st.sel && st.sel.type === "mode")) st.sel = null;
    st.hint = null;
    request(st.actions.concat([action]));
  }

  /** Back to before the last action of a person: the bots' replies to it go too. */
  function undo() {
    if (st.busy) return;
    let { actions, actors } = st;
    if (!actions.length && st.earlier.length) ({ base: st.base, actions, actors } = st.earlier.pop());
    actions = actions.slice();
    actors = actors.slice();
    while (actions.length && st.bots[actors[actors.length - 1]]) { actions.pop(); actors.pop(); }
    if (!actions.length) return;
    actions.pop();
    st.sel = null;
    st.hint = null;
    request(actions);
    announce(boardBox, t("sb_undone"));
  }
  const canUndo = () => !st.busy && (st.earlier.length > 0 || st.actors.some((s) => !st.bots[s]));

  async function askMaster() {
    if (st.busy || !st.data || st.data.over) return;
    st.hintWaiting = true;
    st.hint = null;
    st.error = "";
    render();
    try {
      st.hint = await api("/api/sandbox/hint", { json: { position: st.base, actions: st.actions } });
    } catch (e) {
      st.error = t("error", { msg: e.message });
    }
    st.hintWaiting = false;
    if (!st.closed) render();
  }

  function setBot(seat, level) {
    if (level) st.bots[seat] = level; else delete st.bots[seat];
    st.hint = null;
    // a bot now to act plays at once
    if (st.data && !st.data.over && st.bots[st.data.current]) request(st.actions);
    else render();
  }

  function onSquare(name) {
    boardSquare(name, { st, L: legal(), act, render, say: (text) => announce(boardBox, text) });
  }

  function render() {
    if (st.closed) return;
    const nm = names();
    heading.textContent = t("sb_title");
    document.title = t("sb_title") + " · Torres";
    if (!st.data) {
      clear(statusArea).append(heading, busyLine, errorBox);
      busyLine.textContent = st.busy ? t("loading") : "";
      errorBox.textContent = st.error;
      return;
    }
    const data = st.data, view = data.view, L = legal();
    if (st.choice && !(L.length && boardTargets(L, st.sel, true).targets.has(st.choice.square))) st.choice = null;
    const inter = boardTargets(L, st.sel, true);
    const hintSquares = st.hint ? [...new Set(st.hint.actions.flatMap((a) => squaresIn(a)))] : [];
    const lastAction = st.actions[st.actions.length - 1];
    renderBoard(boardBox, view, {
      targets: inter.targets, selectable: inter.selectable, selected: inter.selected, hint: hintSquares,
      last: lastAction ? squaresIn(lastAction) : [], names: nm, onSquare, interactive: L.length > 0,
      tools: inter.modes.map((m) => ({ id: "mode-" + m.kind, pressed: m.on, label: t("mode_" + m.kind) + (m.cost ? ` (${t("move_cost", { n: m.cost })})` : ""),
        onClick: () => { st.sel = st.sel && st.sel.type === "mode" && st.sel.kind === m.kind ? null : { type: "mode", kind: m.kind }; render(); } })),
    });
    const page = document.getElementById("sandbox-page");
    if (page) Object.assign(page.dataset, { actions: String(st.actions.length), current: String(data.current), busy: st.busy ? "1" : "0" });
    busyLine.textContent = st.busy ? (st.bots[data.current] ? t("sb_bot_thinking") : t("sb_checking")) : "";
    errorBox.textContent = st.error;
    clear(statusArea).append(heading, P.statusPanel(view, { names: nm, mySeat: data.over ? null : data.current }), busyLine, errorBox);

    refillKeepingFocus([[controls, controlParts(view, nm, L)], [side, sideParts(view, nm)]]);
  }

  function controlParts(view, nm, L) {
    const parts = [];
    if (st.hint || st.hintWaiting) {
      const acts = st.hint ? st.hint.actions : [];
      parts.push(h("section", { class: "hint-box", id: "hint-box", "aria-labelledby": "hint-title", "aria-live": "polite" },
        h("b", { id: "hint-title" }, t("sb_master_says", { name: nm[st.hint ? st.hint.seat : st.data.current] })), ": ",
        st.hintWaiting ? t("hint_wait") : !acts.length ? st.hint.text : [
          h("span", { class: "hint-words", id: "hint-words" }, P.planWords(acts, nm), "."),
          h("small", { class: "hint-notation" }, " ", acts.map((a, i) => [i ? " → " : "", h("code", { class: "chip" }, a)])),
          h("small", { class: "hint-squares muted" }, " ", t("hint_squares"))]));
    }
    if (st.choice) parts.push(P.squareChoice(st, nm, act, render));
    if (st.sel && st.sel.type === "card") parts.push(P.cardPlays(st, L, act, render));
    const keep = P.quickKeep(view, L, act, t("sb_keep_note"));
    if (keep) parts.push(keep);
    const buttons = L.filter((a) => BUTTON_KINDS.includes(a.kind)).map((a) => {
      const label = a.kind === "stack" ? t("btn_stack", { n: a.action.split(" ")[1] }) : a.kind === "buy" ? t("btn_buy")
        : a.kind === "score" ? t("btn_score") : a.kind === "end" ? t("btn_end") : a.kind === "king_stay" ? t("btn_king_stay")
          : t("btn_first", { name: nm[Number(a.action.split(" ")[1])] });
      return h("button", { type: "button", class: ["btn", a.kind === "end" ? "end" : "act"], "data-action": a.action, onclick: () => act(a.action) }, label);
    });
    parts.push(h("div", { class: "buttons", id: "action-buttons" }, buttons, h("span", { class: "spacer" }),
      h("button", { type: "button", class: "btn ghost", id: "sb-undo", disabled: !canUndo(), onclick: undo }, "↶ ", t("btn_undo")),
      h("button", { type: "button", class: "btn", id: "sb-ask", disabled: st.busy || st.hintWaiting || st.data.over, onclick: askMaster }, "? ", t("sb_ask"))));
    if (!st.data.over) {
      const input = h("input", { id: "sb-notation", type: "text", list: "sb-legal-list", autocomplete: "off", spellcheck: "false",
        placeholder: t("notation_placeholder"), "aria-label": t("notation_placeholder"), disabled: !L.length });
      parts.push(h("form", { class: "notation", id: "sb-notation-form", onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value.trim().replace(/\s+/g, " ").toLowerCase();
        if (!text || st.busy) return;
        st.hint = null;
        st.sel = null;
        request(st.actions.concat([text]));   // the server says why, if it is not legal
      } }, input, h("datalist", { id: "sb-legal-list" }, L.map((a) => h("option", { value: a.action }))),
      h("button", { type: "submit", class: "btn", id: "sb-send", disabled: !L.length }, t("btn_send"))));
    }
    return parts;
  }

  function sideParts(view, nm) {
    const data = st.data, parts = [];
    parts.push(h("p", { class: "sandbox-note muted", id: "sandbox-note" }, t("sb_note")));
    if (data.over) parts.push(h("section", { class: "over-box" }, P.rankingTable(view.scores, nm)));
    parts.push(h("fieldset", { class: "sb-seats", id: "sb-seats" }, h("legend", {}, t("sb_play_out")),
      h("p", { class: "muted small" }, t("sb_play_out_help")),
      Array.from({ length: view.players }, (_, s) => h("label", { class: "sb-seat" }, P.dot(s), t("sb_seat_player", { n: s + 1 }), " ",
        h("select", { id: `sb-seat-${s}`, onchange: (ev) => setBot(s, ev.target.value) },
          h("option", { value: "", selected: !st.bots[s] }, t("sb_person")),
          LEVELS.map((l) => h("option", { value: l, selected: st.bots[s] === l }, t("sb_bot_level", { level: levelName(l) }))))))));
    if (!data.over) {
      parts.push(P.handPanel({ ...view, seat: data.current }, {
        onCard: (card) => { st.sel = st.sel && st.sel.type === "card" && st.sel.card === card ? null : { type: "card", card }; render(); },
        selectedCard: st.sel && st.sel.type === "card" ? st.sel.card : null,
      }));
    }
    parts.push(h("section", { "aria-labelledby": "sb-hands-title" }, h("h2", { class: "panel-title", id: "sb-hands-title" }, t("sb_all_hands")),
      P.allHandsPanel(view.hands, nm)));
    parts.push(P.playersPanel(view, { names: nm, seats: null, mySeat: null }), P.masterPanel(view), P.supplyLine(view));
    parts.push(shareBox(data.position));
    const allActions = st.earlier.flatMap((e) => e.actions).concat(st.actions);
    const allActors = st.earlier.flatMap((e) => e.actors).concat(st.actors);
    parts.push(P.logPanel(P.logEntries(allActions, allActors, nm, "all")));
    return parts;
  }

  function shareBox(pos) {
    const url = location.origin + boardUrl(pos);
    return h("section", { class: "share", id: "sb-share", "aria-labelledby": "sb-share-title" },
      h("h2", { class: "panel-title", id: "sb-share-title" }, t("sb_share")),
      h("div", { class: "copy-row" }, h("input", { type: "text", readonly: true, id: "sb-share-url", value: url, "aria-label": t("sb_share_url"), onclick: (ev) => ev.target.select() }),
        h("button", { type: "button", class: "btn small", id: "sb-copy", onclick: async () => {
          try { await navigator.clipboard.writeText(url); announce(boardBox, t("sb_copied")); } catch (e) { document.getElementById("sb-share-url").select(); }
        } }, t("sb_copy"))),
      h("p", {}, h("a", { href: "/board/edit?" + new URLSearchParams({ position: pos }).toString(), "data-link": "", id: "sb-edit", class: "btn small" }, t("sb_edit"))));
  }

  const offLang = onLangChange(render);
  if (playLevel) {
    // "Play from here": the seat to act is the person's, a bot of the chosen level takes every other seat
    const first = await api("/api/sandbox", { json: { position: st.base, actions: [] } }).catch((e) => { st.error = t("error", { msg: e.message }); return null; });
    if (first) for (let s = 0; s < first.view.players; s++) if (s !== first.current) st.bots[s] = playLevel;
  }
  await request([]);
  if (params.get("ask") === "1" && st.data && !st.data.over) askMaster();
  return () => { st.closed = true; offLang(); };
}
