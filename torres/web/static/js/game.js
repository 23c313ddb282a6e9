// The game page: connects to the game's websocket, draws the table and turns clicks into notation actions.
// Which clicks do something comes only from view.legal (the engine's legal actions).

import { h, clear, api, keepUnchanged } from "./dom.js";
import { t, getLang, cardName, cardText, onLangChange, speedName } from "./i18n.js";
import { Connection, statusBanner } from "./connection.js";
import { renderBoard, boardView, boardRotation, squaresIn, squareRect, announce } from "./board.js";
import * as P from "./panels.js";
import { boardTargets } from "./boardkit.js";
import * as store from "./store.js";
import { session, me, sameName, change } from "./session.js";

// Square actions lit at once (setup, the king), and those grouped behind a button under the board: a selection
// narrows the lit squares (a knight: its moves; "build a block": where a block may go).
const BUTTON_KINDS = ["stack", "buy", "score", "end", "king_stay", "first"];

export function seatNames(game, players) {
  return Array.from({ length: players }, (_, s) => {
    const seat = game && game.seats && game.seats[s];
    return (seat && seat.name) || t("default_human", { n: s + 1 });
  });
}

/** A clock's face: "4:05", "1:02:03"; correspondence "2 d 5 h" or "5 h 12 min" below a day. */
export function clockFace(ms, kind) {
  const sec = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(sec / 60) % 60, hr = Math.floor(sec / 3600), pad = (n) => String(n).padStart(2, "0");
  if (kind === "correspondence" && sec >= 3600) return hr >= 24 ? t("clock_dh", { d: Math.floor(hr / 24), h: hr % 24 }) : t("clock_hm", { h: hr, m });
  return hr ? `${hr}:${pad(m)}:${pad(sec % 60)}` : `${m}:${pad(sec % 60)}`;
}
/** Time left in words, for a screen reader: "30 seconds", "2 minutes", "1 hour". */
function spoken(ms) {
  const sec = Math.max(0, Math.round(ms / 1000));
  if (sec < 90) return t("n_seconds", { n: sec });
  if (sec < 5400) return t("n_minutes", { n: Math.round(sec / 60) });
  return t("n_hours", { n: Math.round(sec / 3600) });
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
  await session();
  // the seats this browser plays: those it holds a token for, and the logged-in account's (opened by its cookie)
  const accountSeats = () => { const a = me(); return a ? (st.game.seats || []).filter((s) => sameName(s.account, a.username)).map((s) => s.seat) : []; };
  const local = () => [...new Set([...store.localSeats(gameId), ...accountSeats()])].sort((a, b) => a - b);
  /** A seat a person still plays (not taken over by a bot after a time-out or a resignation). */
  const playing = (s) => { const seat = st.game.seats && st.game.seats[s]; return !seat || (seat.kind === "human" && !seat.out); };
  const st = {
    game: summary, view: null, seat: null, sel: null, hint: null, hintWaiting: false, handover: null,
    known: [], lastEvent: null, scoringsSeen: null, wasMyTurn: false, keep: null, dialog: null, toast: null,
    switching: false, overShown: false, boardDrawn: { view: null, drawing: "" },
  };
  const seats0 = local().filter(playing);
  let seat = null;
  if (seats0.length) seat = seats0.includes(summary.current) ? summary.current : seats0[0];
  const conn = new Connection(gameId, { onMessage, onStatus: statusBanner });
  conn.start(seat, seat === null ? null : store.tokenFor(gameId, seat));

  // the page's frame; render() fills it. The instruction line stays one element (a live region): what to do now.
  const heading = h("h1", { class: "visually-hidden", id: "game-heading" });
  const statusBox = h("div", { class: "status-box" });
  const instruction = h("p", { id: "instruction", class: "instruction", role: "status", tabindex: "-1" });
  const clockBox = h("ul", { id: "clocks", class: "clocks", "aria-label": t("clocks"), hidden: true });
  const clockLive = h("p", { class: "visually-hidden", "aria-live": "polite", id: "clock-live" });
  const statusArea = h("div", { id: "status-area", class: "status-area" }, heading, statusBox, clockBox, instruction, clockLive);
  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const controls = h("div", { id: "controls", class: "controls" });
  const side = h("aside", { id: "side", class: "side" });
  const dialogBox = h("div", { id: "dialog-root" }); // the open dialog, if any
  const overlay = h("div", { id: "overlay-root" }, dialogBox);
  const page = h("div", { class: "game-page", id: "game-page", "data-game": gameId },
    statusArea, h("div", { class: "board-col" }, boardBox), controls, side, overlay);
  clear(root).append(page);

  function names() { return seatNames(st.game, st.view ? st.view.players : st.game.players); }
  function myTurn() {
    return !!st.view && st.seat !== null && playing(st.seat) && !st.handover && !st.switching && st.view.current === st.seat && st.view.legal.length > 0;
  }
  function legal() { return myTurn() ? st.view.legal : []; }
  function hotseat() { return local().length > 1; }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome":
        st.seat = msg.seat;
        st.switching = false;
        if (msg.game) setGame(msg.game);
        setView(msg.view, null, true);
        break;
      case "update":
        if (msg.event && !msg.event.undo) st.known[msg.view.history.length - 1] = msg.event.seat;
        st.known.length = Math.min(st.known.length, msg.view.history.length);
        st.lastEvent = msg.event;
        setView(msg.view, msg.event, false);
        if (st.game.clock || st.game.rated || msg.view.stage === "over") refreshSummary(300);
        break;
      case "rejected":
        toast(t("rejected", { msg: serverWords(msg) }), "error");
        if (msg.code === "stale") conn.sendHello();
        break;
      case "hint":
        st.hint = { actions: msg.actions || [], text: msg.text || "" };
        st.hintWaiting = false;
        render();
        announce(boardBox, t("hint_title") + ": " + (st.hint.actions.length ? P.planWords(st.hint.actions, names()) : st.hint.text));
        break;
      case "game":
        setGame(msg.game);
        render();
        break;
      case "error":
        toast(serverWords(msg), "error");
        break;
      default:
        break;
    }
  }

  // ---- the summary: clocks, seats taken over by bots, rating changes ----
  function setGame(game) {
    const before = st.game;
    st.game = game;
    const c = game.clock;
    if (c) {
      const now = Date.parse(c.now);
      st.clockAt = Date.now();
      st.skew = isNaN(now) ? 0 : now - st.clockAt; // server time minus this machine's
    }
    (game.seats || []).forEach((seat, s) => {
      const old = before && before.seats && before.seats[s];
      if (seat.out && old && !old.out) say(t("out_" + seat.out + "_ann", { name: names()[s] }));
    });
    if (before && before.current !== game.current) st.lowSaid = new Set();
    // a rated game's rating changes follow its end: ask until they are there
    if (game.status === "finished" && game.rated && !game.rating_changes && (st.ratingAsks = (st.ratingAsks || 0) + 1) < 40) refreshSummary(1500);
    tick();
  }
  let summaryTimer = null;
  let summaryAsked = 0;
  function refreshSummary(delay) {
    clearTimeout(summaryTimer);
    summaryTimer = setTimeout(async () => {
      summaryAsked = Date.now();
      try { setGame(await api(`/api/games/${encodeURIComponent(gameId)}`)); render(); } catch (e) { /* the next update asks again */ }
    }, delay);
  }
  function say(text) { clockLive.textContent = text; }

  /** Milliseconds left on seat `s`'s clock now (null: no clock to show); the acting seat counts down. */
  function leftMs(s) {
    const c = st.game.clock;
    if (!c) return null;
    const seat = st.game.seats && st.game.seats[s];
    const acting = st.game.status !== "finished" && s === st.game.current && (!seat || seat.kind === "human");
    const base = c.left && typeof c.left[s] === "number" ? c.left[s] : null;
    if (acting && c.deadline) return Date.parse(c.deadline) - (Date.now() + (st.skew || 0));
    if (acting && base !== null && c.kind === "live") return base - (Date.now() - st.clockAt);
    return c.kind === "live" ? base : null;
  }
  const LOW = [60000, 30000, 10000];
  /** Redraw the clocks (every half second while one runs); low time on this page's own clock is said once per step. */
  function tick() {
    const c = st.game.clock;
    clockBox.hidden = !c;
    if (!c) return;
    const nm = names();
    const over = st.game.status === "finished";
    const items = (st.game.seats || []).map((seat, s) => {
      const ms = leftMs(s);
      const acting = !over && s === st.game.current && seat.kind === "human";
      const low = acting && ms !== null && ms < (c.kind === "live" ? 20000 : 3600000);
      if (acting && s === st.seat && ms !== null && ms > 0) {
        if (!st.lowSaid) st.lowSaid = new Set();
        const limits = c.kind === "live" ? LOW : [3600000];
        const limit = [...limits].reverse().find((l) => ms <= l);
        if (limit && !st.lowSaid.has(limit)) {
          limits.filter((l) => l >= limit).forEach((l) => st.lowSaid.add(l));
          say(t("clock_low", { time: spoken(ms) }));
        }
      }
      if (acting && ms !== null && ms < -1500 && Date.now() - summaryAsked > 3000) refreshSummary(0); // the server acts on it
      return h("li", { class: ["clock", "p" + s, acting ? "running" : null, low ? "low" : null, seat.out ? "out" : null], "data-seat": s },
        P.dot(s), h("span", { class: "clock-name" }, nm[s]),
        seat.out ? h("span", { class: "clock-out" }, t("out_" + seat.out)) : h("span", { class: "clock-time" }, ms === null ? "–" : clockFace(ms, c.kind)),
        acting ? h("span", { class: "visually-hidden" }, ` (${t("clock_running")})`) : null);
    });
    clockBox.replaceChildren(...items);
  }
  const ticker = setInterval(() => { if (st.game.clock && st.game.status !== "finished") tick(); }, 500);

  /** The server's reasons are English: in another language the page says what its code means. */
  function serverWords(msg) {
    const key = "srv_" + msg.code;
    return getLang() !== "en" && t(key) !== key ? t(key) : msg.message || msg.code;
  }

  function setView(view, event, fresh) {
    const prev = st.view;
    st.view = view;
    // a chosen action ("build a block") stays chosen while it has squares: the next block is one click away
    const keepMode = st.sel && st.sel.type === "mode";
    if (fresh || (event && event.seat === st.seat && !keepMode) || !selectionStillValid()) st.sel = null;
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
    if (st.sel.type === "mode") return L.some((a) => a.kind === st.sel.kind && a.to);
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
    if (!(st.sel && st.sel.type === "mode")) st.sel = null;
    page.classList.add("sending");
    setTimeout(() => page.classList.remove("sending"), 400);
    return true;
  }

  function interaction() {
    return boardTargets(legal(), st.sel, true);
  }

  /** Choose (or drop) one of the grouped square actions: only its squares light up. */
  function setMode(kind) {
    closeChooser();
    if (!myTurn()) return;
    st.sel = st.sel && st.sel.type === "mode" && st.sel.kind === kind ? null : { type: "mode", kind };
    render();
    const n = interaction().targets.size;
    announce(boardBox, st.sel ? t("ann_mode", { what: t("mode_" + kind), n }) : t("ann_none"));
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
      announce(boardBox, st.sel ? t("ann_knight", { sq: name, n: interaction().targets.size }) : t("ann_none"));
      return;
    }
    // a square that is neither lit nor a knight to select drops a knight or an action chosen before
    if (st.sel && (st.sel.type === "knight" || st.sel.type === "mode")) { st.sel = null; render(); announce(boardBox, t("ann_none")); }
  }

  function optionLabel(a) {
    if (a.kind === "lift") {
      const src = a.action.split("from:")[1];
      return `${t("lift_from")} ${src === "turn" ? t("lift_from_turn") : t("lift_from_stack", { n: src })}`;
    }
    const key = "opt_" + a.kind;
    const s = t(key);
    if (s !== key) return s;
    const words = P.actionWords(a.action, names());
    return words[0].toUpperCase() + words.slice(1);
  }

  function showChooser(name, options) {
    const buttons = () => [...box.querySelectorAll("button")];
    const box = h("div", { class: "chooser", id: "chooser", role: "dialog", "aria-modal": "true", "aria-labelledby": "chooser-title",
      "data-square": name, onkeydown: (ev) => trapTab(ev, buttons()) },
      h("p", { id: "chooser-title" }, h("b", {}, t("chooser_title", { sq: name })), " — ", t("choose_action")),
      options.map((a) => h("button", { type: "button", class: "btn", "data-action": a.action, onclick: () => send(a.action) },
        h("span", {}, optionLabel(a)), h("code", { "aria-hidden": "true" }, a.action))),
      h("button", { type: "button", class: "btn ghost", onclick: () => closeChooser() }, t("btn_cancel")));
    for (const c of overlay.querySelectorAll(".chooser")) c.remove();
    overlay.append(box);
    // next to the square: below it if there is room, else above
    const r = squareRect(boardBox, name);
    const bw = box.offsetWidth, bh = box.offsetHeight;
    const left = Math.max(8, Math.min(document.documentElement.clientWidth - bw - 8, r.left + r.width / 2 - bw / 2));
    const below = r.top + r.height + 6;
    const top = below + bh < window.innerHeight ? below : Math.max(8, r.top - bh - 6);
    box.style.left = left + window.scrollX + "px";
    box.style.top = top + window.scrollY + "px";
    box.querySelector("button").focus({ preventScroll: true });
  }
  /** Close the square chooser; the focus goes back to its square when it was inside. */
  function closeChooser() {
    const c = overlay.querySelector("#chooser");
    if (!c) return;
    const had = c.contains(document.activeElement);
    const name = c.getAttribute("data-square");
    c.remove();
    if (had) {
      const cell = boardBox.querySelector(`[data-square="${name}"][role="button"]`);
      if (cell) cell.focus({ preventScroll: true }); else instruction.focus({ preventScroll: true });
    }
  }
  /** Tab and Shift+Tab stay among `items` (a dialog's controls). */
  function trapTab(ev, items) {
    if (ev.key !== "Tab" || !items.length) return;
    const i = items.indexOf(document.activeElement);
    const next = ev.shiftKey ? (i <= 0 ? items.length - 1 : i - 1) : (i === items.length - 1 ? 0 : i + 1);
    ev.preventDefault();
    items[next].focus();
  }

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
    const hintSquares = st.hint ? [...new Set(st.hint.actions.flatMap((a) => squaresIn(a)))] : []; // the whole hinted turn
    const last = st.lastEvent && st.lastEvent.action ? squaresIn(st.lastEvent.action) : [];
    const boardOpts = {
      targets: inter.targets, selectable: inter.selectable, selected: inter.selected, hint: hintSquares, last,
      names: nm, onSquare, interactive: myTurn(),
      tools: inter.modes.map((m) => ({ id: "mode-" + m.kind, pressed: m.on, onClick: () => setMode(m.kind),
        label: t("mode_" + m.kind) + (m.cost ? ` (${t("move_cost", { n: m.cost })})` : "") })),
    };
    // A redraw that would draw the same board is skipped: it replaces every square, and a click pressed on a square
    // and released on its replacement is lost (the summary asked for after each move redrew the board unchanged).
    const drawing = boardDrawing(boardOpts);
    if (view !== st.boardDrawn.view || drawing !== st.boardDrawn.drawing || !boardBox.firstChild) {
      renderBoard(boardBox, view, boardOpts);
      st.boardDrawn = { view, drawing };
    }
    boardBox.classList.toggle("my-turn", myTurn());
    // hooks for tests and tools: what this page shows now
    Object.assign(page.dataset, { version: conn.version === null ? "" : String(conn.version), stage: view.stage,
      current: String(view.current), seat: st.seat === null ? "" : String(st.seat), myTurn: myTurn() ? "1" : "0",
      history: String((view.history || []).length) });

    const active = document.activeElement;
    const focusId = active && active.id && active !== instruction && (controls.contains(active) || side.contains(active)) ? active.id : null;
    const typed = focusId && active.tagName === "INPUT" && active.type === "text" && !active.readOnly ? active.value : null;
    heading.textContent = t("game_heading", { names: nm.join(" · ") });
    keepUnchanged(statusBox, [P.statusPanel(view, { names: nm, mySeat: st.seat })]);
    const say = instructionText(view, nm);
    if (instruction.textContent !== say) instruction.textContent = say;
    renderControls(view, nm);

    const actors = P.actorsOf(view, st.known);
    const scoringAt = [];
    const parts = [];
    if (showHand) parts.push(P.handPanel(view, { onCard, selectedCard: st.sel && st.sel.type === "card" ? st.sel.card : null }));
    else if (st.seat === null) parts.push(h("p", { class: "spectator-note", id: "spectator-note" }, t("spectator")));
    if (view.stage === "over") {
      parts.push(h("section", { class: "over-box" }, P.rankingTable(view.scores, nm), P.ratingChanges(st.game.rating_changes, nm, st.game.seats),
        h("p", { class: "over-actions" }, h("a", { href: `/replay/${gameId}`, "data-link": "", id: "replay-link", class: "btn" }, t("watch_replay")), rematchButton())));
    }
    if (st.lower && st.lower.form) parts.push(st.lower.form);
    const invites = invitesPanel(nm);
    if (invites && invites.open) parts.unshift(invites);
    parts.push(P.playersPanel(view, { names: nm, seats: st.game.seats, mySeat: st.seat, localSeats: local() }));
    parts.push(P.masterPanel(view), P.supplyLine(view));
    if (invites && !invites.open) parts.push(invites);
    // hot-seat: while the screen passes to the next player, the previous seat's own keeps leave the log (and the DOM)
    const logSeat = st.handover !== null || st.switching ? null : st.seat;
    parts.push(P.logPanel(P.logEntries(view.history || [], actors, nm, logSeat, scoringAt)));
    if (st.lower && st.lower.extras) parts.push(st.lower.extras);
    keepUnchanged(side, parts);

    renderOverlays(view, nm);
    // a redraw that replaced the control with the focus: the focus goes to its replacement (by id), if there is one
    if (focusId && !overlay.querySelector(".modal")) {
      const again = document.getElementById(focusId);
      if (again && typed !== null && again.tagName === "INPUT") again.value = typed; // what was being typed stays
      if (again && again !== document.activeElement && !again.disabled) again.focus({ preventScroll: true });
    }
  }

  /** Everything but the view that decides how the board is drawn (functions aside: they look things up when called). */
  function boardDrawing(opts) {
    return JSON.stringify([getLang(), boardView(), boardRotation(), opts],
      (key, value) => value instanceof Map || value instanceof Set ? [...value] : value);
  }

  /** What this page's player can do now, in words, from the view alone (stage, current, ap, the kinds of `legal`). */
  function instructionText(view, nm) {
    const name = nm[view.current];
    if (view.stage === "over") {
      const best = Math.max(...view.scores);
      return t("instr_over", { names: P.joinWords(view.scores.map((v, s) => (v === best ? nm[s] : null)).filter(Boolean)) });
    }
    if (st.handover !== null) return t("instr_handover", { name: nm[st.handover] });
    if (st.seat === null) return t("instr_watch", { name });
    if (!myTurn()) {
      const seat = st.game.seats && st.game.seats[view.current];
      return t(seat && seat.kind === "bot" ? "instr_wait_bot" : "instr_wait", { name });
    }
    const L = view.legal;
    const sel = st.sel;
    if (sel && sel.type === "knight") return t("instr_knight_sel", { sq: sel.sq });
    if (sel && sel.type === "mode") return t("instr_mode_sel", { what: t("mode_" + sel.kind) });
    if (sel && sel.type === "card") {
      const plays = L.filter((a) => a.card === sel.card && a.kind !== "keep");
      const fresh = view.fresh && view.fresh[sel.card] && (view.hand[sel.card] || 0) <= view.fresh[sel.card];
      const what = !plays.length ? t(fresh ? "card_fresh" : "card_none_legal") : plays.some((a) => a.to || a.from)
        ? (sel.from ? t("card_pick_target") : t("card_pick_knight")) : t("btn_play", { card: cardName(sel.card) });
      return t("instr_card_sel", { card: cardName(sel.card), what });
    }
    const fixed = { castles: "instr_castle", knights: "instr_start", king_setup: "instr_king_setup", keep: "instr_keep",
      king_move: "instr_king_move", choose_first: "instr_choose_first" };
    if (fixed[view.stage]) return t(fixed[view.stage]);
    // a turn: which kinds of action are legal now, each with its cost
    const kindOf = (a) => (a.card && a.kind !== "keep" ? "play" : a.kind);
    const cost = (kind) => Math.max(0, ...L.filter((a) => kindOf(a) === kind).map((a) => a.cost || 0));
    const withCost = (text, kind) => (cost(kind) ? `${text} (${t("move_cost", { n: cost(kind) })})` : text);
    const kinds = new Set(L.map(kindOf));
    const sentences = [];
    if (kinds.has("stack")) {
      const heights = [...new Set(L.filter((a) => a.kind === "stack").map((a) => Number(a.action.split(" ")[1])))].sort((a, b) => a - b);
      sentences.push(t("instr_stack", { list: P.joinWords(heights.map(String), t("instr_or")) }));
    }
    const others = ["block", "knight", "buy", "score", "play", "end"].filter((k) => kinds.has(k));
    if (kinds.has("move") || others.some((k) => k !== "end")) {
      const list = P.joinWords(others.map((k) => withCost(t("ic_" + k), k)), t("instr_or"));
      let s = kinds.has("move") ? withCost(t("instr_move"), "move") + (others.length ? t("instr_also", { list }) : "") : t("instr_can", { list });
      s += view.ap > 1 ? t("instr_ap", { n: view.ap }) : view.ap === 1 ? t("instr_ap_one") : t("instr_ap_none");
      sentences.push(s[0].toUpperCase() + s.slice(1));
    } else if (kinds.has("end") && !kinds.has("stack")) {
      sentences.push(t("instr_end_only"));
    }
    return sentences.join(" ");
  }

  function renderControls(view, nm) {
    const L = legal();
    const parts = [];
    if (st.hint || st.hintWaiting) {
      const acts = st.hint ? st.hint.actions : [];
      parts.push(h("section", { class: "hint-box", id: "hint-box", "aria-labelledby": "hint-title" }, h("b", { id: "hint-title" }, t("hint_title")), ": ",
        st.hintWaiting ? t("hint_wait") : !acts.length ? st.hint.text : [
          h("span", { class: "hint-words", id: "hint-words" }, P.planWords(acts, nm), "."),
          h("small", { class: "hint-notation" }, " ", t("hint_notation"), " ", acts.map((a, i) => [i ? " → " : "", h("code", { class: ["chip", i ? null : "now"] }, a)])),
          h("small", { class: "hint-squares muted" }, " ", t("hint_squares"))]));
    }
    // a card chosen from the hand
    if (st.sel && st.sel.type === "card") {
      const card = st.sel.card;
      const plays = L.filter((a) => a.card === card && a.kind !== "keep");
      const fresh = st.view.fresh && st.view.fresh[card] && (st.view.hand[card] || 0) <= st.view.fresh[card];
      const noSquare = plays.filter((a) => !a.to && !a.from);
      parts.push(h("section", { class: "card-pop", id: "card-pop", "data-card": card, "aria-label": cardName(card) },
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
    // (a spectator, and anyone once the game is over, has nothing to undo or ask: no dead buttons)
    const row = st.seat === null || view.stage === "over" ? h("div", { class: "buttons", id: "action-buttons" }) : h("div", { class: "buttons", id: "action-buttons" }, buttons,
      h("span", { class: "spacer" }),
      h("button", { type: "button", class: "btn ghost", id: "btn-undo", "data-testid": "undo", disabled: !undoable,
        onclick: () => { if (canUndo()) { conn.undo(); st.sel = null; } } }, "↶ ", t("btn_undo")),
      h("button", { type: "button", class: "btn ghost", id: "btn-hint", "data-testid": "hint", disabled: !myTurn(),
        onclick: () => { if (myTurn()) { st.hintWaiting = true; st.hint = null; conn.hint(); render(); } } }, "? ", t("btn_hint")));
    parts.push(row);
    keepUnchanged(controls, parts);
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
      extras.push(h("label", { class: "speed" }, t("bot_speed"), " ", h("select", { id: "speed-select", "aria-label": t("bot_speed"), onchange: (ev) => conn.speed(ev.target.value) },
        speeds.map((s) => h("option", { value: s, selected: st.game.bot_speed === s }, speedName(s))))));
    }
    if (st.seat !== null && playing(st.seat) && st.view.stage !== "over" && (st.game.clock || st.game.rated)) {
      extras.push(h("button", { type: "button", class: "btn ghost small", id: "btn-resign", onclick: () => { st.dialog = { kind: "resign" }; render(); } }, t("btn_resign")));
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
    const kept = (c, i) => c === k.card && i === drawn.indexOf(k.card);
    const place = (c, i, where) => h("label", { class: "radio" },
      h("input", { type: "radio", name: `keep-where-${i}`, id: `keep-${i}-${where}`, value: where, checked: want({ i }) === where,
        onchange: () => { st.keep.where[i] = where; render(); } }), " ", t("keep_" + where));
    return h("section", { class: "keep-panel", id: "keep-panel", "aria-labelledby": "keep-title" },
      h("h2", { id: "keep-title", class: "panel-title" }, t("keep_title")),
      h("div", { class: "keep-cards" }, drawn.map((c, i) => h("div", { class: ["keep-card", kept(c, i) ? "kept" : null] },
        P.cardTile(c, { id: `keep-card-${i}`, pressed: kept(c, i), onclick: () => { st.keep = { card: c, where: {} }; render(); } }),
        h("small", { class: "card-text" }, cardText(c)),
        kept(c, i) ? h("b", { class: "keep-tag" }, "✓ " + t("keep_chosen")) :
          h("fieldset", { class: "where" }, h("legend", { class: "visually-hidden" }, t("keep_where", { card: cardName(c) })),
            place(c, i, "top"), place(c, i, "bottom"))))),
      drawn.length > 1 ? h("p", { class: "muted small" }, t("keep_note")) : null,
      h("p", { class: "keep-summary", id: "keep-summary" }, t("keep_summary", { what: P.keepWords(match.action) })),
      h("button", { type: "button", class: "btn primary", id: "btn-keep", "data-action": match.action, "aria-describedby": "keep-summary",
        onclick: (ev) => send(ev.currentTarget.dataset.action) }, t("btn_keep", { card: cardName(k.card) }), " ", h("code", { "aria-hidden": "true" }, match.action)));
  }

  function invitesPanel(nm) {
    const saved = store.getGame(gameId);
    const invites = saved && saved.invites ? Object.entries(saved.invites) : [];
    if (!invites.length) return null;
    const seats = st.game.seats || [];
    const open = invites.some(([s]) => seats[s] && !seats[s].claimed);
    const row = (label, url, testid, state) => h("div", { class: "invite" }, h("label", { for: testid + "-url" }, label, state ? h("small", { class: "muted" }, " · " + state) : null),
      h("div", { class: "copy-row" }, h("input", { type: "text", readonly: true, value: url, id: testid + "-url", "data-testid": testid + "-url", onclick: (ev) => ev.target.select() }),
        h("button", { type: "button", class: "btn small", id: testid, "data-testid": testid, "aria-label": `${t("copy")}: ${label}`, onclick: (ev) => copy(url, ev.currentTarget) }, t("copy"))));
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

  let returnFocusId = null;
  /** The page behind a dialog: out of reach (no focus, no clicks, hidden from assistive technology) while it is open. */
  function setInert(on) {
    for (const el of [statusArea, boardBox.parentElement, controls, side, document.getElementById("header")]) {
      if (el) el.inert = on;
    }
  }

  function renderOverlays(view, nm) {
    const old = dialogBox.firstElementChild;
    const active = document.activeElement;
    const keepFocus = old && old.contains(active) && active.id ? active.id : null;
    if (!old && active && active !== document.body) {
      const sq = boardBox.contains(active) && active.getAttribute("data-square");
      returnFocusId = sq ? { square: sq } : active.id || null;
    }
    // a dialog drawn as it was stays the same element (a click on its button is not lost to a redraw)
    keepUnchanged(dialogBox, [dialogFor(view, nm)]);
    const modal = dialogBox.firstElementChild;
    setInert(!!modal);
    if (modal && modal !== old) {
      closeChooser();
      const target = (keepFocus && modal.querySelector("#" + keepFocus)) || modal.querySelector("[data-autofocus]") || modal.querySelector("button, a[href]");
      if (target) target.focus({ preventScroll: true });
      modal.addEventListener("keydown", (ev) => trapTab(ev, [...modal.querySelectorAll("button, a[href]")]));
    } else if (!modal && old) {
      // closed: the focus goes back where it was before (if that control is still there), else to the instruction line
      const back = !returnFocusId ? null : typeof returnFocusId === "object"
        ? boardBox.querySelector(`[data-square="${returnFocusId.square}"][role="button"]`) : document.getElementById(returnFocusId);
      (back && !back.disabled ? back : instruction).focus({ preventScroll: true });
      returnFocusId = null;
    }
  }

  function dialogFor(view, nm) {
    if (st.handover !== null) {
      const seat = st.handover;
      return h("div", { class: "modal handover", id: "handover", role: "dialog", "aria-modal": "true", "aria-labelledby": "handover-title" },
        h("div", { class: "modal-box" }, h("h2", { id: "handover-title" }, P.dot(seat), " ", t("handover_title", { name: nm[seat] })),
          h("p", { class: "muted" }, t("handover_note")),
          h("button", { type: "button", class: "btn primary big", id: "handover-ready", "data-testid": "handover-ready", onclick: () => {
            const token = store.tokenFor(gameId, seat);
            st.handover = null;
            st.switching = true;
            st.sel = null; st.hint = null;
            conn.switchSeat(seat, token);
            render();
          } }, t("handover_ready", { name: nm[seat] }))));
    }
    if (!st.dialog) return null;
    const d = st.dialog;
    if (d.kind === "resign") {
      return h("div", { class: "modal", id: "dialog", "data-kind": "resign", role: "alertdialog", "aria-modal": "true", "aria-labelledby": "resign-title",
        "aria-describedby": "resign-note" },
        h("div", { class: "modal-box" }, h("h2", { id: "resign-title" }, t("resign_title")),
          h("p", { id: "resign-note" }, t(st.game.rated ? "resign_note_rated" : "resign_note")),
          h("div", { class: "modal-actions" },
            h("button", { type: "button", class: "btn danger", id: "resign-yes", onclick: () => { conn.resign(); st.dialog = null; render(); } }, t("resign_yes")),
            h("button", { type: "button", class: "btn primary", id: "resign-no", "data-autofocus": "", onclick: () => { st.dialog = null; render(); } }, t("btn_cancel")))));
    }
    const master = view.master_card >= 0;
    let body;
    if (d.kind === "scoring") body = [P.scoringTable(view.scorings[d.index], nm, master)];
    else if (d.kind === "over") body = [P.rankingTable(view.scores, nm), P.ratingChanges(st.game.rating_changes, nm, st.game.seats), ...view.scorings.map((s) => P.scoringTable(s, nm, master)).reverse()];
    else body = view.scorings.map((s) => P.scoringTable(s, nm, master)).reverse();
    const close = () => { st.dialog = null; render(); };
    const title = d.kind === "scoring" ? t("scoring_title", { n: view.scorings[d.index].phase }) : d.kind === "over" ? t("final_ranking") : t("btn_scorings");
    return h("div", { class: "modal", id: "dialog", "data-kind": d.kind, role: "dialog", "aria-modal": "true", "aria-label": title,
      onclick: (ev) => { if (ev.target.id === "dialog") close(); } },
      h("div", { class: "modal-box wide" }, body,
        h("div", { class: "modal-actions" },
          d.kind === "over" ? h("a", { href: `/replay/${gameId}`, "data-link": "", class: "btn", id: "dialog-replay" }, t("watch_replay")) : null,
          d.kind === "over" ? rematchButton() : null,
          h("button", { type: "button", class: "btn primary", id: "dialog-close", "data-autofocus": "", onclick: close }, t("btn_close")))));
  }

  /** At the end of a game between accounts: play again (the same players, seats rotated); both asking meet there. */
  function rematchButton() {
    const a = me();
    if (!a || !(st.game.seats || []).some((s) => sameName(s.account, a.username))) return null;
    return h("button", { type: "button", class: "btn primary", id: "btn-rematch", onclick: async (ev) => {
      const button = ev.currentTarget;
      button.disabled = true;
      try {
        const res = await change(`/api/games/${encodeURIComponent(gameId)}/rematch`, "POST");
        history.pushState(null, "", `/game/${res.game}`);
        window.dispatchEvent(new PopStateEvent("popstate"));
      } catch (e) { button.disabled = false; toast(t("error", { msg: e.message }), "error"); }
    } }, t("btn_rematch"));
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
    if (ev.key !== "Escape") return;
    if (overlay.querySelector("#chooser")) { closeChooser(); return; }
    if (st.dialog && st.handover === null) { st.dialog = null; render(); return; }
    if (st.sel) { st.sel = null; render(); }
  };
  document.addEventListener("keydown", onKey);
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(closeChooser, 100); };
  window.addEventListener("resize", onResize);

  setGame(st.game);
  return () => {
    clearInterval(ticker);
    clearTimeout(summaryTimer);
    setInert(false);
    conn.close();
    offLang();
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", onResize);
    document.title = t("app_title");
    statusBanner("open");
  };
}
