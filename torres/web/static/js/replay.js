// The replay viewer: /replay/<id> (a finished game from the server) and /replay (upload a record file).
// Frame i is the table after i actions (docs/server.md); nothing is secret any more, so all hands show.

import { h, clear, api, keepUnchanged } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { renderBoard, squaresIn } from "./board.js";
import * as P from "./panels.js";
import { seatNames } from "./game.js";
import { analysisPanel, boardMarks } from "./analysis.js";

export async function replayPage(root, gameId) {
  clear(root);
  if (!gameId) return uploadPage(root);
  root.append(h("p", { class: "loading" }, t("loading")));
  let data, summary = null;
  try {
    [data, summary] = await Promise.all([
      api(`/api/games/${encodeURIComponent(gameId)}/replay`),
      api(`/api/games/${encodeURIComponent(gameId)}`).catch(() => null),
    ]);
  } catch (e) {
    clear(root).append(h("div", { class: "page narrow" },
      h("h1", { class: "page-title" }, e.status === 403 ? t("replay_not_ready") : e.status === 404 ? t("not_found") : t("error", { msg: e.message })),
      e.status === 403 ? h("p", {}, h("a", { href: `/game/${gameId}`, "data-link": "" }, t("open"))) : null,
      h("p", {}, h("a", { href: "/", "data-link": "" }, t("back_home")))));
    return () => {};
  }
  return viewer(root, data, {
    title: t("replay_of", { id: gameId }), names: namesFor(data, summary), gameId,
    download: { href: `/api/games/${encodeURIComponent(gameId)}/record`, name: `torres-${gameId}.json` },
  });
}

function namesFor(data, summary) {
  const n = data.record.players;
  if (summary) return seatNames(summary, n);
  const meta = data.record.meta || {};
  const list = meta.names || meta.players || meta.seats;
  return Array.from({ length: n }, (_, s) => {
    const v = Array.isArray(list) ? list[s] : null;
    if (typeof v === "string") return v;
    if (v && v.name) return v.name;
    return t("default_human", { n: s + 1 });
  });
}

function uploadPage(root) {
  const err = h("p", { class: "error", id: "upload-error", role: "alert" });
  const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  const inputLabel = h("label", { for: "record-file", class: "file-label" }, t("record_file"));
  const form = h("form", { class: "card-box", id: "upload-form", onsubmit: async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const file = input.files && input.files[0];
    if (!file) return;
    const text = await file.text();
    try {
      const data = await api("/api/replay", { json: text });
      const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
      cleanup = viewer(root, data, { title: file.name, names: namesFor(data, null), download: { href: url, name: file.name } });
    } catch (e) {
      err.textContent = t("upload_failed", { msg: e.message });
    }
  } }, h("h1", { class: "page-title" }, t("upload_title")), h("p", {}, t("upload_help")), inputLabel, input, " ",
  h("button", { type: "submit", class: "btn primary", id: "upload-submit" }, t("upload")), err);
  let cleanup = () => {};
  root.append(h("div", { class: "page narrow" }, form));
  return () => cleanup();
}

/** "Continue from here": this moment of a finished game on the analysis board (sandbox.js). */
async function continueFrom(gameId, at) {
  try {
    const res = await api(`/api/games/${encodeURIComponent(gameId)}/position?at=${at}`);
    history.pushState(null, "", "/board?" + new URLSearchParams({ position: res.position }).toString());
    dispatchEvent(new PopStateEvent("popstate"));   // the app's router (app.js) opens the board
  } catch (e) {
    const box = document.getElementById("replay-controls");
    if (box) box.append(h("p", { class: "error", role: "alert" }, t("error", { msg: e.message })));
  }
}

