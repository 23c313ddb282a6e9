// What both board views share: the squares as the view has them and their accessible names, castle colours kept
// from one view to the next, the squares as controls (one tab stop, arrow keys, Enter/Space, focus kept across
// redraws) and the brief animations between two views. No rule here: targets come from the caller (view.legal).

import { svg, squareIndex, squareName } from "./dom.js";
import { t, cardName } from "./i18n.js";

/** Castle colours: ten tints of stone, far from the players' red, blue, yellow and green. */
export const CASTLE_COLOURS = ["#dcc08c", "#92a9d6", "#d48c6c", "#a3c486", "#bea0dc", "#74c2b8", "#e6a2b8", "#bcb9ad",
  "#a9835f", "#c3c064"].map((c) => ({ top: c, left: shade(c, 0.8), right: shade(c, 0.64), line: shade(c, 0.42) }));

export function shade(hex, k) {
  const n = parseInt(hex.slice(1), 16);
  const f = (v) => Math.min(255, Math.round(v * k)).toString(16).padStart(2, "0");
  return "#" + f(n >> 16) + f((n >> 8) & 255) + f(n & 255);
}

/** A seat's emblem (circle, square, triangle, diamond): colour is never the only sign of a player. */
export function emblemPath(seat, r) {
  return [`M${-r} 0a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`, `M${-r} ${-r}H${r}V${r}H${-r}Z`,
    `M0 ${-1.15 * r}L${1.1 * r} ${0.8 * r}H${-1.1 * r}Z`, `M0 ${-1.25 * r}L${1.1 * r} 0L0 ${1.25 * r}L${-1.1 * r} 0Z`][seat % 4];
}

export const KNIGHT_PATH = "M28 90 L78 90 C80 72 76 58 72 47 C69 35 67 24 59 16 L57 5 L50 13 C40 13 30 20 24 30 L13 47 C11 53 14 58 20 57 L31 53 C35 52 39 54 40 57 C35 64 29 73 28 90 Z";
export const CROWN_PATH = "M18 70 L14 34 L32 50 L50 24 L68 50 L86 34 L82 70 Z";

/** What a target would bring to its square: a block, a knight, the king, or a step. */
export function ghostOf(kinds) {
  const has = (list) => kinds.some((k) => list.includes(k));
  return has(["block", "build", "castle", "lift", "shift"]) ? "block" : has(["knight", "start"]) ? "knight" : has(["king"]) ? "king" : "step";
}

/**
 * The 64 squares (a1 = 0) as the view has them, with the caller's marks: {sq, name, level, castle, area, colour,
 * kingCastle, seat (-1: none), king, targets, selectable, selected, hint, last, cost, active, label}.
 */
export function boardModel(view, opts, memory) {
  const castles = view.castles || view.heights.map((h) => (h > 0 ? 0 : -1));
  const kingSq = view.king ? squareIndex(view.king) : -1;
  const area = new Map();
  castles.forEach((c) => area.set(c, (area.get(c) || 0) + 1));
  const seatAt = new Array(64).fill(-1);
  (view.knights || []).forEach((list, seat) => list.forEach((name) => { seatAt[squareIndex(name)] = seat; }));
  const colour = castleColours(castles, memory);
  const targets = opts.targets || new Map(), selectable = opts.selectable || new Set();
  const hint = new Set(opts.hint || []), last = new Set(opts.last || []);
  const squares = view.heights.map((level, sq) => {
    const name = squareName(sq), c = castles[sq], tg = targets.get(name) || null;
    const m = {
      sq, name, level, castle: c, area: c >= 0 ? area.get(c) : 0, colour: c >= 0 ? colour.get(c) : -1,
      kingCastle: c >= 0 && kingSq >= 0 && c === castles[kingSq], seat: seatAt[sq], king: sq === kingSq, targets: tg,
      selectable: selectable.has(name), selected: opts.selected === name, hint: hint.has(name), last: last.has(name),
      cost: tg ? Math.max(0, ...tg.map((o) => o.cost || 0)) : 0,
    };
    m.active = !!(tg || m.selectable || m.selected);
    m.label = squareLabel(m, opts.names || []);
    return m;
  });
  return { squares, interactive: !!opts.interactive };
}

