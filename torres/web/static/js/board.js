// The board in SVG, seen from above: ground, castle blocks shaded by level with the level number, castle
// outlines, the king's castle in gold, knights and the king, coordinates a–h / 1–8 (a1 bottom-left), and the
// lit targets the caller passes in (from view.legal only: nothing here knows a rule).

import { svg, clear, FILES, squareName, squareIndex, PLAYER_COLOURS } from "./dom.js";

const S = 100;            // one square
const LEFT = 34, BOTTOM = 34, TOP = 10, RIGHT = 10;
const W = LEFT + 8 * S + RIGHT, H = TOP + 8 * S + BOTTOM;

// Stone from light (level 1) to dark (level 8+): a taller tower reads darker.
const LEVEL_FILL = ["#e7dcb9", "#dcd2c2", "#c4b7a2", "#ab9c84", "#938268", "#7a6950", "#63543f", "#4e4232", "#3c3327"];
const LEVEL_SIDE = ["#e7dcb9", "#b9ab92", "#a09079", "#877761", "#6f604b", "#5a4c39", "#463a2b", "#352c20", "#271f17"];
const KNIGHT_PATH = "M28 90 L78 90 C80 72 76 58 72 47 C69 35 67 24 59 16 L57 5 L50 13 C40 13 30 20 24 30 L13 47 C11 53 14 58 20 57 L31 53 C35 52 39 54 40 57 C35 64 29 73 28 90 Z";
const CROWN_PATH = "M18 70 L14 34 L32 50 L50 24 L68 50 L86 34 L82 70 Z";

function xy(sq) { return [LEFT + (sq % 8) * S, TOP + (7 - Math.floor(sq / 8)) * S]; }

export function squaresIn(text) { return (String(text).match(/\b[a-h][1-8]\b/g) || []); }

/**
 * Draw `view` into `container` (replacing what was there).
 * opts: targets Map(square -> [legal]), selectable Set(squares), selected square, hint [squares],
 *       last [squares], names [seat names], onSquare(squareName) for clicks.
 */
