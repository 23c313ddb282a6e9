// The board in 3D (isometric), back squares first: every block a block — two side faces with a door each, the top on
// the top block — in its castle's colour; knights and the king on top of their towers; lit targets and the selection
// drawn over everything, so a square behind a tall tower stays findable, and the towers in front of the square under
// the pointer or the keyboard focus turn see-through. `rotation` (0–3 quarter turns) brings other sides to the front.

import { svg, squareName, FILES, PLAYER_COLOURS } from "./dom.js";
import { t } from "./i18n.js";
import { CASTLE_COLOURS, KNIGHT_PATH, CROWN_PATH, emblemPath, ghostOf, squareCell } from "./boardkit.js";

const A = 50, B = 31;   // half the width and half the height of a square's top (a steep view: towers hide little)
const BH = 19;          // the height of a block
const SLAB = 14;        // the board's edge
const KNIGHT_H = 44, KING_H = 56, FIG_W = 19;

const P = (x, y) => `${+x.toFixed(1)} ${+y.toFixed(1)}`;
const poly = (points) => "M" + points.map(([x, y]) => P(x, y)).join("L") + "Z";
const rhombus = (cx, cy, a = A, b = B) => [[cx, cy - b], [cx + a, cy], [cx, cy + b], [cx - a, cy]];

/** Do two convex polygons overlap (by more than a hair)? The separating-axis test. */
function overlaps(p, q) {
  for (const poly of [p, q]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i], [x2, y2] = poly[(i + 1) % poly.length];
      const nx = y2 - y1, ny = x1 - x2, len = Math.hypot(nx, ny);
      if (len < 1e-6) continue;
      const span = (pts) => pts.map(([x, y]) => (x * nx + y * ny) / len);
      const a = span(p), b = span(q);
      if (Math.max(...a) <= Math.min(...b) + 2 || Math.max(...b) <= Math.min(...a) + 2) return false;
    }
  }
  return true;
}

/** Once per page, the see-through rule: a tower standing in front of square X has the class occ-X. */
function xrayStyle() {
  if (document.getElementById("board-xray")) return;
  const rule = (state) => Array.from({ length: 64 }, (_, i) => squareName(i))
    .map((n) => `.board.iso:has(.sq[data-square="${n}"]:${state}) .occ-${n}`).join(",") + "{opacity:.22}";
  document.head.append(Object.assign(document.createElement("style"), { id: "board-xray", textContent: rule("focus-visible") + "@media (hover:hover){" + rule("hover") + "}" }));
}

