// The game page: connects to the game's websocket, draws the table and turns clicks into notation actions.
// Which clicks do something comes only from view.legal (the engine's legal actions).

import { h, clear, api } from "./dom.js";
import { t, cardName, cardText, onLangChange, speedName } from "./i18n.js";
import { Connection, statusBanner } from "./connection.js";
import { renderBoard, squaresIn, squareRect } from "./board.js";
import * as P from "./panels.js";
import * as store from "./store.js";

const SQUARE_KINDS = ["block", "knight", "start", "king", "castle"];
const BUTTON_KINDS = ["stack", "buy", "score", "end", "king_stay", "first"];

export function seatNames(game, players) {
  return Array.from({ length: players }, (_, s) => {
    const seat = game && game.seats && game.seats[s];
    return (seat && seat.name) || t("default_human", { n: s + 1 });
  });
}

export async function gamePage(root, gameId, app) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  let summary;
  try {
    summary = await api(`/api/games/${encodeURIComponent(gameId)}`);
  } catch (e) {
    clear(root).append(h("div", { class: "page narrow" }, h("h2", {}, e.status === 404 ? t("not_found") : t("error", { msg: e.message })),
      h("p", {}, h("a", { href: "/", "data-link": "" }, t("back_home")))));
    return () => {};
  }
  store.touch(gameId);
  const local = () => store.localSeats(gameId);
  const st = {
    game: summary, view: null, seat: null, sel: null, hint: null, hintWaiting: false, handover: null,
    known: [], lastEvent: null, scoringsSeen: null, wasMyTurn: false, keep: null, dialog: null, toast: null,
    switching: false, overShown: false,
  };
  const seats0 = local();
  let seat = null;
  if (seats0.length) seat = seats0.includes(summary.current) ? summary.current : seats0[0];
  const conn = new Connection(gameId, { onMessage, onStatus: statusBanner });
  conn.start(seat, seat === null ? null : store.tokenFor(gameId, seat));

  // the page's frame; render() fills it
  const statusArea = h("div", { id: "status-area", class: "status-area" });
  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const controls = h("div", { id: "controls", class: "controls" });
  const side = h("aside", { id: "side", class: "side" });
  const overlay = h("div", { id: "overlay-root" });
  const page = h("div", { class: "game-page", id: "game-page", "data-game": gameId },
    statusArea, h("div", { class: "board-col" }, boardBox), controls, side, overlay);
  clear(root).append(page);

  function names() { return seatNames(st.game, st.view ? st.view.players : st.game.players); }
  function myTurn() {
    return !!st.view && st.seat !== null && !st.handover && !st.switching && st.view.current === st.seat && st.view.legal.length > 0;
  }
  function legal() { return myTurn() ? st.view.legal : []; }
  function hotseat() { return local().length > 1; }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        st.seat = msg.seat;
        st.switching = false;
        if (msg.game) st.game = msg.game;
        setView(msg.view, null, true);
        break;
      case "update":
        if (msg.event && !msg.event.undo) st.known[msg.view.history.length - 1] = msg.event.seat;
        st.known.length = Math.min(st.known.length, msg.view.history.length);
        st.lastEvent = msg.event;
        setView(msg.view, msg.event, false);
        break;
      case "rejected":
        toast(t("rejected", { msg: msg.message || msg.code }), "error");
        if (msg.code === "stale") conn.sendHello();
        break;
      case "hint":
        st.hint = { actions: msg.actions || [], text: msg.text || "" };
        st.hintWaiting = false;
        render();
        break;
      case "game":
        st.game = msg.game;
        render();
        break;
      case "error":
        toast(msg.message || msg.code, "error");
        break;
      default:
        break;
    }
  }

  function setView(view, event, fresh) {
    const prev = st.view;
    st.view = view;
    if (fresh || (event && event.seat === st.seat) || !selectionStillValid()) st.sel = null;
    if (event && event.seat === st.seat) st.hint = null;
    if (prev && prev.current !== view.current) st.hint = null;
    if (!(view.stage === "keep" && view.current === st.seat)) st.keep = null;
    // a new phase scoring: show its table
    const n = (view.scorings || []).length;
    if (st.scoringsSeen === null) st.scoringsSeen = n;
    if (n > st.scoringsSeen) {
      st.scoringsSeen = n;
      st.dialog = { kind: view.stage === "over" ? "over" : "scoring", index: n - 1 };
      if (view.stage === "over") st.overShown = true;
    } else if (view.stage === "over" && !st.overShown && !fresh) {
      st.overShown = true;
      st.dialog = { kind: "over" };
    }
    if (n < st.scoringsSeen) st.scoringsSeen = n; // undone (cannot happen across a scoring, but be safe)
    // hot-seat: the turn passes to another human at this screen
    const mine = local();
    st.handover = null;
    if (view.stage !== "over" && mine.length > 1 && mine.includes(view.current) && view.current !== st.seat) {
      st.handover = view.current;
    }
    render();
    announceTurn();
  }

  function selectionStillValid() {
    if (!st.sel || !st.view) return false;
    const L = legal();
    if (st.sel.type === "knight") return L.some((a) => a.kind === "move" && a.from === st.sel.sq);
    return L.some((a) => a.card === st.sel.card && a.kind !== "keep");
  }

  function announceTurn() {
    const mine = myTurn() || st.handover !== null;
    document.title = mine ? t("your_turn_title") : t("app_title");
    if (mine && !st.wasMyTurn && "Notification" in window && Notification.permission === "granted" && document.hidden) {
      try { new Notification(t("your_turn_title"), { body: t("to_play", { name: names()[st.view.current] }), tag: "torres-" + gameId }); } catch (e) { /* ignore */ }
    }
    st.wasMyTurn = mine;
  }

  // ---- acting ----
  function send(action) {
    if (!myTurn() || !st.view.legal.some((a) => a.action === action)) return false;
    closeChooser();
    conn.act(action);
    st.sel = null;
    page.classList.add("sending");
    setTimeout(() => page.classList.remove("sending"), 400);
    return true;
  }

  function interaction() {
    const L = legal();
    const targets = new Map();
    const selectable = new Set();
    let selected = null;
    const add = (sq, a) => { if (!targets.has(sq)) targets.set(sq, []); targets.get(sq).push(a); };
    const sel = st.sel;
    if (sel && sel.type === "card") {
      const plays = L.filter((a) => a.card === sel.card && a.kind !== "keep");
      const two = plays.filter((a) => a.from);
      const froms = [...new Set(two.map((a) => a.from))];
      const from = sel.from || (froms.length === 1 ? froms[0] : null);
      if (from) {
        selected = from;
        two.filter((a) => a.from === from).forEach((a) => add(a.to, a));
        froms.filter((f) => f !== from).forEach((f) => add(f, { kind: "pick", pick: f, cost: 0 }));
      } else {
        froms.forEach((f) => add(f, { kind: "pick", pick: f, cost: 0 }));
      }
      plays.filter((a) => !a.from && a.to).forEach((a) => add(a.to, a));
    } else {
      const moves = L.filter((a) => a.kind === "move");
      moves.forEach((a) => selectable.add(a.from));
      if (sel && sel.type === "knight") {
        selected = sel.sq;
        moves.filter((a) => a.from === sel.sq).forEach((a) => add(a.to, a));
      } else {
        L.filter((a) => SQUARE_KINDS.includes(a.kind) && a.to).forEach((a) => add(a.to, a));
      }
    }
    return { targets, selectable, selected };
  }

  function onSquare(name) {
    closeChooser();
    if (!myTurn()) return;
    const { targets, selectable } = interaction();
    const opts = targets.get(name);
    if (opts) {
      const pick = opts.find((o) => o.kind === "pick");
      const real = opts.filter((o) => o.kind !== "pick");
      if (pick && !real.length) { st.sel = { ...st.sel, from: name }; render(); return; }
      if (real.length === 1) { send(real[0].action); return; }
      showChooser(name, real);
      return;
    }
    if (selectable.has(name)) {
      st.sel = st.sel && st.sel.type === "knight" && st.sel.sq === name ? null : { type: "knight", sq: name };
      render();
      return;
    }
    if (st.sel && st.sel.type === "knight") { st.sel = null; render(); }
  }

  function optionLabel(a) {
    if (a.kind === "lift") {
      const src = a.action.split("from:")[1];
      return `${t("lift_from")} ${src === "turn" ? t("lift_from_turn") : t("lift_from_stack", { n: src })}`;
    }
    const key = "opt_" + a.kind;
    const s = t(key);
    return s === key ? a.action : s;
  }

  function showChooser(name, options) {
    const box = h("div", { class: "chooser", id: "chooser", role: "dialog" },
      h("p", {}, h("b", {}, name), " — ", t("choose_action")),
      options.map((a) => h("button", { type: "button", class: "btn", "data-action": a.action, onclick: () => send(a.action) },
        optionLabel(a), h("code", {}, a.action))),
      h("button", { type: "button", class: "btn ghost", onclick: closeChooser }, t("btn_cancel")));
    clear(overlay).append(box);
    // next to the square: below it if there is room, else above
    const r = squareRect(boardBox, name);
    const bw = box.offsetWidth, bh = box.offsetHeight;
    const left = Math.max(8, Math.min(document.documentElement.clientWidth - bw - 8, r.left + r.width / 2 - bw / 2));
    const below = r.top + r.height + 6;
    const top = below + bh < window.innerHeight ? below : Math.max(8, r.top - bh - 6);
    box.style.left = left + window.scrollX + "px";
    box.style.top = top + window.scrollY + "px";
  }
  function closeChooser() { const c = overlay.querySelector("#chooser"); if (c) c.remove(); }

  function onCard(card) {
    if (st.seat === null) return;
    st.sel = st.sel && st.sel.type === "card" && st.sel.card === card ? null : { type: "card", card };
    render();
  }

  // ---- drawing ----
  function render() {
    if (!st.view) return;
    const view = st.view;
    const nm = names();
    const showHand = st.seat !== null && !st.handover && !st.switching && (!hotseat() || view.current === st.seat || view.stage === "over");
    const inter = interaction();
    const hintSquares = st.hint && st.hint.actions.length ? squaresIn(st.hint.actions[0]) : [];
    const last = st.lastEvent && st.lastEvent.action ? squaresIn(st.lastEvent.action) : [];
    renderBoard(boardBox, view, {
      targets: inter.targets, selectable: inter.selectable, selected: inter.selected, hint: hintSquares, last,
      names: nm, onSquare, interactive: myTurn(),
    });
    boardBox.classList.toggle("my-turn", myTurn());
    // hooks for tests and tools: what this page shows now
    Object.assign(page.dataset, { version: conn.version === null ? "" : String(conn.version), stage: view.stage,
      current: String(view.current), seat: st.seat === null ? "" : String(st.seat), myTurn: myTurn() ? "1" : "0",
      history: String((view.history || []).length) });

    clear(statusArea).append(P.statusPanel(view, { names: nm, mySeat: st.seat }));
    renderControls(view, nm);

    const actors = P.actorsOf(view, st.known);
    const scoringAt = [];
    const parts = [];
    if (showHand) parts.push(P.handPanel(view, { onCard, selectedCard: st.sel && st.sel.type === "card" ? st.sel.card : null }));
    else if (st.seat === null) parts.push(h("p", { class: "spectator-note", id: "spectator-note" }, t("spectator")));
    if (view.stage === "over") {
      parts.push(h("section", { class: "over-box" }, P.rankingTable(view.scores, nm),
        h("p", {}, h("a", { href: `/replay/${gameId}`, "data-link": "", id: "replay-link", class: "btn" }, t("watch_replay")))));
    }
    if (st.lower && st.lower.form) parts.push(st.lower.form);
    const invites = invitesPanel(nm);
    if (invites && invites.open) parts.unshift(invites);
    parts.push(P.playersPanel(view, { names: nm, seats: st.game.seats, mySeat: st.seat, localSeats: local() }));
    parts.push(P.masterPanel(view), P.supplyLine(view));
    if (invites && !invites.open) parts.push(invites);
    parts.push(P.logPanel(P.logEntries(view.history || [], actors, nm, st.seat, scoringAt)));
    if (st.lower && st.lower.extras) parts.push(st.lower.extras);
    clear(side).append(...parts.filter(Boolean));

    renderOverlays(view, nm);
  }

  function renderControls(view, nm) {
    const L = legal();
    const parts = [];
    if (st.hint || st.hintWaiting) {
      const acts = st.hint ? st.hint.actions : [];
      parts.push(h("div", { class: "hint-box", id: "hint-box", title: st.hint ? st.hint.text : "" }, h("b", {}, t("hint_title"), ": "),
        st.hintWaiting ? t("hint_wait") : [
          acts.length ? h("span", { class: "hint-first" }, t("hint_first") + " ", h("code", { class: "chip now" }, acts[0])) : null,
          acts.length > 1 ? h("span", { class: "hint-rest" }, acts.slice(1).map((a) => [" → ", h("code", { class: "chip" }, a)])) : null]));
    }
    // a card chosen from the hand
    if (st.sel && st.sel.type === "card") {
      const card = st.sel.card;
      const plays = L.filter((a) => a.card === card && a.kind !== "keep");
      const fresh = st.view.fresh && st.view.fresh[card] && (st.view.hand[card] || 0) <= st.view.fresh[card];
      const noSquare = plays.filter((a) => !a.to && !a.from);
      parts.push(h("div", { class: "card-pop", id: "card-pop", "data-card": card },
        h("div", { class: "card-pop-head" }, P.cardTile(card, { class: "big" }), h("div", {}, h("b", {}, cardName(card)), h("p", {}, cardText(card)))),
        !plays.length ? h("p", { class: "muted" }, fresh ? t("card_fresh") : t("card_none_legal"))
          : noSquare.length ? noSquare.map((a) => h("button", { type: "button", class: "btn primary", "data-action": a.action, "data-testid": "play-card", onclick: () => send(a.action) }, t("btn_play", { card: cardName(card) })))
            : h("p", { class: "instr" }, st.sel.from ? t("card_pick_target") : t("card_pick_knight")),
        h("button", { type: "button", class: "btn ghost", id: "btn-cancel-card", onclick: () => { st.sel = null; render(); } }, t("btn_cancel"))));
    }
    // keep after a buy
    const keeps = L.filter((a) => a.kind === "keep");
    if (keeps.length) parts.push(keepPanel(keeps));
    // buttons for the actions that name no square
    const buttons = [];
    for (const a of L) {
      if (!BUTTON_KINDS.includes(a.kind)) continue;
      let label = a.action, id = null;
      if (a.kind === "stack") label = t("btn_stack", { n: a.action.split(" ")[1] });
      if (a.kind === "buy") { label = t("btn_buy"); id = "btn-buy"; }
      if (a.kind === "score") { label = t("btn_score"); id = "btn-score"; }
      if (a.kind === "end") { label = t("btn_end"); id = "btn-end"; }
      if (a.kind === "king_stay") { label = t("btn_king_stay"); id = "btn-king-stay"; }
      if (a.kind === "first") label = t("btn_first", { name: nm[Number(a.action.split(" ")[1])] });
      buttons.push(h("button", { type: "button", class: ["btn", a.kind === "end" ? "end" : "act"], id, "data-action": a.action,
        "data-testid": "act-" + a.action.replace(/\s+/g, "-"), onclick: () => send(a.action) }, label));
    }
    const undoable = canUndo();
    const row = st.seat === null ? h("div", { class: "buttons", id: "action-buttons" }) : h("div", { class: "buttons", id: "action-buttons" }, buttons,
      h("span", { class: "spacer" }),
      h("button", { type: "button", class: "btn ghost", id: "btn-undo", "data-testid": "undo", disabled: !undoable,
        onclick: () => { if (canUndo()) { conn.undo(); st.sel = null; } } }, "↶ ", t("btn_undo")),
      h("button", { type: "button", class: "btn ghost", id: "btn-hint", "data-testid": "hint", disabled: !myTurn(),
        onclick: () => { if (myTurn()) { st.hintWaiting = true; st.hint = null; conn.hint(); render(); } } }, "? ", t("btn_hint")));
    parts.push(row);
    clear(controls).append(...parts);
    st.lower = lowerControls(L, nm);
  }

  /** The notation box and the small settings: shown under the hand. */
  function lowerControls(L, nm) {
    const lower = { form: null, extras: null };
    // notation with completion
    if (st.seat !== null && st.view.stage !== "over") {
      const input = h("input", { id: "notation", type: "text", list: "legal-list", autocomplete: "off", spellcheck: "false",
        placeholder: t("notation_placeholder"), disabled: !myTurn(), "aria-label": t("notation_placeholder") });
      const form = h("form", { class: "notation", id: "notation-form", onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value.trim().replace(/\s+/g, " ").toLowerCase();
        if (!text) return;
        if (myTurn()) {
          const match = st.view.legal.find((a) => a.action === text);
          conn.act(match ? match.action : text); // the server says why if it is not legal
          input.value = "";
          st.sel = null;
        }
      } }, input, h("datalist", { id: "legal-list" }, L.map((a) => h("option", { value: a.action }))),
      h("button", { type: "submit", class: "btn", id: "btn-send", disabled: !myTurn() }, t("btn_send")));
      lower.form = form;
    }
    const extras = [];
    if ((st.view.scorings || []).length) {
      extras.push(h("button", { type: "button", class: "btn ghost small", id: "btn-scorings", onclick: () => { st.dialog = { kind: "all" }; render(); } }, t("btn_scorings")));
    }
    const hasBot = (st.game.seats || []).some((s) => s.kind === "bot");
    if (st.seat !== null && hasBot) {
      const speeds = ["slow", "normal", "fast", "instant"];
      extras.push(h("label", { class: "speed" }, t("bot_speed"), " ", h("select", { id: "speed-select", onchange: (ev) => conn.speed(ev.target.value) },
        speeds.map((s) => h("option", { value: s, selected: st.game.bot_speed === s }, speedName(s))))));
    }
    if (st.seat !== null && "Notification" in window && Notification.permission === "default") {
      extras.push(h("button", { type: "button", class: "btn ghost small", id: "btn-notify", onclick: async () => {
        try { await Notification.requestPermission(); } catch (e) { /* ignore */ }
        render();
      } }, t("btn_notify")));
    }
    if (extras.length) lower.extras = h("div", { class: "extras" }, extras);
    return lower;
  }

  function canUndo() {
    if (!myTurn()) return false;
    const hist = st.view.history || [];
    if (!hist.length) return false;
    const lastA = hist[hist.length - 1];
    if (lastA === "end" || lastA === "buy") return false;
    const actors = P.actorsOf(st.view, st.known);
    return actors[hist.length - 1] === st.seat;
  }

  function parseKeep(action) {
    const parts = action.split(" ");
    const out = { card: parts[1], top: [], bottom: [] };
    for (const p of parts.slice(2)) {
      const [where, list] = p.split(":");
      out[where] = list.split(",");
    }
    return out;
  }

  function keepPanel(keeps) {
    const drawn = st.view.drawn || [];
    if (!st.keep) st.keep = { card: drawn[0] || parseKeep(keeps[0].action).card, where: {} };
    const k = st.keep;
    const others = [];
    drawn.forEach((c, i) => { if (i !== drawn.indexOf(k.card) || c !== k.card) others.push({ c, i }); });
    // the legal keep action matching the choice (top/bottom as a set; the order is the engine's first)
    const want = (o) => k.where[o.i] || "bottom";
    const match = keeps.find((a) => {
      const p = parseKeep(a.action);
      if (p.card !== k.card) return false;
      const top = others.filter((o) => want(o) === "top").map((o) => o.c).sort().join();
      const bottom = others.filter((o) => want(o) === "bottom").map((o) => o.c).sort().join();
      return [...p.top].sort().join() === top && [...p.bottom].sort().join() === bottom;
    }) || keeps.find((a) => parseKeep(a.action).card === k.card) || keeps[0];
    return h("div", { class: "keep-panel", id: "keep-panel" },
      h("h3", {}, t("keep_title")),
      h("div", { class: "keep-cards" }, drawn.map((c, i) => h("div", { class: ["keep-card", c === k.card && i === drawn.indexOf(k.card) ? "kept" : null] },
        P.cardTile(c, { onclick: () => { st.keep = { card: c, where: {} }; render(); } }),
        h("small", { class: "card-text" }, cardText(c)),
        (c === k.card && i === drawn.indexOf(k.card)) ? h("b", { class: "keep-tag" }, "✓") :
          h("span", { class: "where" },
            h("button", { type: "button", class: ["btn", "tiny", want({ i }) === "top" ? "on" : null], "data-testid": `keep-top-${i}`, onclick: () => { k.where[i] = "top"; render(); } }, t("keep_top")),
            h("button", { type: "button", class: ["btn", "tiny", want({ i }) === "bottom" ? "on" : null], "data-testid": `keep-bottom-${i}`, onclick: () => { k.where[i] = "bottom"; render(); } }, t("keep_bottom")))))),
      drawn.length > 1 ? h("p", { class: "muted small" }, t("keep_note")) : null,
      h("button", { type: "button", class: "btn primary", id: "btn-keep", "data-action": match.action, onclick: () => send(match.action) },
        t("btn_keep", { card: cardName(k.card) }), " ", h("code", {}, match.action)));
  }

  function invitesPanel(nm) {
    const saved = store.getGame(gameId);
    const invites = saved && saved.invites ? Object.entries(saved.invites) : [];
    if (!invites.length) return null;
    const seats = st.game.seats || [];
    const open = invites.some(([s]) => seats[s] && !seats[s].claimed);
    const row = (label, url, testid, state) => h("div", { class: "invite" }, h("label", {}, label, state ? h("small", { class: "muted" }, " · " + state) : null),
      h("div", { class: "copy-row" }, h("input", { type: "text", readonly: true, value: url, "data-testid": testid + "-url", onclick: (ev) => ev.target.select() }),
        h("button", { type: "button", class: "btn small", "data-testid": testid, onclick: (ev) => copy(url, ev.target) }, t("copy"))));
    const details = h("details", { class: "invites", id: "invites", open }, h("summary", {}, t("invites")),
      invites.map(([s, path]) => row(t("invite_for", { name: nm[s], n: Number(s) + 1 }), location.origin + path, "copy-invite-" + s,
        seats[s] ? (seats[s].claimed ? t("claimed") : t("waiting")) : null)),
      row(t("spectator_link"), `${location.origin}/game/${gameId}`, "copy-spectator", null));
    return details;
  }

  async function copy(text, button) {
    try { await navigator.clipboard.writeText(text); }
    catch (e) {
      const area = h("textarea", { style: "position:fixed;opacity:0" }, text);
      document.body.append(area); area.select();
      try { document.execCommand("copy"); } catch (e2) { /* ignore */ }
      area.remove();
    }
    button.textContent = t("copied");
    setTimeout(() => { button.textContent = t("copy"); }, 1500);
  }

  function renderOverlays(view, nm) {
    for (const el of overlay.querySelectorAll(".modal")) el.remove();
    if (st.handover !== null) {
      const seat = st.handover;
      overlay.append(h("div", { class: "modal handover", id: "handover", role: "dialog" },
        h("div", { class: "modal-box" }, h("h2", {}, P.dot(seat), " ", t("handover_title", { name: nm[seat] })),
          h("p", { class: "muted" }, t("handover_note")),
          h("button", { type: "button", class: "btn primary big", id: "handover-ready", "data-testid": "handover-ready", onclick: () => {
            const token = store.tokenFor(gameId, seat);
            st.handover = null;
            st.switching = true;
            st.sel = null; st.hint = null;
            conn.switchSeat(seat, token);
            render();
          } }, t("handover_ready", { name: nm[seat] })))));
      return;
    }
    if (!st.dialog) return;
    const d = st.dialog;
    const master = view.master_card >= 0;
    let body;
    if (d.kind === "scoring") body = [P.scoringTable(view.scorings[d.index], nm, master)];
    else if (d.kind === "over") body = [P.rankingTable(view.scores, nm), ...view.scorings.map((s) => P.scoringTable(s, nm, master)).reverse()];
    else body = view.scorings.map((s) => P.scoringTable(s, nm, master)).reverse();
    const close = () => { st.dialog = null; render(); };
    overlay.append(h("div", { class: "modal", id: "dialog", "data-kind": d.kind, role: "dialog", onclick: (ev) => { if (ev.target.id === "dialog") close(); } },
      h("div", { class: "modal-box wide" }, body,
        h("div", { class: "modal-actions" },
          d.kind === "over" ? h("a", { href: `/replay/${gameId}`, "data-link": "", class: "btn" }, t("watch_replay")) : null,
          h("button", { type: "button", class: "btn primary", id: "dialog-close", onclick: close }, t("btn_close"))))));
  }

  function toast(text, kind = "info") {
    const box = document.getElementById("toasts");
    if (!box) return;
    const el = h("div", { class: "toast " + kind, role: "alert" }, text);
    box.append(el);
    setTimeout(() => el.remove(), 5000);
  }

  const offLang = onLangChange(() => { render(); announceTurn(); });
  const onKey = (ev) => {
    if (ev.key === "Escape") { closeChooser(); if (st.sel) { st.sel = null; render(); } }
  };
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(closeChooser, 100); };
  window.addEventListener("resize", onResize);

  return () => {
    conn.close();
    offLang();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    document.title = t("app_title");
    statusBanner("open");
  };
}