/** A castle keeps its colour as it grows: colours follow the squares of the last view drawn (by majority). */
function castleColours(castles, memory) {
  const before = memory.colourOf || [], squaresOf = new Map(), result = new Map(), used = new Set();
  castles.forEach((c, sq) => { if (c >= 0) (squaresOf.get(c) || squaresOf.set(c, []).get(c)).push(sq); });
  for (const [c, sqs] of squaresOf) {
    const votes = new Map();
    for (const sq of sqs) if (before[sq] >= 0) votes.set(before[sq], (votes.get(before[sq]) || 0) + 1);
    const best = [...votes].sort((a, b) => b[1] - a[1] || a[0] - b[0]).find(([k]) => !used.has(k));
    if (best) { result.set(c, best[0]); used.add(best[0]); }
  }
  const n = CASTLE_COLOURS.length;
  for (const [c, sqs] of squaresOf) {
    if (result.has(c)) continue;
    let k = (sqs[0] * 7) % n;
    for (let i = 0; i < n && used.has(k); i++) k = (k + 1) % n;
    result.set(c, k);
    used.add(k);
  }
  memory.colourOf = castles.map((c) => (c >= 0 ? result.get(c) : -1));
  return result;
}

/** What a lit square offers, in words. */
export function targetText(options) {
  const real = options.filter((o) => o.kind !== "pick");
  if (!real.length) return t("tgt_pick", { card: cardName(options[0].card || "") });
  const a = real[0], key = "tgt_" + a.kind;
  let what = a.card ? t("tgt_card", { card: cardName(a.card) }) : t(key) === key ? a.action : t(key);
  if (real.length > 1) what += " (" + t("tgt_choices", { n: real.length }) + ")";
  return what;
}

/** A square's accessible name: where, how high, which castle, what stands there, what can be done there. */
export function squareLabel(m, names) {
  const parts = [m.name, m.level ? t("sq_level", { n: m.level }) : t("sq_ground")];
  if (m.castle >= 0) parts.push(t(m.kingCastle ? "sq_king_castle" : "sq_castle", { n: m.area }));
  if (m.seat >= 0) {
    const colours = t("seat_colours");
    parts.push(t("sq_knight", { name: names[m.seat] || t("default_human", { n: m.seat + 1 }), colour: colours[m.seat] || "" }));
  }
  if (m.king) parts.push(t("sq_king"));
  if (m.selected || m.selectable) parts.push(t(m.selected ? "sq_selected" : "sq_selectable"));
  if (m.targets) parts.push(targetText(m.targets) + (m.cost > 0 ? ": " + t("move_cost", { n: m.cost }) : ""));
  if (m.hint) parts.push(t("sq_hint"));
  if (m.last) parts.push(t("sq_last"));
  return parts.join(", ");
}

/** A square as a control: a transparent `shape` (it takes the pointer) over the drawing, its `outline` shown on
 *  hover and focus, named for assistive technology, with the hooks tests and tools look for (data-square, target,
 *  k-<kind>, knight, selectable). */
export function squareCell(m, shape, extra, outline = shape) {
  const tg = m.targets || [], real = tg.filter((o) => o.kind !== "pick");
  const g = svg("g", {
    class: ["sq", m.level ? "castle" : "ground", tg.length ? "target k-" + tg[0].kind : null, tg.length > 1 ? "multi" : null,
      m.seat >= 0 ? "knight p" + m.seat : null, m.selectable ? "selectable" : null, m.selected ? "selected" : null],
    role: "button", tabindex: "-1", "aria-label": m.label, "data-square": m.name, "data-level": m.level,
    "data-action": real.length ? real[0].action : null, "data-count": tg.length || null, "data-seat": m.seat >= 0 ? m.seat : null,
  }, svg("path", { d: shape, class: "hit" }), svg("path", { d: outline, class: "hl" }));
  if (extra) g.append(extra);
  return g;
}

// ---- keyboard and focus

const READING = Array.from({ length: 64 }, (_, i) => (7 - (i >> 3)) * 8 + (i % 8)); // a8 … h1
const STEP = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

/** One tab stop for the board (where the focus last was), arrow keys, Home/End, PageUp/PageDown, N/P to the next
 *  or previous lit square, Enter/Space to act; the focus goes back where it was before the redraw. */
