// The guided first game (issue #32): the lesson list (/tutorial) and a lesson (/tutorial/<id>). The lessons, their
// positions and the judgement of every action come from the server (torres/tutorial.py, with the engine); the page
// lights up only the server's legal actions of the kinds the lesson offers, sends the attempt's actions and shows
// what the server says about them. Progress is remembered in this browser.

import { h, clear, api } from "./dom.js";
import { t, getLang, onLangChange, cardName, cardText, levelName } from "./i18n.js";
import { renderBoard, announce } from "./board.js";
import * as P from "./panels.js";
import { boardTargets } from "./boardkit.js";
import * as store from "./store.js";

const DONE = "tutorialDone";
// The lesson's offer → the kinds of legal actions it lights up or shows as buttons.
const OFFER_KINDS = { move: ["move"], knight: ["knight"], block: ["block"], stack: ["stack"], score: ["score"], end: ["end"] };

function loc(text) { return text ? (text[getLang()] || text.en || "") : ""; }
function done() { const v = store.pref(DONE, []); return new Set(Array.isArray(v) ? v : []); }
function markDone(id) { const d = done(); d.add(id); store.setPref(DONE, [...d]); }
function names() { return [t("tut_you"), t("tut_blue")]; }
function paragraphs(text) { return loc(text).split(/\n\n+/).map((p) => h("p", {}, p)); }
function arrow(text) { return h("span", { "aria-hidden": "true" }, text); }

/** Start a game against the beginner bot and go to it. */
async function playBeginner(button, errorBox, navigate) {
  button.disabled = true;
  errorBox.textContent = "";
  const body = { players: 2, edition: "riogrande", card_mode: null, master: false, hotseat: false, bot_speed: "normal",
    seats: [{ kind: "human", level: "expert", name: t("default_human", { n: 1 }) },
      { kind: "bot", level: "beginner", name: t("default_bot", { n: 2, level: levelName("beginner") }) }] };
  try {
    const res = await api("/api/games", { json: body });
    store.saveGame(res.id, { tokens: res.tokens || {}, invites: res.invites || {}, hotseat: false, creator: true });
    navigate(`/game/${res.id}`);
  } catch (e) {
    errorBox.textContent = t("error", { msg: e.message });
    button.disabled = false;
  }
}

function playButton(navigate) {
  const err = h("p", { class: "error", role: "alert" });
  const button = h("button", { type: "button", class: "btn primary big", id: "tut-play",
    onclick: () => playBeginner(button, err, navigate) }, t("tut_play_beginner"));
  return h("div", { class: "tut-play" }, button, err);
}

export async function tutorialPage(root, lessonId, navigate) {
  return lessonId ? lessonPage(root, lessonId, navigate) : listPage(root, navigate);
}

// ---- the list of lessons ----
async function listPage(root, navigate) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  let lessons;
  try { lessons = (await api("/api/tutorial")).lessons; } catch (e) {
    clear(root).append(h("div", { class: "page narrow" }, h("p", { class: "error" }, t("error", { msg: e.message }))));
    return () => {};
  }
  const draw = () => {
    document.title = `${t("tut_title")} · Torres`;
    const finished = done();
    const next = lessons.find((l) => !finished.has(l.id));
    clear(root).append(h("div", { class: "page narrow tutorial", id: "tutorial" },
      h("h1", { class: "page-title" }, t("tut_title")),
      h("p", { class: "intro" }, t("tut_intro")),
      h("ol", { class: "tut-lessons", id: "tut-lessons" }, lessons.map((l) => h("li", { "data-lesson": l.id },
        h("a", { href: `/tutorial/${l.id}`, "data-link": "" }, loc(l.title)),
        finished.has(l.id) ? h("span", { class: "tut-done" }, " ✓ ", t("tut_done")) : null))),
      h("p", {}, h("a", { href: `/tutorial/${(next || lessons[0]).id}`, "data-link": "", class: "btn primary", id: "tut-start" },
        next && finished.size ? t("tut_continue", { title: loc(next.title) }) : t("tut_start"))),
      h("section", { class: "card-box tut-ready" }, h("h2", {}, t("tut_ready_title")), h("p", {}, t("tut_ready")),
        playButton(navigate))));
  };
  draw();
  return onLangChange(draw);
}