/** Draw the model; returns the svg and what the animations need. */
export function drawIso(model, rotation) {
  xrayStyle();
  const sqs = model.squares;
  const at = sqs.map((m) => {
    let u = m.sq % 8, v = 7 - (m.sq >> 3);   // u + v: the depth (0 at the back corner)
    for (let k = 0; k < rotation; k++) [u, v] = [7 - v, u];
    const gy = (u + v + 1) * B;
    return { u, v, depth: u + v, cx: (u - v) * A, gy, ty: gy - m.level * BH, figH: m.king ? KING_H : m.seat >= 0 ? KNIGHT_H : 0 };
  });
  const spot = new Map(sqs.map((m) => [at[m.sq].u * 8 + at[m.sq].v, m.sq]));
  const order = sqs.map((m) => m.sq).sort((a, b) => at[a].depth - at[b].depth || at[a].u - at[b].u);

  // the drawing's extent: room above the back squares for their towers and pieces
  let top = -(3 * BH + KNIGHT_H + 26);
  for (const a of at) top = Math.min(top, a.ty - B - a.figH - 34);
  const root = svg("svg", {
    id: "board-svg", viewBox: `${-8 * A - 46} ${Math.floor(top)} ${16 * A + 92} ${Math.ceil(16 * B + SLAB + 44 - top)}`,
    role: "group", tabindex: "-1", "aria-label": t("board_label_3d"), "aria-describedby": "board-keys",
    class: ["board", "iso", model.interactive ? "interactive" : null],
  });

  // the board: its edge, the ground, the coordinates along the two front edges
  const F = 16 * B;
  const base = svg("g", { class: "base", "aria-hidden": "true" },
    svg("path", { class: "slab-l", d: poly([[-8 * A, 8 * B], [0, F], [0, F + SLAB], [-8 * A, 8 * B + SLAB]]) }),
    svg("path", { class: "slab-r", d: poly([[0, F], [8 * A, 8 * B], [8 * A, 8 * B + SLAB], [0, F + SLAB]]) }),
    svg("path", { class: "frame", d: poly([[0, -7], [8 * A + 12, 8 * B], [0, F + 7], [-8 * A - 12, 8 * B]]) }));
  for (const m of sqs) {
    if (!m.level) base.append(svg("path", { d: poly(rhombus(at[m.sq].cx, at[m.sq].gy)), class: (m.sq % 8 + (m.sq >> 3)) % 2 ? "ground-b" : "ground-a" }));
  }
  const coords = svg("g", { class: "coords" });
  [[spot.get(7), spot.get(15)], [spot.get(56), spot.get(57)]].forEach(([a, b], e) => {
    for (let i = 0; i < 8; i++) {
      const [u, v] = e ? [7.95, i] : [i, 7.95], sq = spot.get(e ? 56 + i : i * 8 + 7);
      coords.append(svg("text", { x: (u - v) * A, y: (u + v + 1) * B + SLAB + 7, "text-anchor": "middle" },
        a % 8 !== b % 8 ? FILES[sq % 8] : String((sq >> 3) + 1)));
    }
  });
  base.append(coords);

  // the towers, back to front
  const cols = svg("g", { class: "cols", "aria-hidden": "true" });
  const pieceEl = new Map(), blockEl = new Map(), colEl = new Map();
  for (const sq of order) {
    const m = sqs[sq], { u, v, cx, gy, ty } = at[sq];
    const col = svg("g", { class: "col" });
    colEl.set(sq, col);
    if (m.level) {
      const c = CASTLE_COLOURS[m.colour] || CASTLE_COLOURS[0];
      for (let k = 1; k <= m.level; k++) {
        const y0 = gy - (k - 1) * BH, y1 = y0 - BH;  // the centre of the block's bottom and of its top
        const blk = svg("g", { class: "blk" },
          svg("path", { fill: c.left, stroke: c.line, d: poly([[cx - A, y1], [cx, y1 + B], [cx, y0 + B], [cx - A, y0]]) }),
          svg("path", { fill: c.right, stroke: c.line, d: poly([[cx, y1 + B], [cx + A, y1], [cx + A, y0], [cx, y0 + B]]) }),
          svg("path", { class: "door", d: door(cx, y0, -1) + door(cx, y0, 1) }));
        if (k === m.level) {
          blk.append(svg("path", { fill: c.top, stroke: c.line, d: poly(rhombus(cx, y1)) }));
          blockEl.set(sq, blk);
        }
        col.append(blk);
      }
      // the castle's outline on the top: each edge towards another castle or the ground
      const [T, R, Bo, L] = rhombus(cx, ty);
      let d = "";
      for (const [du, dv, p1, p2] of [[0, -1, T, R], [1, 0, R, Bo], [0, 1, Bo, L], [-1, 0, L, T]]) {
        const nu = u + du, nv = v + dv;
        if (!(nu >= 0 && nu < 8 && nv >= 0 && nv < 8 && sqs[spot.get(nu * 8 + nv)].castle === m.castle)) d += `M${P(...p1)}L${P(...p2)}`;
      }
      if (d) col.append(svg("path", { class: ["edge", m.kingCastle ? "king" : null], d }));
    }
    if (m.last) col.append(svg("path", { class: "last", d: poly(rhombus(cx, ty, A - 7, B - 4.5)) }));
    if (m.seat >= 0 || m.king) {
      const fig = m.king ? kingFigure() : knightFigure(m.seat);
      pieceEl.set(sq, fig);
      col.append(svg("g", { transform: `translate(${P(cx, ty)})` }, fig));
    }
    cols.append(col);
  }

  // marks over everything: lit targets with their cost, the selection, the hint
  const over = svg("g", { class: "over", "aria-hidden": "true" });
  for (const sq of order) {
    const m = sqs[sq], { cx, ty } = at[sq];
    if (m.hint) over.append(svg("path", { class: "hint", d: poly(rhombus(cx, ty, A - 5, B - 3)) }));
    if (m.targets) {
      const kinds = m.targets.map((o) => o.kind), pick = kinds.every((k) => k === "pick");
      over.append(svg("g", { class: ["mark", "k-" + kinds[0]] }, svg("path", { class: "lit", d: poly(rhombus(cx, ty, A - 4, B - 2.5)) }),
        pick ? null : ghost(ghostOf(kinds), cx, ty), m.cost > 0 ? coin(cx, ty - 4, m.cost) : null));
    }
    if (m.selected || m.selectable) over.append(svg("ellipse", { class: m.selected ? "sel-ring" : "can-ring", cx, cy: ty, rx: 30, ry: 18.5 }));
  }

  // the squares as controls: the others first, then the lit and selectable ones (their tops win over a tower in
  // front); each takes the pointer on its tower (when active: its top) and its piece
  const cells = svg("g", { class: "cells" });
  const shapes = order.map((sq) => {
    const { cx, gy, ty, figH } = at[sq];
    return { sq, top: rhombus(cx, ty), tower: [[cx, ty - B], [cx + A, ty], [cx + A, gy], [cx, gy + B], [cx - A, gy], [cx - A, ty]],
      fig: figH ? [[cx - FIG_W, ty - figH], [cx + FIG_W, ty - figH], [cx + FIG_W, ty], [cx - FIG_W, ty]] : null };
  });
  for (const active of [false, true]) {
    for (const s of shapes) {
      const m = sqs[s.sq], { cx, ty, figH } = at[s.sq];
      if (m.active !== active) continue;
      const outline = poly(active ? s.top : s.tower);
      cells.append(squareCell(m, s.fig ? outline + poly(s.fig) : outline, tip(m, cx, ty - B - figH - 16), outline));
    }
  }
  root.append(base, cols, over, cells);

  // which towers stand in front of which squares
  for (const s of shapes) {
    const mine = s.fig ? [s.top, s.fig] : [s.top];
    for (const o of shapes) {
      if (at[o.sq].depth <= at[s.sq].depth || Math.abs(at[o.sq].cx - at[s.sq].cx) > A + 1) continue;
      const theirs = o.fig ? [o.tower, o.fig] : [o.tower];
      if (mine.some((p) => theirs.some((q) => overlaps(p, q)))) colEl.get(o.sq).classList.add("occ-" + sqs[s.sq].name);
    }
  }
  return { root, piece: (sq) => pieceEl.get(sq), block: (sq) => blockEl.get(sq), anchor: (sq, level) => [at[sq].cx, at[sq].gy - level * BH] };
}