function viewer(root, data, opts) {
  const frames = data.frames;
  const actions = data.actions || data.record.actions;
  const scorings = data.scorings || [];
  const last = frames.length - 1;
  let i = 0;
  let timer = null;
  const names = opts.names;

  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const statusArea = h("div", { class: "status-area", id: "status-area" });
  const controls = h("div", { class: "controls replay-controls", id: "replay-controls", role: "group", "aria-label": t("replay_controls") });
  const side = h("aside", { class: "side", id: "side" });
  // The controls stay the same elements from frame to frame (keepUnchanged; the slider is moved, not drawn again):
  // while the replay plays a frame comes every 650 ms, and a click on "Pause" pressed on one button and released on
  // its replacement was lost.
  const navRow = h("div", { class: "buttons" });
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: 0, "aria-label": t("replay"),
    oninput: (ev) => go(Number(ev.target.value)) });
  clear(root).append(h("div", { class: "game-page replay-page", id: "replay-page" },
    statusArea, h("div", { class: "board-col" }, boardBox), controls, side));

  const actors = frames.map((f) => f.current);
  // a mistake chosen in the analysis: its turn's first frame shows the played turn outlined, the better one lit
  let marks = null;
  const analysis = opts.gameId ? analysisPanel(opts.gameId, {
    names, show: (turn) => { marks = { frame: turn.start, ...boardMarks(turn) }; go(turn.start); },
  }) : null;

  function go(k) { i = Math.max(0, Math.min(last, k)); render(); }
  function play() {
    if (timer) { clearInterval(timer); timer = null; render(); return; }
    if (i >= last) i = 0;
    timer = setInterval(() => { if (i >= last) { clearInterval(timer); timer = null; render(); } else go(i + 1); }, 650);
    render();
  }

  function render() {
    const f = frames[i];
    const view = { ...f, legal: [], seat: null };
    // the controls are drawn again: the focus stays on the one it was on (by id); a disabled one hands it to the slider
    const active = document.activeElement;
    const focusId = active && active.id && controls.contains(active) ? active.id : null;
    const marked = marks && marks.frame === i ? marks : null;
    renderBoard(boardBox, view, { last: marked ? marked.last : i > 0 ? squaresIn(actions[i - 1]) : [], targets: marked ? marked.targets : undefined, names });
    clear(statusArea).append(h("h1", { class: "replay-title" }, opts.title), P.statusPanel(view, { names, mySeat: null }));
    slider.value = String(i);
    slider.setAttribute("aria-label", t("replay"));
    const btn = (id, label, fn, disabled, title) => h("button", { type: "button", class: "btn", id, "data-testid": id, disabled, title, "aria-label": title || null, onclick: fn },
      title ? h("span", { "aria-hidden": "true" }, label) : label);
    keepUnchanged(navRow, [
      btn("replay-first", "|◀", () => go(0), i === 0, t("replay_start")),
      btn("replay-prev", "◀", () => go(i - 1), i === 0, t("replay_prev")),
      btn("replay-play", timer ? t("replay_pause") : t("replay_play"), play, false),
      btn("replay-next", "▶", () => go(i + 1), i === last, t("replay_next")),
      btn("replay-last", "▶|", () => go(last), i === last, t("replay_end")),
      h("span", { class: "frame-no", id: "replay-frame", "data-frame": i }, t("frame", { i, n: last }))]);
    keepUnchanged(controls, [navRow, slider,
      h("div", { class: "buttons" }, scorings.map((k, n) => h("button", { type: "button", class: ["btn", "small", "replay-scoring", i === k ? "on" : null],
        "data-frame": k, "aria-pressed": i === k ? "true" : "false", onclick: () => go(k) }, t("jump_scoring", { n: n + 1 }))),
      h("span", { class: "spacer" }),
      opts.gameId ? h("button", { type: "button", class: "btn small", id: "replay-continue", onclick: () => continueFrom(opts.gameId, i) }, t("sb_continue")) : null,
      h("a", { class: "btn small", id: "replay-download", href: opts.download.href, download: opts.download.name }, "⬇ ", t("download_record")))]);

    const hist = actions.slice(0, i);
    const entries = P.logEntries(hist, actors, names, "all", scorings);
    const parts = [analysis ? analysis.el : null];
    const at = scorings.indexOf(i);
    if (at >= 0 && f.scorings && f.scorings[at]) parts.push(P.scoringTable(f.scorings[at], names, f.master_card >= 0));
    if (f.stage === "over") parts.push(P.rankingTable(f.scores, names));
    parts.push(P.playersPanel(view, { names, seats: null, mySeat: null }));
    if (f.hands) parts.push(P.allHandsPanel(f.hands, names));
    parts.push(P.masterPanel(view), P.supplyLine(view), P.logPanel(entries));
    keepUnchanged(side, parts);
    if (focusId) {
      const again = document.getElementById(focusId);
      (again && !again.disabled ? again : document.getElementById("replay-slider")).focus({ preventScroll: true });
    }
  }

  const onKey = (ev) => {
    if (ev.target && ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
    if (ev.key === "ArrowRight") go(i + 1);
    else if (ev.key === "ArrowLeft") go(i - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(last);
  };
  document.addEventListener("keydown", onKey);
  const offLang = onLangChange(() => { controls.setAttribute("aria-label", t("replay_controls")); render(); });
  render();
  return () => { if (timer) clearInterval(timer); document.removeEventListener("keydown", onKey); offLang(); if (analysis) analysis.close(); };
}
