// The board. renderBoard() draws a view in 3D (iso.js, the default) or flat from above (here), both from the same
// view data and with the same controls (boardkit.js): every square a button with a name saying what is on it and
// what can be done there, one tab stop for the board, arrow keys, Enter/Space. Under the board: the caller's
// buttons (the game page: build a block, add a knight), the switch between the two views (remembered per browser)
// and a quarter turn of the 3D board. Nothing here knows a rule: lit targets come from the caller (view.legal only).

import { h, svg, clear, FILES, PLAYER_COLOURS } from "./dom.js";
import { t } from "./i18n.js";
import * as store from "./store.js";
import { boardModel, squareCell, wireSquares, animateChange, shade, ghostOf, emblemPath, CASTLE_COLOURS, KNIGHT_PATH, CROWN_PATH } from "./boardkit.js";
import { drawIso, coin } from "./iso.js";

export const VIEWS = ["iso", "flat"];
export function boardView() { const v = store.pref("boardView", "iso"); return VIEWS.includes(v) ? v : "iso"; }
export function boardRotation() { const r = Number(store.pref("boardRotation", 0)); return r >= 0 && r < 4 ? r : 0; }

export function squaresIn(text) { return (String(text).match(/\b[a-h][1-8]\b/g) || []); }

/**
 * Draw `view` into `container` (replacing what was there).
 * opts: targets Map(square -> [legal]), selectable Set(squares), selected square, hint [squares],
 *       last [squares], names [seat names], onSquare(squareName, event) for clicks and Enter/Space,
 *       interactive (this page may act now), tools [{id, label, pressed, onClick}]: buttons under the board.
 */
export function renderBoard(container, view, opts = {}) {
  const memory = container.__board || (container.__board = {});
  memory.args = [view, opts];
  const mode = boardView();
  const rotation = mode === "iso" ? boardRotation() : 0;
  const active = document.activeElement;
  const inside = active && active !== document.body && container.contains(active);
  const hadFocus = inside ? active.getAttribute("data-square") : null;
  const toolFocus = inside && !hadFocus ? active.id : null;

  const model = boardModel(view, opts, memory);
  const drawn = mode === "iso" ? drawIso(model, rotation) : drawFlat(model);
  clear(container).append(drawn.root, toolbar(container, opts, mode),
    h("p", { class: "board-keys", id: "board-keys" }, t("board_keys")));
  container.classList.toggle("view-iso", mode === "iso");
  container.classList.toggle("view-flat", mode === "flat");
  wireSquares(drawn.root, model, memory, opts, hadFocus);
  if (toolFocus && document.getElementById(toolFocus)) document.getElementById(toolFocus).focus({ preventScroll: true });

  const drawing = mode + rotation;
  if (memory.view && memory.view !== view && memory.drawing === drawing) animateChange(memory.model, model, drawn);
  memory.view = view;
  memory.model = model;
  memory.drawing = drawing;
  return drawn.root;
}

/** Draw the board again as it was last drawn (after the view switch or a turn). */
function redraw(container) {
  const memory = container.__board;
  if (memory && memory.args) renderBoard(container, ...memory.args);
}

function toolbar(container, opts, mode) {
  const tools = (opts.tools || []).map((tool) => h("button", {
    type: "button", class: ["btn", "small", "mode", tool.pressed ? "on" : null], id: tool.id,
    "aria-pressed": tool.pressed ? "true" : "false", onclick: tool.onClick,
  }, tool.label));
  const choose = (v) => { store.setPref("boardView", v); redraw(container); };
  const viewButton = (v, id, label) => h("button", {
    type: "button", class: ["btn", "small", mode === v ? "on" : null], id, "aria-pressed": mode === v ? "true" : "false",
    onclick: () => choose(v),
  }, label);
  return h("div", { class: "board-tools", id: "board-tools" },
    h("div", { class: "modes", role: tools.length ? "group" : null, "aria-label": tools.length ? t("board_actions") : null }, tools),
    h("span", { class: "spacer" }),
    h("div", { class: "view-switch", role: "group", "aria-label": t("board_view") },
      viewButton("iso", "view-3d", t("view_3d")), viewButton("flat", "view-flat", t("view_flat"))),
    mode === "iso" ? h("button", {
      type: "button", class: "btn small ghost", id: "board-rotate", title: t("rotate_title"),
      onclick: () => { store.setPref("boardRotation", (boardRotation() + 1) % 4); redraw(container); },
    }, h("span", { "aria-hidden": "true" }, "⟳ "), t("rotate")) : null);
}