/** A door in a block's side face (side -1 the left face, 1 the right); y0: the centre of the block's bottom. */
function door(cx, y0, side) {
  const p = (s, h) => P(side < 0 ? cx - A + s * A : cx + s * A, (side < 0 ? y0 + s * B : y0 + B - s * B) - h * BH);
  return `M${p(0.42, 0)}L${p(0.42, 0.5)}Q${p(0.5, 0.78)} ${p(0.58, 0.5)}L${p(0.58, 0)}Z`;
}

function knightFigure(seat) {
  const colour = PLAYER_COLOURS[seat] || "#888";
  return svg("g", { class: ["fig", "p" + seat] },
    svg("ellipse", { class: "base", rx: 19, ry: 11.5, fill: colour }),
    svg("path", { class: "horse", d: KNIGHT_PATH, fill: colour, transform: "translate(-21.9 -42.5) scale(0.46)" }),
    svg("circle", { class: "eye", cx: -4, cy: -28.9, r: 1.8 }),
    svg("path", { class: "emblem", d: emblemPath(seat, 4.6), transform: "translate(-0.5 -13.5)" }));
}

function kingFigure() {
  return svg("g", { class: "fig king-fig" },
    svg("ellipse", { class: "king-base", rx: 20, ry: 12 }),
    svg("path", { class: "robe", d: "M-15 1C-15-16-12-29-7-37H7C12-29 15-16 15 1Z" }),
    svg("path", { class: "crown", d: CROWN_PATH, transform: "translate(-22.5 -63.5) scale(0.45)" }));
}

/** What a target would bring: a block, a knight, the king, or a step. */
function ghost(kind, cx, ty) {
  if (kind === "block") {
    const y1 = ty - BH;
    return svg("g", { class: "ghost block" },
      svg("path", { d: poly([[cx - A + 8, y1 + 4], [cx, y1 + B], [cx, ty + B - 8], [cx - A + 8, ty - 4]]) }),
      svg("path", { d: poly([[cx, y1 + B], [cx + A - 8, y1 + 4], [cx + A - 8, ty - 4], [cx, ty + B - 8]]) }),
      svg("path", { class: "gtop", d: poly(rhombus(cx, y1 + 4, A - 8, B - 5)) }));
  }
  if (kind === "knight") return svg("path", { class: "ghost", d: KNIGHT_PATH, transform: `translate(${P(cx - 21.9, ty - 42.5)}) scale(0.46)` });
  if (kind === "king") return svg("path", { class: "ghost", d: CROWN_PATH, transform: `translate(${P(cx - 22.5, ty - 44)}) scale(0.45)` });
  return svg("ellipse", { class: "ghost", cx, cy: ty, rx: 17, ry: 10.5 });
}

/** The cost of a target: a coin with its action points (the AP sign), never a bare number. */
export function coin(x, y, cost) {
  return svg("g", { class: "coin", transform: `translate(${P(x, y)})` }, svg("circle", { r: 13 }),
    svg("text", { y: 2.5, "text-anchor": "middle" }, String(cost)), svg("text", { class: "ap", y: 9.5, "text-anchor": "middle" }, "AP"));
}

/** The square and its level, shown while it has the pointer or the keyboard focus. */
function tip(m, cx, y) {
  return svg("text", { class: "tip", "aria-hidden": "true", x: +cx.toFixed(1), y: +(y + 3).toFixed(1), "text-anchor": "middle" }, t("sq_tip", { sq: m.name, n: m.level }));
}