// ---- one lesson ----
async function lessonPage(root, lessonId, navigate) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  let lesson;
  try { lesson = await api(`/api/tutorial/${encodeURIComponent(lessonId)}`); } catch (e) {
    clear(root).append(h("div", { class: "page narrow" }, h("h1", { class: "page-title" }, e.status === 404 ? t("tut_no_lesson") : t("error", { msg: e.message })),
      h("p", {}, h("a", { href: "/tutorial", "data-link": "" }, t("tut_all")))));
    return () => {};
  }
  const st = { actions: [], view: lesson.view, points: lesson.points_now, outcome: null, message: null, error: null,
    sel: null, pending: false };
  const offered = new Set(lesson.offer.flatMap((o) => OFFER_KINDS[o] || []));
  const offers = (a) => offered.has(a.kind) || (lesson.offer.includes("card") && a.card && a.kind !== "keep");

  // the page's frame, drawn once (the status region stays the same element, so its changes are announced)
  const boardBox = h("div", { id: "board", class: "board-wrap" });
  const head = h("div", { class: "tut-head" });
  const textBox = h("section", { class: "tut-text" });
  const taskBox = h("section", { class: "tut-task" });
  const controls = h("div", { class: "tut-controls" });
  const outcomeBox = h("div", { id: "tut-outcome", class: "tut-outcome", role: "status", "aria-live": "polite" });
  const after = h("div", { class: "tut-after" });
  const page = h("div", { class: "page tutorial tut-lesson", id: "tutorial", "data-lesson": lesson.id },
    head, h("div", { class: "tut-grid" }, h("div", { class: "board-col" }, boardBox),
      h("div", { class: "tut-side" }, textBox, taskBox, controls, outcomeBox, after)));
  clear(root).append(page);
  let attempt = 0; // answers to an attempt given up ("Try again") are dropped

  const over = () => st.outcome === "goal" || st.outcome === "wrong";
  const active = () => !over() && !st.pending && st.view.current === 0 && st.view.stage === "turn";
  const legal = () => (active() ? st.view.legal.filter(offers) : []);

  /** What the board lights up, from the offered legal actions and the selection (a knight, a mode, a card). */
  function interaction() {
    return boardTargets(legal(), st.sel, false);
  }

  async function send(action) {
    if (!active()) return;
    const mine = attempt;
    st.pending = true;
    st.error = null;
    render();
    try {
      const res = await api(`/api/tutorial/${encodeURIComponent(lesson.id)}/try`, { json: { actions: [...st.actions, action] } });
      if (mine !== attempt) return;
      st.actions = res.actions;
      st.view = res.view;
      st.points = res.points_now;
      st.outcome = res.outcome;
      st.message = res.message;
      if (res.goal) markDone(lesson.id);
      const keepMode = st.sel && st.sel.type === "mode" && res.view.legal.some((a) => a.kind === st.sel.kind && a.to);
      if (!keepMode) st.sel = null;
    } catch (e) {
      if (mine !== attempt) return;
      st.error = e.message;
    }
    st.pending = false;
    render();
    if (outcomeBox.firstChild) outcomeBox.scrollIntoView({ block: "nearest" });
    if (st.outcome === "goal" || st.outcome === "wrong") {
      const next = page.querySelector(st.outcome === "wrong" ? "#tut-reset" : lesson.next === null ? "#tut-play" : "#tut-next");
      if (next) next.focus({ preventScroll: true });
    }
  }

  function reset() {
    attempt += 1;
    Object.assign(st, { actions: [], view: lesson.view, points: lesson.points_now, outcome: null, message: null, error: null,
      sel: null, pending: false });
    render();
  }

  function onSquare(name) {
    if (!active()) return;
    const { targets, selectable } = interaction();
    const opts = targets.get(name);
    if (opts) {
      const real = opts.filter((o) => o.kind !== "pick");
      if (!real.length) { st.sel = { ...st.sel, from: name }; render(); return; }
      send(real[0].action);
      return;
    }
    if (selectable.has(name)) {
      st.sel = st.sel && st.sel.type === "knight" && st.sel.sq === name ? null : { type: "knight", sq: name };
      render();
      announce(boardBox, st.sel ? t("ann_knight", { sq: name, n: interaction().targets.size }) : t("ann_none"));
      return;
    }
    if (st.sel && st.sel.type !== "card") { st.sel = null; render(); announce(boardBox, t("ann_none")); }
  }

  function setMode(kind) {
    if (!active()) return;
    st.sel = st.sel && st.sel.type === "mode" && st.sel.kind === kind ? null : { type: "mode", kind };
    render();
    announce(boardBox, st.sel ? t("ann_mode", { what: t("mode_" + kind), n: interaction().targets.size }) : t("ann_none"));
  }

  function onCard(card) {
    if (!active()) return;
    st.sel = st.sel && st.sel.type === "card" && st.sel.card === card ? null : { type: "card", card };
    render();
  }

  function render() {
    document.title = `${loc(lesson.title)} · ${t("tut_title")} · Torres`;
    const view = st.view;
    const inter = interaction();
    renderBoard(boardBox, view, {
      targets: inter.targets, selectable: inter.selectable, selected: inter.selected, names: names(), onSquare,
      interactive: active(), last: [],
      tools: inter.modes.map((m) => ({ id: "mode-" + m.kind, pressed: m.on, onClick: () => setMode(m.kind),
        label: t("mode_" + m.kind) + (m.cost ? ` (${t("move_cost", { n: m.cost })})` : "") })),
    });
    boardBox.classList.toggle("my-turn", active());

    clear(head).append(
      h("p", { class: "tut-crumbs" }, h("a", { href: "/tutorial", "data-link": "", id: "tut-all" }, arrow("← "), t("tut_all")), " · ",
        t("tut_lesson_of", { n: lesson.index + 1, m: lesson.count })),
      h("h1", { class: "page-title", id: "tut-title" }, loc(lesson.title)));

    const L = legal();
    const label = (a) => (a.kind === "stack" ? t("btn_stack", { n: a.action.split(" ")[1] }) : t("btn_" + a.kind));
    const buttons = L.filter((a) => ["stack", "score", "end"].includes(a.kind)).map((a) => h("button", {
      type: "button", class: ["btn", a.kind === "end" ? "end" : "act"], "data-action": a.action, onclick: () => send(a.action),
    }, label(a)));
    const parts = [];
    if (lesson.offer.includes("card")) {
      parts.push(P.handPanel({ ...view, legal: L }, { onCard, selectedCard: st.sel && st.sel.type === "card" ? st.sel.card : null }));
      if (st.sel && st.sel.type === "card") {
        parts.push(h("div", { class: "card-pop", id: "card-pop" }, h("b", {}, cardName(st.sel.card)), h("p", {}, cardText(st.sel.card)),
          h("p", { class: "instr" }, st.sel.from || inter.selected ? t("card_pick_target") : t("card_pick_knight"))));
      }
    }
    const status = [view.stage === "turn" ? (view.ap === 1 ? t("tut_ap_one") : t("ap_left", { n: view.ap })) : null,
      t("tut_scores", { you: view.scores[0], blue: view.scores[1] }),
      st.points ? t("tut_points", { you: st.points[0], blue: st.points[1] }) : null].filter(Boolean).join(" · ");
    const last = lesson.next === null;
    const message = st.error ? st.error : st.message ? loc(st.message) : "";
    clear(outcomeBox);
    if (message) outcomeBox.append(h("p", {}, message));
    outcomeBox.className = ["tut-outcome", st.error ? "wrong" : st.outcome ? "o-" + st.outcome : null].filter(Boolean).join(" ");
    clear(textBox).append(...paragraphs(lesson.text));
    clear(taskBox).append(h("h2", {}, t("tut_task")), h("p", {}, loc(lesson.task)));
    clear(controls).append(...[
      status ? h("p", { class: "tut-status muted" }, status) : null,
      parts,
      buttons.length ? h("div", { class: "buttons" }, buttons) : null,
    ].flat().filter(Boolean));
    clear(after).append(...[
      h("div", { class: "tut-actions" },
        h("button", { type: "button", class: ["btn", st.outcome === "wrong" ? "primary" : "ghost"], id: "tut-reset", onclick: reset },
          arrow("↺ "), t("tut_reset")),
        st.outcome === "goal" && !last ? h("a", { href: `/tutorial/${lesson.next}`, "data-link": "", class: "btn primary", id: "tut-next" },
          t("tut_next"), arrow(" →")) : null),
      st.outcome === "goal" && last ? h("section", { class: "card-box tut-ready" }, h("h2", {}, t("tut_ready_title")),
        h("p", {}, t("tut_ready")), playButton(navigate)) : null,
    ].filter(Boolean));
  }

  render();
  return onLangChange(render);
}