/** Say something about the board to assistive technology (a polite live region next to it). */
export function announce(container, text) {
  const memory = container.__board || (container.__board = {});
  if (!memory.live) {
    memory.live = h("p", { class: "board-live", id: "board-live", "aria-live": "polite" });
    container.insertAdjacentElement("afterend", memory.live);
  }
  memory.live.textContent = "";
  setTimeout(() => { memory.live.textContent = text; }, 30);
}

/** Where square `name` is on screen (for popovers). */
export function squareRect(container, name) {
  const cell = container.querySelector(`.sq[data-square="${name}"]`);
  if (!cell) return null;
  const r = cell.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

// ---- the flat board, seen from above

const S = 100, LEFT = 34, TOP = 10, W = LEFT + 8 * S + 10, H = TOP + 8 * S + 34;
const xy = (sq) => [LEFT + (sq % 8) * S, TOP + (7 - (sq >> 3)) * S];

function drawFlat(model) {
  const sqs = model.squares;
  const root = svg("svg", {
    id: "board-svg", viewBox: `0 0 ${W} ${H}`, role: "group", tabindex: "-1", "aria-label": t("board_label_flat"),
    "aria-describedby": "board-keys", class: ["board", "flat", model.interactive ? "interactive" : null],
  });
  const art = svg("g", { "aria-hidden": "true" }, svg("rect", { x: LEFT - 6, y: TOP - 6, width: 8 * S + 12, height: 8 * S + 12, rx: 8, class: "frame" }));
  const lines = svg("g", { class: "outlines" }), gold = svg("g", { class: "king-outline" });
  const marks = svg("g", { class: "marks" }), pieces = svg("g"), over = svg("g", { class: "over" }), coords = svg("g", { class: "coords" });
  const blockEl = new Map(), pieceEl = new Map();
  for (const m of sqs) {
    const [x, y] = xy(m.sq), f = m.sq % 8, r = m.sq >> 3;
    // the ground, or the top of a tower in its castle's colour (darker when taller) with its level
    if (!m.level) art.append(svg("rect", { x, y, width: S, height: S, class: (f + r) % 2 ? "ground-b" : "ground-a" }));
    else {
      const c = CASTLE_COLOURS[m.colour] || CASTLE_COLOURS[0], d = Math.min(4 + m.level * 3, 24), k = Math.max(0.55, 1.06 - 0.06 * m.level);
      const top = svg("g", {},
        svg("rect", { x: x + 2, y: y + 2, width: S - d - 2, height: S - d - 2, fill: shade(c.top, k), class: "top" }),
        svg("path", { d: `M${x + 2} ${y + S - d}V${y + 2}H${x + S - d}`, class: "bevel" }),
        svg("rect", { x: x + 4, y: y + 4, width: 30, height: 30, rx: 7, class: "lvl-badge" }),
        svg("text", { x: x + 19, y: y + 28, class: "lvl", "text-anchor": "middle" }, String(m.level)));
      art.append(svg("rect", { x, y, width: S, height: S, fill: shade(c.right, k) }), top);
      blockEl.set(m.sq, top);
      // the castle's outline wherever the castle changes; the king's castle's in gold over it
      for (const [n, x1, y1, x2, y2] of [[r < 7 ? m.sq + 8 : -1, x, y, x + S, y], [r > 0 ? m.sq - 8 : -1, x, y + S, x + S, y + S],
        [f > 0 ? m.sq - 1 : -1, x, y, x, y + S], [f < 7 ? m.sq + 1 : -1, x + S, y, x + S, y + S]]) {
        if (n >= 0 && sqs[n].castle === m.castle) continue;
        lines.append(svg("line", { x1, y1, x2, y2 }));
        if (m.kingCastle) gold.append(svg("line", { x1, y1, x2, y2 }));
      }
    }
    if (m.last) marks.append(svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, class: "last" }));
    if (m.hint) marks.append(svg("rect", { x: x + 7, y: y + 7, width: S - 14, height: S - 14, rx: 8, class: "hint" }));
    // the king, a knight (with its seat's emblem as well as its colour)
    if (m.king || m.seat >= 0) {
      const fig = m.king ? svg("g", { class: "fig king-fig" }, svg("circle", { r: 30, class: "king-disc" }),
        svg("path", { d: CROWN_PATH, transform: "translate(-30 -31) scale(0.6)", class: "crown" }))
        : svg("g", { class: "fig p" + m.seat }, svg("circle", { r: 27, fill: PLAYER_COLOURS[m.seat], class: "token" }),
          svg("path", { d: KNIGHT_PATH, transform: "translate(-23 -25) scale(0.48)", class: "horse" }),
          svg("circle", { cx: -4, cy: -13, r: 2.4, class: "eye" }), svg("circle", { cx: 22, cy: -21, r: 10, class: "emblem-disc" }),
          svg("path", { d: emblemPath(m.seat, 5.4), transform: "translate(22 -21)", fill: PLAYER_COLOURS[m.seat], class: "emblem-flat" }));
      pieceEl.set(m.sq, fig);
      pieces.append(svg("g", { transform: `translate(${x + 58} ${y + 60})` }, fig));
    }
    // a lit target: what would come there and its cost (an AP coin); the selection
    if (m.targets) {
      const kinds = m.targets.map((o) => o.kind), ghost = kinds.every((k) => k === "pick") ? null : ghostOf(kinds);
      over.append(svg("g", { class: ["mark", "k-" + kinds[0]] }, svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 10, class: "lit" }),
        ghost === "block" ? svg("rect", { x: x + 36, y: y + 36, width: 32, height: 32, rx: 4, class: "ghost" }) : null,
        ghost === "knight" ? svg("path", { d: KNIGHT_PATH, transform: `translate(${x + 35} ${y + 35}) scale(0.48)`, class: "ghost" }) : null,
        ghost === "king" ? svg("path", { d: CROWN_PATH, transform: `translate(${x + 28} ${y + 29}) scale(0.6)`, class: "ghost" }) : null,
        m.cost > 0 ? coin(x + 78, y + 78, m.cost) : null));
    }
    if (m.selected || m.selectable) over.append(svg("circle", { cx: x + 58, cy: y + 60, r: m.selected ? 37 : 35, class: m.selected ? "sel-ring" : "can-ring" }));
  }
  for (let i = 0; i < 8; i++) {
    coords.append(svg("text", { x: LEFT + i * S + S / 2, y: TOP + 8 * S + 27, "text-anchor": "middle" }, FILES[i]),
      svg("text", { x: LEFT - 19, y: TOP + (7 - i) * S + S / 2 + 8, "text-anchor": "middle" }, String(i + 1)));
  }
  art.append(lines, gold, marks, pieces, over, coords);
  // the squares as controls, a8 … h1
  const cells = svg("g", { class: "cells" });
  for (let i = 0; i < 64; i++) {
    const m = sqs[(7 - (i >> 3)) * 8 + (i % 8)], [x, y] = xy(m.sq);
    cells.append(squareCell(m, `M${x} ${y}h${S}v${S}h${-S}Z`, null));
  }
  root.append(art, cells);
  return { root, piece: (sq) => pieceEl.get(sq), block: (sq) => blockEl.get(sq), anchor: (sq) => { const [x, y] = xy(sq); return [x + 58, y + 60]; } };
}
