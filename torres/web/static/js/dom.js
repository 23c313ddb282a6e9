// Tiny DOM helpers: h() builds HTML elements, svg() SVG elements; attributes starting with "on" become listeners.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "class") el.setAttribute("class", Array.isArray(v) ? v.filter(Boolean).join(" ") : v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else if (k === "text") el.textContent = v;
      else if (k === "html") el.innerHTML = v;
      // (an input's value, a box's check and an option's choice are attributes too, so that the markup says what a
      // control shows as built, which keepUnchanged() compares)
      else if (k === "value" && el instanceof HTMLInputElement) el.setAttribute("value", v);
      else if (k === "value" && "value" in el) el.value = v;
      else if (k === "checked" || k === "selected") { el.setAttribute(k, ""); el[k] = true; }
      else if (k === "disabled") el.disabled = !!v;
      else el.setAttribute(k, v === true ? "" : v);
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

export function h(tag, attrs, ...children) { return build(document.createElement(tag), attrs, children); }
export function svg(tag, attrs, ...children) { return build(document.createElementNS(SVG_NS, tag), attrs, children); }
export function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }

/** Squares: "c6" <-> index rank*8+file (a1 = 0, h8 = 63), as in docs/notation.md. */
export const FILES = "abcdefgh";
export function squareIndex(name) { return (Number(name[1]) - 1) * 8 + FILES.indexOf(name[0]); }
export function squareName(i) { return FILES[i % 8] + String(Math.floor(i / 8) + 1); }

export const PLAYER_COLOURS = ["#d8413b", "#2f6fd0", "#e6b923", "#3c9a4a"];
export const PLAYER_CLASSES = ["p0", "p1", "p2", "p3"];

export async function api(path, options = {}) {
  const init = { headers: { Accept: "application/json" }, ...options };
  if (options.json !== undefined) {
    init.method = init.method || "POST";
    init.body = typeof options.json === "string" ? options.json : JSON.stringify(options.json);
    init.headers["Content-Type"] = "application/json";
    delete init.json;
  }
  const res = await fetch(path, init);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    let msg = data && data.detail !== undefined ? data.detail : res.statusText;
    if (Array.isArray(msg)) msg = msg.map((d) => (d && d.msg) || JSON.stringify(d)).join("; ");
    else if (typeof msg !== "string") msg = JSON.stringify(msg);
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** The markup each element shown by keepUnchanged() was built with (the page may change it since: a details box
 * opened, a button's label for a moment). */
const built = new WeakMap();

/** Fills `box` with `children` (nulls skipped), keeping each child already there that was built exactly as a new
 * one, in its place: a redraw that would draw the same controls leaves them as they are, since a click pressed on a
 * control and released on its replacement is lost, and the focus, an opened box or a half-typed entry stay where
 * they are. The comparison is of markup, so a kept control keeps its old listeners: a listener must take what it
 * acts on from its element's markup or from the page's state when it runs, never from a value only it holds. A child
 * the page keeps itself (one element passed at every redraw, as a list it fills on its own) stays whatever it shows. */
export function keepUnchanged(box, children) {
  const fresh = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c))));
  const old = [...box.childNodes];
  const again = new Set(fresh.filter((node) => node.parentNode === box)); // a box's own part, passed each time
  const unused = new Map(); // markup -> the children built with it, in order (a part that came or went moves the rest)
  for (const node of old) {
    const markup = built.get(node);
    if (markup !== undefined && !again.has(node)) unused.set(markup, [...(unused.get(markup) || []), node]);
  }
  const shown = fresh.map((node) => {
    if (again.has(node)) return node;
    const markup = node instanceof Element ? node.outerHTML : "#text " + node.textContent;
    const same = unused.get(markup);
    if (same && same.length) return same.shift();
    built.set(node, markup);
    return node;
  });
  if (shown.length === old.length && shown.every((node, i) => node === old[i])) return;
  for (const node of old) if (!shown.includes(node)) node.remove();
  shown.forEach((node, i) => { if (box.childNodes[i] !== node) box.insertBefore(node, box.childNodes[i] || null); });
}

/** Fills each box anew (`fills`: [[box, children], ...]; children built as before are kept, keepUnchanged()) and
 * gives the keyboard's focus back to the control inside them that held it, found again by its id: a redraw must not
 * throw a keyboard or screen-reader user out. */
export function refillKeepingFocus(fills) {
  const active = document.activeElement;
  const focusId = active && active.id && fills.some(([box]) => box.contains(active)) ? active.id : null;
  for (const [box, children] of fills) keepUnchanged(box, children);
  if (focusId) {
    const again = document.getElementById(focusId);
    if (again && !again.disabled && again !== document.activeElement) again.focus({ preventScroll: true });
  }
}