export function wireSquares(root, model, memory, opts, hadFocus) {
  const cells = new Map([...root.querySelectorAll(".sq")].map((el) => [el.getAttribute("data-square"), el]));
  const active = READING.filter((sq) => model.squares[sq].active);
  if (!cells.has(memory.focus)) memory.focus = (model.squares.find((m) => m.selected) || model.squares[active[0] ?? 27]).name;
  cells.get(memory.focus).setAttribute("tabindex", "0");
  const at = (ev) => ev.target.closest && ev.target.closest(".sq");
  // a click moves no tab stop (it changes no markup): the next redraw does
  root.addEventListener("focusin", (ev) => { if (at(ev)) memory.focus = at(ev).getAttribute("data-square"); });
  root.addEventListener("keydown", (ev) => {
    const el = at(ev);
    if (!el || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const name = el.getAttribute("data-square"), sq = squareIndex(name), f = sq % 8, r = sq >> 3, key = ev.key;
    let next = null;
    if (STEP[key]) {
      const [df, dr] = STEP[key];
      if (f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8) next = sq + df + 8 * dr;
    } else if (key === "Home" || key === "End") next = r * 8 + (key === "End" ? 7 : 0);
    else if (key === "PageUp" || key === "PageDown") next = f + (key === "PageUp" ? 56 : 0);
    else if ("nNpP".includes(key) && key.length === 1) {
      const back = key === "p" || key === "P" || key === "N", i = READING.indexOf(sq);
      const order = READING.slice(i + 1).concat(READING.slice(0, i + 1));
      next = (back ? order.reverse().slice(1).concat([sq]) : order).find((s) => model.squares[s].active) ?? null;
    } else if (key === "Enter" || key === " ") {
      ev.preventDefault();
      ev.stopPropagation();
      if (opts.onSquare) opts.onSquare(name, ev);
      return;
    } else return;
    ev.preventDefault();
    ev.stopPropagation(); // the arrow keys move over the board here (not, say, the replay's frames)
    if (next === null) return;
    for (const other of root.querySelectorAll('.sq[tabindex="0"]')) other.setAttribute("tabindex", "-1");
    const to = cells.get(squareName(next));
    to.setAttribute("tabindex", "0");
    memory.focus = squareName(next);
    to.focus();
  });
  if (opts.onSquare) root.addEventListener("click", (ev) => { if (at(ev)) opts.onSquare(at(ev).getAttribute("data-square"), ev); });
  // Focused once the whole page is redrawn (a microtask): focusing now would lay the page out in the middle of the
  // redraw, and again after it (about 10 ms of a 20 ms update).
  const refocus = cells.get(hadFocus);
  if (refocus) queueMicrotask(() => { if (refocus.isConnected) refocus.focus({ preventScroll: true }); });
}

// ---- motion

export const MOTION_MS = 250;

/**
 * Animate what changed since the last view drawn: a knight or the king moved, came or rose with its square, a block
 * was placed or shifted. `drawn`: piece(sq), block(sq) (elements without a transform of their own) and
 * anchor(sq, level), where a piece stands, in the drawing's units.
 */
export function animateChange(before, model, drawn) {
  if (!before || (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
  const now = model.squares, was = before.squares;
  const changed = now.filter((m, i) => m.level !== was[i].level || m.seat !== was[i].seat || m.king !== was[i].king);
  if (!changed.length || changed.length > 6) return; // nothing, or a jump (a reconnect, a replay skipping ahead)
  const go = (el, frames) => el && el.animate(frames, { duration: MOTION_MS, easing: "cubic-bezier(.25,.7,.35,1)" });
  const slide = (el, from, to, hop) => {
    const dx = from[0] - to[0], dy = from[1] - to[1];
    go(el, [{ transform: `translate(${dx}px,${dy}px)` }, { transform: `translate(${dx / 2}px,${dy / 2 - hop}px)` }, { transform: "none" }]);
  };
  const drop = (el, dy) => go(el, [{ transform: `translate(0,${-dy}px)`, opacity: 0 }, { transform: "none", opacity: 1 }]);
  const moved = new Set();
  const pieces = (pick) => {                // one square left and one taken is a move; otherwise pieces come
    const gone = was.filter((m) => pick(m) && !pick(now[m.sq])), came = now.filter((m) => pick(m) && !pick(was[m.sq]));
    if (gone.length === 1 && came.length === 1) slide(drawn.piece(came[0].sq), drawn.anchor(gone[0].sq, gone[0].level), drawn.anchor(came[0].sq, came[0].level), 20);
    else came.forEach((m) => drop(drawn.piece(m.sq), 30));
    came.forEach((m) => moved.add(m.sq));
  };
  for (const seat of new Set(changed.map((m) => m.seat).concat(changed.map((m) => was[m.sq].seat)))) if (seat >= 0) pieces((m) => m.seat === seat);
  pieces((m) => m.king);
  const up = now.filter((m, i) => m.level > was[i].level), down = now.filter((m, i) => m.level < was[i].level);
  if (up.length === 1 && down.length === 1) slide(drawn.block(up[0].sq), drawn.anchor(down[0].sq, was[down[0].sq].level), drawn.anchor(up[0].sq, up[0].level), 20);
  else up.forEach((m) => drop(drawn.block(m.sq), 36));
  // a piece that stayed while its square grew (the lift card) rises with it
  for (const m of up) {
    if (!moved.has(m.sq) && (m.seat >= 0 || m.king)) slide(drawn.piece(m.sq), drawn.anchor(m.sq, was[m.sq].level), drawn.anchor(m.sq, m.level), 0);
  }
}

const DIRECT_KINDS = ["start", "king", "castle"];
const MODE_KINDS = ["block", "knight"];

/** A click (or Enter) on square `name` of a board that plays from the legal actions `L` (the analysis board,
 * puzzles): one action that fits is played (`act`), several are offered (`st.choice`, its first button focused), a
 * knight is picked up or put down (`say`: what it can reach, for screen readers), anything else drops the
 * selection. `st.sel` is the page's selection; `render` draws the page again. */
export function boardSquare(name, { st, L, act, render, say }) {
  if (!L.length) return;
  const { targets, selectable } = boardTargets(L, st.sel, true);
  const options = targets.get(name);
  if (options) {
    const real = options.filter((o) => o.kind !== "pick");
    if (!real.length) { st.sel = { ...st.sel, from: name }; render(); return; }
    if (real.length === 1) { act(real[0].action); return; }
    st.choice = { square: name, options: real };
    render();
    const first = document.querySelector("#square-choice button");
    if (first) first.focus();
    return;
  }
  if (selectable.has(name)) {
    st.sel = st.sel && st.sel.type === "knight" && st.sel.sq === name ? null : { type: "knight", sq: name };
    render();
    say(st.sel ? t("ann_knight", { sq: name, n: boardTargets(L, st.sel, true).targets.size }) : t("ann_none"));
    return;
  }
  if (st.sel) { st.sel = null; render(); }
}

/** What the board lights up, from the legal actions on offer (`L`) and the selection (a knight, a mode, a card):
 * squares to act on (each with its actions), knights to pick up, the grouped modes. `direct`: the actions that need
 * no selection (a start knight, the king, a castle) light up without one — on the game page, not on the
 * tutorial's board. Shared by both, so a lesson's board behaves as a game's. */
export function boardTargets(L, sel, direct) {
  const targets = new Map();
  const selectable = new Set();
  const modes = [];
  let selected = null;
  const add = (sq, a) => { if (!targets.has(sq)) targets.set(sq, []); targets.get(sq).push(a); };
  if (sel && sel.type === "card") {
    const plays = L.filter((a) => a.card === sel.card && a.kind !== "keep");
    const two = plays.filter((a) => a.from);
    const froms = [...new Set(two.map((a) => a.from))];
    const from = sel.from || (froms.length === 1 ? froms[0] : null);
    const pick = (f) => add(f, { kind: "pick", pick: f, card: sel.card, cost: 0 });
    if (from) {
      selected = from;
      two.filter((a) => a.from === from).forEach((a) => add(a.to, a));
      froms.filter((f) => f !== from).forEach(pick);
    } else {
      froms.forEach(pick);
    }
    plays.filter((a) => !a.from && a.to).forEach((a) => add(a.to, a));
  } else {
    const moves = L.filter((a) => a.kind === "move");
    moves.forEach((a) => selectable.add(a.from));
    for (const kind of MODE_KINDS) {
      const acts = L.filter((a) => a.kind === kind && a.to);
      if (acts.length) modes.push({ kind, cost: Math.max(...acts.map((a) => a.cost || 0)), on: !!(sel && sel.type === "mode" && sel.kind === kind) });
    }
    if (sel && sel.type === "knight") {
      selected = sel.sq;
      moves.filter((a) => a.from === sel.sq).forEach((a) => add(a.to, a));
    } else if (sel && sel.type === "mode") {
      L.filter((a) => a.kind === sel.kind && a.to).forEach((a) => add(a.to, a));
    } else if (direct) {
      L.filter((a) => DIRECT_KINDS.includes(a.kind) && a.to).forEach((a) => add(a.to, a));
    }
  }
  return { targets, selectable, selected, modes };
}