export function renderBoard(container, view, opts = {}) {
  const targets = opts.targets || new Map();
  const selectable = opts.selectable || new Set();
  const hint = new Set(opts.hint || []);
  const last = new Set(opts.last || []);
  const heights = view.heights;
  const castles = view.castles || heights.map((h) => (h > 0 ? 0 : -1));
  const kingSq = view.king ? squareIndex(view.king) : -1;
  const kingCastle = kingSq >= 0 ? castles[kingSq] : -1;

  const root = svg("svg", {
    id: "board-svg", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Torres board",
    class: ["board", opts.interactive ? "interactive" : null],
  });

  // frame
  root.append(svg("rect", { x: LEFT - 6, y: TOP - 6, width: 8 * S + 12, height: 8 * S + 12, rx: 8, class: "frame" }));

  // squares (the click targets of the bottom layer)
  const base = svg("g", { class: "squares" });
  for (let sq = 0; sq < 64; sq++) {
    const [x, y] = xy(sq);
    const level = heights[sq];
    const name = squareName(sq);
    const g = svg("g", { class: ["sq", level ? "castle" : "ground"], "data-square": name, "data-level": level });
    if (!level) {
      const dark = (sq % 8 + Math.floor(sq / 8)) % 2 === 0;
      g.append(svg("rect", { x, y, width: S, height: S, class: dark ? "ground-a" : "ground-b" }));
    } else {
      const l = Math.min(level, LEVEL_FILL.length - 1);
      const d = Math.min(4 + level * 3, 24); // the side of the tower: taller, thicker
      g.append(svg("rect", { x, y, width: S, height: S, fill: LEVEL_SIDE[l] }));
      g.append(svg("rect", { x: x + 2, y: y + 2, width: S - d - 2, height: S - d - 2, fill: LEVEL_FILL[l], class: "top" }));
      g.append(svg("path", { d: `M${x + 2} ${y + S - d} L${x + 2} ${y + 2} L${x + S - d} ${y + 2}`, class: "bevel" }));
      const light = l <= 3;
      g.append(svg("rect", { x: x + 5, y: y + 5, width: 34, height: 34, rx: 8, class: ["lvl-badge", light ? "light" : "dark"] }));
      g.append(svg("text", { x: x + 22, y: y + 32, class: ["lvl", light ? "light" : "dark"], "text-anchor": "middle" }, String(level)));
    }
    g.append(svg("title", {}, level ? `${name} · level ${level}` : name));
    base.append(g);
  }
  root.append(base);

  // castle outlines: a thick line wherever the castle id changes
  const lines = svg("g", { class: "outlines" });
  const gold = svg("g", { class: "king-outline" });
  for (let sq = 0; sq < 64; sq++) {
    const c = castles[sq];
    if (c < 0) continue;
    const [x, y] = xy(sq);
    const f = sq % 8, r = Math.floor(sq / 8);
    const edges = [
      [r < 7 ? castles[sq + 8] : -2, x, y, x + S, y],          // top
      [r > 0 ? castles[sq - 8] : -2, x, y + S, x + S, y + S],  // bottom
      [f > 0 ? castles[sq - 1] : -2, x, y, x, y + S],          // left
      [f < 7 ? castles[sq + 1] : -2, x + S, y, x + S, y + S],  // right
    ];
    for (const [other, x1, y1, x2, y2] of edges) {
      if (other === c) continue;
      lines.append(svg("line", { x1, y1, x2, y2 }));
      if (c === kingCastle) gold.append(svg("line", { x1, y1, x2, y2 }));
    }
  }
  root.append(lines, gold);

  // last action, hint, selection
  const marks = svg("g", { class: "marks" });
  for (const name of last) {
    const [x, y] = xy(squareIndex(name));
    marks.append(svg("rect", { x: x + 4, y: y + 4, width: S - 8, height: S - 8, rx: 6, class: "last" }));
  }
  for (const name of hint) {
    const [x, y] = xy(squareIndex(name));
    marks.append(svg("rect", { x: x + 7, y: y + 7, width: S - 14, height: S - 14, rx: 8, class: "hint" }));
  }
  root.append(marks);

  // pieces
  const pieces = svg("g", { class: "pieces" });
  if (kingSq >= 0) {
    const [x, y] = xy(kingSq);
    pieces.append(svg("g", { class: "king", "data-at": view.king, transform: `translate(${x + 50} ${y + 54})` },
      svg("circle", { r: 33, class: "king-disc" }),
      svg("path", { d: CROWN_PATH, transform: "translate(-33 -33) scale(0.66)", class: "crown" }),
      svg("title", {}, `king · ${view.king}`)));
  }
  (view.knights || []).forEach((list, seat) => {
    for (const name of list) {
      const sq = squareIndex(name);
      const [x, y] = xy(sq);
      const isSel = opts.selected === name;
      const sel = selectable.has(name);
      const g = svg("g", {
        class: ["knight", "p" + seat, sel ? "selectable" : null, isSel ? "selected" : null],
        "data-seat": seat, "data-at": name, transform: `translate(${x + 54} ${y + 56})`,
      });
      if (isSel) g.append(svg("circle", { r: 42, class: "sel-ring" }));
      else if (sel) g.append(svg("circle", { r: 39, class: "can-ring" }));
      g.append(svg("circle", { r: 31, fill: PLAYER_COLOURS[seat], class: "token" }));
      g.append(svg("path", { d: KNIGHT_PATH, transform: "translate(-25 -27) scale(0.54)", class: "horse" }));
      g.append(svg("circle", { cx: -4, cy: -11, r: 2.6, class: "eye" }));
      g.append(svg("title", {}, `${(opts.names && opts.names[seat]) || "seat " + seat} · ${name} · level ${heights[sq]}`));
      pieces.append(g);
    }
  });
  root.append(pieces);

  // lit targets (on top, so a target on a knight's square is clickable)
  const lit = svg("g", { class: "targets" });
  for (const [name, options] of targets) {
    const [x, y] = xy(squareIndex(name));
    const first = options[0];
    const kinds = new Set(options.map((o) => o.kind));
    const g = svg("g", {
      class: ["target", "k-" + first.kind, options.length > 1 ? "multi" : null],
      "data-square": name, "data-action": first.action, "data-count": options.length,
    });
    g.append(svg("rect", { x: x + 3, y: y + 3, width: S - 6, height: S - 6, rx: 10, class: "lit" }));
    if (kinds.has("block") || kinds.has("build") || kinds.has("castle")) {
      g.append(svg("rect", { x: x + 33, y: y + 33, width: 34, height: 34, rx: 4, class: "ghost-block" }));
    }
    if (kinds.has("knight") || kinds.has("start")) {
      g.append(svg("circle", { cx: x + 54, cy: y + 56, r: 24, class: "ghost-knight" }));
    }
    const cost = Math.max(...options.map((o) => o.cost || 0));
    if (cost > 0) {
      g.append(svg("text", { x: x + S - 10, y: y + S - 10, "text-anchor": "end", class: "cost" }, `${cost}`));
    }
    lit.append(g);
  }
  root.append(lit);

  // coordinates
  const coords = svg("g", { class: "coords" });
  for (let i = 0; i < 8; i++) {
    coords.append(svg("text", { x: LEFT + i * S + S / 2, y: TOP + 8 * S + 27, "text-anchor": "middle" }, FILES[i]));
    coords.append(svg("text", { x: LEFT - 19, y: TOP + (7 - i) * S + S / 2 + 8, "text-anchor": "middle" }, String(i + 1)));
  }
  root.append(coords);

  if (opts.onSquare) {
    root.addEventListener("click", (ev) => {
      const el = ev.target.closest("[data-square], [data-at]");
      if (!el) return;
      opts.onSquare(el.getAttribute("data-square") || el.getAttribute("data-at"), ev);
    });
  }
  clear(container).append(root);
  return root;
}

/** Where square `name` is on screen (for popovers). */
export function squareRect(container, name) {
  const root = container.querySelector("svg");
  if (!root) return null;
  const box = root.getBoundingClientRect();
  const [x, y] = xy(squareIndex(name));
  const k = box.width / W;
  return { left: box.left + x * k, top: box.top + y * k, width: S * k, height: S * k };
}
