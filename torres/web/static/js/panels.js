// Everything around the board: status (phase, round, whose turn, action points, stacks), players and the
// scoring track, the own hand, the master card, the game log in words, phase scoring tables, the final ranking.

import { h, svg, PLAYER_COLOURS } from "./dom.js";
import { t, cardName, cardNameWrapped, cardText, masterName, masterText, editionName, levelName } from "./i18n.js";

const SETUP = { castles: "setup_castle", knights: "setup_start", king_setup: "setup_king" };
const STAGE = { keep: "stage_keep", king_move: "stage_king_move", choose_first: "stage_choose_first", over: "stage_over" };

export function dot(seat) { return h("span", { class: "dot p" + seat, "aria-hidden": "true" }); }
export function who(names, seat) { return h("span", { class: "who p" + seat }, dot(seat), names[seat] || t("someone")); }

function edition(view) { return String(view.rules || "").split(":")[0]; }

/** The status strip: edition, phase and round, who acts and what they are doing, action points, turn stack. */
export function statusPanel(view, ctx) {
  const setup = SETUP[view.stage];
  const where = view.stage === "over" ? t("stage_over")
    : setup ? t("setup") : `${t("phase", { n: view.phase })} · ${t("round", { n: Math.min(view.round, view.rounds), m: view.rounds })}`;
  const mine = ctx.mySeat !== null && ctx.mySeat === view.current && view.stage !== "over";
  const name = ctx.names[view.current];
  const line = view.stage === "over" ? t("game_over_ranking")
    : mine ? t("you_to_play", { name }) : t("to_play", { name });
  const doing = view.stage === "over" ? null : setup ? t(setup) : STAGE[view.stage] ? t(STAGE[view.stage]) : null;
  const apBox = view.stage === "turn" ? h("div", { class: "ap", id: "ap", title: t("ap_left", { n: view.ap }) },
    h("span", { class: "ap-num" }, String(view.ap)), h("span", { class: "ap-label" }, t("ap")),
    h("span", { class: "pips" }, Array.from({ length: Math.max(view.ap, 0) }, () => h("i", { class: "pip p" + view.current })))) : null;
  const stack = view.stage === "turn" ? h("div", { class: "turn-stack", id: "turn-stack" },
    h("span", { class: "label" }, t("turn_stack") + ": "),
    view.turn_stack >= 0 ? blocks(view.turn_stack, view.current) : h("em", {}, t("no_stack"))) : null;
  return h("section", { class: ["status", mine ? "mine" : null], id: "status" },
    h("div", { class: "where" }, h("b", {}, editionName(edition(view))), " · ", where),
    h("div", { class: "turn-line" }, view.stage !== "over" ? dot(view.current) : null, h("span", { id: "turn-text" }, line),
      doing ? h("span", { class: "doing" }, " — " + doing) : null),
    h("div", { class: "turn-row" }, apBox, stack));
}

/** `n` blocks drawn as a little tower, with the number. */
export function blocks(n, seat) {
  return h("span", { class: "blocks", title: t("blocks", { n }) },
    h("span", { class: "tower" }, Array.from({ length: Math.min(n, 8) }, () => h("i", {}))),
    h("b", {}, String(n)));
}

/** One row per player: name, score (+now), knights, stacks, cards. */
export function playersPanel(view, ctx) {
  const now = view.scoring_now;
  const rows = [];
  for (let s = 0; s < view.players; s++) {
    const seat = ctx.seats && ctx.seats[s];
    const gain = now ? now.after[s] - now.before[s] : 0;
    const info = seat && seat.out ? t("out_" + seat.out) : seat && seat.kind === "bot" ? t("bot_level", { level: levelName(seat.level) })
      : s === ctx.mySeat ? t("you") : (ctx.localSeats || []).includes(s) ? ""
        : seat && seat.claimed === false ? t("waiting") : seat && seat.online === false ? t("offline") : "";
    const perPlayer = ctx.knightsPerPlayer || null;
    rows.push(h("li", { class: ["player", "p" + s, s === view.current && view.stage !== "over" ? "acting" : null], "data-player": s },
      h("div", { class: "pname" }, who(ctx.names, s), info ? h("small", {}, " " + info) : null,
        s === view.current && view.stage !== "over" ? h("small", { class: "acting-tag" }, " ▸ " + t("player_acting")) : null),
      h("div", { class: "pscore", "data-testid": "score-" + s }, h("b", {}, String(view.scores[s])),
        now && view.stage !== "over" ? h("small", { class: "now", title: t("if_now") }, t("points_now", { n: gain })) : null),
      h("div", { class: "pmeta" },
        h("span", { title: t("knights") }, "♞ ", String(view.knights[s].length) + (perPlayer ? "/" + perPlayer : "")),
        h("span", { class: "pstacks", title: t("stacks_left") }, view.stacks[s].length
          ? view.stacks[s].map((n) => blocks(n, s)) : "–",
          view.carry && view.carry[s] ? h("small", {}, " +" + view.carry[s]) : null),
        h("span", { title: t("cards") }, h("i", { class: "card-glyph" }), " ", String(view.hand_sizes[s]),
          ownDecks(view) ? h("small", { title: t("deck") }, " / " + view.deck_sizes[s]) : null))));
  }
  return h("section", { class: "players", id: "players", "aria-label": t("players") }, h("ul", {}, rows), scoreTrack(view, ctx));
}

function ownDecks(view) { return (view.deck_sizes || []).some((n) => n > 0); }

/** The scoring track: every player's marker on a line from 0 to a round number above the leader. */
export function scoreTrack(view, ctx) {
  const top = Math.max(50, Math.ceil((Math.max(...view.scores) + 5) / 25) * 25);
  const w = 400, hgt = 20 + view.players * 9;
  const g = svg("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "track", role: "img", "aria-label": t("scoring_track") });
  g.append(svg("line", { x1: 10, y1: 12, x2: w - 10, y2: 12, class: "track-line" }));
  for (let v = 0; v <= top; v += 5) {
    const x = 10 + (w - 20) * v / top;
    g.append(svg("line", { x1: x, y1: v % 25 ? 9 : 5, x2: x, y2: v % 25 ? 15 : 19, class: "tick" }));
    if (v % 25 === 0) g.append(svg("text", { x, y: hgt - 1, "text-anchor": "middle", class: "tick-label" }, String(v)));
  }
  view.scores.forEach((v, s) => {
    const x = 10 + (w - 20) * v / top;
    g.append(svg("circle", { cx: x, cy: 12 - (view.players - 1) * 2 + s * 4, r: 6, fill: PLAYER_COLOURS[s], class: "marker" },
      svg("title", {}, `${ctx.names[s]}: ${v}`)));
  });
  return h("div", { class: "track-box", title: t("scoring_track") }, g);
}

/** A card as a tile; `extra` may add a count or a "new" tag. */
export function cardTile(card, attrs = {}, ...extra) {
  return h("button", { type: "button", class: ["card", "c-" + card, attrs.class], "data-card": card, title: cardText(card), id: attrs.id,
    onclick: attrs.onclick, disabled: attrs.disabled, "aria-pressed": attrs.pressed === undefined ? null : attrs.pressed ? "true" : "false" },
    cardIcon(card),
    h("span", { class: "card-name", "aria-hidden": "true" }, cardNameWrapped(card)),
    h("span", { class: "visually-hidden" }, cardName(card)), ...extra);
}

// Small drawings for the cards (24×24, stroked), so no emoji font is needed.
const CARD_ICONS = {
  climb: "M5 14l7-7 7 7M5 21l7-7 7 7",
  lift: "M6 15h12v6H6zM12 12V3M8 7l4-4 4 4",
  build: "M4 11h16v10H4zM12 2v7M8.5 5.5h7",
  gate: "M5 21V10a7 7 0 0 1 14 0v11M9 21v-7a3 3 0 0 1 6 0v7",
  diagonal: "M5 19L19 5M10 5h9v9",
  six: "M16 4c-5 0-9 4-9 10a5 5 0 1 0 5-5c-2 0-4 1-5 3",
  seven: "M6 4h12L10 21",
  shift: "M3 9h15M14 5l4 4-4 4M21 16H6M10 12l-4 4 4 4",
  redeploy: "M19 12a7 7 0 1 1-2-5M19 3v5h-5",
  vault: "M4 20c2-12 14-12 16 0M16 17l4 3 1-5M12 20h0",
};

function cardIcon(card) {
  return svg("svg", { viewBox: "0 0 24 24", class: "card-icon", "aria-hidden": "true" },
    svg("path", { d: CARD_ICONS[card] || "M6 6h12v12H6z" }), card === "vault" ? svg("circle", { cx: 12, cy: 19, r: 2.2, class: "fill" }) : null);
}

/** The own hand, face up (only for the seat this page plays). */
export function handPanel(view, ctx) {
  const cards = Object.entries(view.hand || {});
  const fresh = view.fresh || {};
  const playable = new Set((view.legal || []).filter((a) => a.card && a.kind !== "keep").map((a) => a.card));
  const list = cards.length ? h("div", { class: "hand-cards" }, cards.map(([card, n]) =>
    cardTile(card, {
      class: [playable.has(card) ? "playable" : null, ctx.selectedCard === card ? "chosen" : null].filter(Boolean).join(" "),
      onclick: () => ctx.onCard && ctx.onCard(card), pressed: ctx.selectedCard === card, id: "card-" + card,
    }, n > 1 ? h("span", { class: "count" }, "×" + n) : null,
    fresh[card] ? h("span", { class: "fresh" }, t("new_card")) : null,
    playable.has(card) ? h("span", { class: "play-mark", title: t("card_playable") }, h("span", { "aria-hidden": "true" }, "▶"),
      h("span", { class: "visually-hidden" }, ", " + t("card_playable"))) : null)))
    : h("p", { class: "muted" }, t("no_cards"));
  // a named region: "Your cards"
  return h("section", { class: "hand", id: "hand", "data-seat": view.seat, "aria-labelledby": "hand-title" },
    h("h2", { id: "hand-title", class: "panel-title" }, t("your_cards")), list);
}

/** The cards every seat holds (replay: nothing is secret any more). */
export function allHandsPanel(hands, names) {
  return h("section", { class: "hand all-hands" }, hands.map((hand, s) => h("div", { class: "hand-row" }, who(names, s), ": ",
    Object.keys(hand).length ? Object.entries(hand).map(([c, n]) => h("span", { class: "mini-card", "data-card": c, title: cardText(c) },
      cardName(c) + (n > 1 ? " ×" + n : ""))) : h("span", { class: "muted" }, "–"))));
}

export function masterPanel(view) {
  if (view.master_card === undefined || view.master_card < 0) return null;
  return h("section", { class: "master", id: "master" }, h("h2", { class: "panel-title" }, t("master_card"), ": ", masterName(view.master_card)),
    h("p", {}, masterText(view.master_card)));
}

export function supplyLine(view) {
  const parts = [t("supply", { n: view.supply })];
  if (view.common_size) parts.push(t("common_deck", { n: view.common_size }));
  return h("p", { class: "supply muted" }, parts.join(" · "));
}

/** Who took each action of `history`: the server's `actors` when it sends them, else `known` (from live
 * events), else a guess that walks back from the seat to act, one seat per ended turn. */
export function actorsOf(view, known = []) {
  const hist = view.history || [];
  if (Array.isArray(view.actors) && view.actors.length === hist.length) return view.actors;
  const n = view.players;
  const out = new Array(hist.length).fill(null);
  let cur = view.current; // walking back: the seat that took the action after this one
  for (let i = hist.length - 1; i >= 0; i--) {
    const a = hist[i];
    const setupKing = (k) => k < hist.length && /^king /.test(hist[k]) && !hist.slice(0, k).includes("end");
    const turnEnds = a === "end" || /^first /.test(a) || setupKing(i)
      || (/^(start|castle) /.test(a) && !setupKing(i + 1));
    out[i] = known[i] !== undefined && known[i] !== null ? known[i] : turnEnds ? (cur - 1 + n) % n : cur;
    cur = out[i];
  }
  return out;
}

/** One action in words, e.g. "Ann moved a knight c5→c6". */
export function describe(action, seat, names, ctx = {}) {
  const name = names[seat] !== undefined ? names[seat] : t("someone");
  const p = action.split(" ");
  const sq = p[1];
  if (/^[a-h][1-8]-[a-h][1-8]$/.test(action)) { const [from, to] = action.split("-"); return t("log_move", { name, from, to }); }
  switch (p[0]) {
    case "start": return t("log_start", { name, sq });
    case "castle": return t("log_castle", { name, sq });
    case "king": return sq === "stay" ? t("log_king_stay", { name }) : t(ctx.setup ? "log_king_setup" : "log_king", { name, sq });
    case "first": return t("log_first", { name, other: names[Number(sq)] || sq });
    case "knight": return t("log_knight", { name, sq });
    case "stack": return t("log_stack", { name, n: sq });
    case "block": return t("log_block", { name, sq });
    case "buy": return t("log_buy", { name });
    case "keep": return sq && sq !== "?" && ctx.own ? t("log_keep_own", { name, card: cardName(sq) }) : t("log_keep", { name });
    case "score": return t("log_score", { name });
    case "end": return t("log_end", { name });
    case "play": {
      const card = cardName(p[1]);
      const arg = p[2];
      if (!arg) return t("log_play", { name, card });
      if (arg.includes("-")) { const [from, to] = arg.split("-"); return t("log_play_move", { name, card, from, to }); }
      return t("log_play_sq", { name, card, sq: arg });
    }
    default: return `${name}: ${action}`;
  }
}

/** One action as something to do, e.g. "move the knight c5→c6" (for display only: notation parsed for words). */
export function actionWords(action, names = []) {
  const p = String(action).trim().split(/\s+/);
  const sq = p[1];
  if (/^[a-h][1-8]-[a-h][1-8]$/.test(p[0])) { const [from, to] = p[0].split("-"); return t("do_move", { from, to }); }
  switch (p[0]) {
    case "start": return t("do_start", { sq });
    case "castle": return t("do_castle", { sq });
    case "king": return sq === "stay" ? t("do_king_stay") : t("do_king", { sq });
    case "first": return t("do_first", { name: names[Number(sq)] || sq });
    case "knight": return t("do_knight", { sq });
    case "stack": return t("do_stack", { n: sq });
    case "block": return t("do_block", { sq });
    case "buy": return t("do_buy");
    case "score": return t("do_score");
    case "end": return t("do_end");
    case "keep": return !sq || sq === "?" ? t("do_keep_any") : keepWords(action);
    case "play": {
      const card = cardName(p[1]);
      const arg = p[2];
      if (!arg) return t("do_play", { card });
      if (arg.includes("-")) { const [from, to] = arg.split("-"); return t("do_play_move", { card, from, to }); }
      if (p[3] && p[3].startsWith("from:")) {
        const src = p[3].slice(5);
        return t("do_play_lift", { card, sq: arg, src: src === "turn" ? t("lift_from_turn") : t("lift_from_stack", { n: src }) });
      }
      return t("do_play_sq", { card, sq: arg });
    }
    default: return action;
  }
}

/** "keep climb top:vault bottom:shift" → "keep Climb, Vault on top of your deck, Shift at the bottom of your deck". */
export function keepWords(action) {
  const p = String(action).trim().split(/\s+/);
  const parts = [t("do_keep", { card: cardName(p[1]) })];
  const list = (cards) => joinWords(cards.split(",").filter(Boolean).map(cardName));
  for (const w of p.slice(2)) {
    const [where, cards] = w.split(":");
    if (where === "top" && cards) parts.push(t("do_keep_top", { cards: list(cards) }));
    if (where === "bottom" && cards) parts.push(t("do_keep_bottom", { cards: list(cards) }));
  }
  return parts.join(", ");
}

/** "a, b and c" in the page's language. */
export function joinWords(items, word = t("and")) {
  if (items.length <= 1) return items.join("");
  return items.slice(0, -1).join(", ") + " " + word + " " + items[items.length - 1];
}

/** A plan (the hint's actions) as one sentence: "Move the knight c5→c6, then build a block on d7, then …". */
export function planWords(actions, names = []) {
  const s = actions.map((a) => actionWords(a, names)).join(t("then"));
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** The log entries (newest last) for a history with its actors; phase scorings marked in between. */
export function logEntries(history, actors, names, ownSeat, scoringAt = []) {
  const entries = [];
  let setup = true;
  history.forEach((a, i) => {
    if (a === "end" || a.startsWith("stack ")) setup = false;
    // ownSeat: the seat whose keeps may be told (null: none; "all": a finished game's replay)
    const own = ownSeat === "all" || (ownSeat !== null && actors[i] === ownSeat);
    const action = a.startsWith("keep ") && !own ? "keep ?" : a;
    entries.push({ seat: actors[i], text: describe(action, actors[i], names, { setup, own }), action, i });
    const k = scoringAt.indexOf(i + 1);
    if (k >= 0) entries.push({ scoring: k + 1, text: t("log_scoring", { n: k + 1 }) });
  });
  return entries;
}

export function logPanel(entries) {
  const list = h("ol", { class: "log-list", id: "log", tabindex: "0", "aria-labelledby": "log-title" }, entries.length ? entries.map((e) =>
    e.scoring ? h("li", { class: "log-scoring" }, e.text)
      : h("li", { class: "p" + e.seat, "data-action": e.action, "data-seat": e.seat }, dot(e.seat), e.text))
    : h("li", { class: "muted" }, t("no_log")));
  const box = h("section", { class: "log", "aria-labelledby": "log-title" }, h("h2", { id: "log-title", class: "panel-title" }, t("log")), list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return box;
}

/** A phase scoring as a table: castles by row, players by column, then the bonuses and the track. */
export function scoringTable(scoring, names, hasMaster) {
  const players = scoring.before.length;
  const castles = [];
  for (const c of scoring.castles) if (!castles.some((k) => k.join() === c.squares.join())) castles.push(c.squares);
  const kingKey = (scoring.king_castle || []).join();
  const head = h("tr", {}, h("th", {}, t("castle_col")), Array.from({ length: players }, (_, s) => h("th", {}, who(names, s))));
  const rows = castles.map((sqs) => h("tr", { class: sqs.join() === kingKey ? "king-row" : null },
    h("td", {}, `${sqs[0]} (${sqs.length})`, sqs.join() === kingKey ? h("span", { class: "crown-mark", title: t("king_castle") }, " ♛") : null),
    Array.from({ length: players }, (_, s) => {
      const hit = scoring.castles.find((c) => c.seat === s && c.squares.join() === sqs.join());
      return h("td", { class: hit ? null : "muted" }, hit ? `${hit.area}×${hit.level} = ${hit.points}` : "–");
    })));
  if (!rows.length) rows.push(h("tr", {}, h("td", { colspan: players + 1, class: "muted" }, t("no_castle_scored"))));
  const sum = (s) => scoring.castles.filter((c) => c.seat === s).reduce((a, c) => a + c.points, 0);
  const foot = [
    h("tr", { class: "sum" }, h("th", {}, t("castles_total")), Array.from({ length: players }, (_, s) => h("td", {}, String(sum(s))))),
    h("tr", {}, h("th", {}, t("king_bonus"), " ♛"), scoring.king_bonus.map((b) => h("td", { class: b ? null : "muted" }, b ? "+" + b : "–"))),
    hasMaster ? h("tr", {}, h("th", {}, t("master_bonus")), scoring.master_bonus.map((b) => h("td", { class: b ? null : "muted" }, b ? "+" + b : "–"))) : null,
    h("tr", { class: "total" }, h("th", {}, t("total")), scoring.before.map((b, s) => h("td", {}, `${b} → `, h("b", {}, String(scoring.after[s]))))),
  ];
  return h("table", { class: "scoring-table", "data-phase": scoring.phase },
    h("caption", {}, t("scoring_title", { n: scoring.phase })), h("thead", {}, head), h("tbody", {}, rows), h("tfoot", {}, foot));
}

/** The final ranking (ties share a place). */
export function rankingTable(scores, names) {
  const order = scores.map((v, s) => s).sort((a, b) => scores[b] - scores[a] || a - b);
  const best = Math.max(...scores);
  return h("table", { class: "ranking", id: "ranking" }, h("caption", {}, t("final_ranking")),
    h("tbody", {}, order.map((s) => h("tr", { class: scores[s] === best ? "winner" : null },
      h("td", {}, `${1 + scores.filter((v) => v > scores[s]).length}.`), h("td", {}, who(names, s),
        scores[s] === best ? h("span", { class: "crown-mark" }, " ♛ " + t("winner")) : null),
      h("td", { class: "num" }, h("b", {}, String(scores[s])))))));
}

/** "1500 → 1523 (+23)" */
export function ratingChange(before, after) {
  const d = after - before;
  return h("span", { class: ["rating-change", d > 0 ? "up" : d < 0 ? "down" : null] },
    `${before} → ${after}`, h("small", {}, ` (${d > 0 ? "+" : d < 0 ? "−" : "±"}${Math.abs(d)})`));
}

/** A rated game's new ratings, one line per account (nothing before they are applied); when a seat went to a bot
 * (`seats[s].out`), why the scores' winner can lose rating: a leaver ranks below everyone who played on. */
export function ratingChanges(changes, names, seats = []) {
  if (!changes) return null;
  if (!changes.length) {  // a rated game found not to count (a player ran out of time without a move)
    return h("section", { class: "rating-changes", "aria-label": t("new_ratings") }, h("h2", { class: "panel-title" }, t("new_ratings")),
      h("p", { class: "muted small" }, t("ratings_void")));
  }
  return h("section", { class: "rating-changes", "aria-label": t("new_ratings") }, h("h2", { class: "panel-title" }, t("new_ratings")),
    h("ul", {}, changes.map((c) => h("li", {}, who(names, c.seat), " ", ratingChange(c.before, c.after)))),
    seats.some((seat) => seat && seat.out) ? h("p", { class: "muted small" }, t("ratings_leavers")) : null);
}

/** The players of a game summary by seat: the account's name, else the seat's name. */
export function gameNames(g) {
  const seats = g.seats || [];
  return Array.from({ length: g.players || seats.length }, (_, s) => (seats[s] && (seats[s].account || seats[s].name)) || t("default_human", { n: s + 1 }));
}

/** One game of a list (the home page's "My games", the lobby's "Your games"): the players as a link to the game, the
 * edition, whose turn ("Your turn" marked when `yourTurn`) or who won; "Replay" once finished, "Open", and a
 * "Forget" button when `onForget` is given. */
export function gameItem(g, { yourTurn = false, onForget = null } = {}) {
  const names = gameNames(g);
  const line = g.status === "finished"
    ? [t("won", { names: (g.winners || []).map((s) => names[s]).join(" & ") }), " · ",
      (g.scores || []).map((v, s) => h("span", { class: "score-chip" }, dot(s), String(v)))]
    : [yourTurn ? h("span", { class: "your-turn" }, t("your_turn")) : t("turn_of", { name: names[g.current] || t("someone") }),
      g.phase ? h("small", { class: "muted" }, " · " + t("round_phase", { phase: g.phase, round: g.round })) : null];
  return h("li", { class: ["game-item", yourTurn ? "turn-now" : null], "data-game": g.id },
    h("div", { class: "gi-main" }, h("a", { href: `/game/${g.id}`, "data-link": "" }, h("b", {}, names.join(" · "))),
      h("div", { class: "muted small" }, editionName(g.edition), g.rated ? ` · ${t("rated")}` : "", " · ", line)),
    h("div", { class: "gi-actions" },
      g.status === "finished" ? h("a", { class: "btn small", href: `/replay/${g.id}`, "data-link": "" }, t("watch_replay")) : null,
      h("a", { class: "btn small", href: `/game/${g.id}`, "data-link": "" }, t("open")),
      onForget ? h("button", { type: "button", class: "btn ghost small", title: t("forget"), "aria-label": t("forget_game", { names: names.join(" · ") }),
        onclick: onForget }, h("span", { "aria-hidden": "true" }, "✕")) : null));
}

/** The actions on offer at a square chosen on a board that plays from legal actions (the analysis board, puzzles):
 * `st.choice` = {square, options}; choosing one plays it (`act`), Cancel drops the choice. */
export function squareChoice(st, names, act, render) {
  return h("section", { class: "square-choice", id: "square-choice", "aria-labelledby": "choice-title" },
    h("p", { id: "choice-title" }, h("b", {}, t("chooser_title", { sq: st.choice.square })), " — ", t("choose_action")),
    st.choice.options.map((a) => h("button", { type: "button", class: "btn", "data-action": a.action, onclick: () => { st.choice = null; act(a.action); } },
      actionWords(a.action, names), " ", h("code", { "aria-hidden": "true" }, a.action))),
    h("button", { type: "button", class: "btn ghost", onclick: () => { st.choice = null; render(); } }, t("btn_cancel")));
}

/** The card selected (`st.sel.card`) on such a board: what it does, a button to play it when it needs no square,
 * else what to pick on the board; Cancel drops the selection. */
export function cardPlays(st, L, act, render) {
  const card = st.sel.card;
  const plays = L.filter((a) => a.card === card && a.kind !== "keep");
  const noSquare = plays.filter((a) => !a.to && !a.from);
  return h("section", { class: "card-pop", id: "card-pop", "aria-label": cardName(card) },
    h("div", { class: "card-pop-head" }, cardTile(card, { class: "big" }), h("div", {}, h("b", {}, cardName(card)), h("p", {}, cardText(card)))),
    !plays.length ? h("p", { class: "muted" }, t("card_none_legal"))
      : noSquare.length ? noSquare.map((a) => h("button", { type: "button", class: "btn primary", "data-action": a.action, onclick: () => act(a.action) }, t("btn_play", { card: cardName(card) })))
        : h("p", { class: "instr" }, st.sel.from ? t("card_pick_target") : t("card_pick_knight")),
    h("button", { type: "button", class: "btn ghost", id: "btn-cancel-card", onclick: () => { st.sel = null; render(); } }, t("btn_cancel")));
}

/** The keep choice on a board that plays from legal actions (the analysis board, puzzles): a button per drawn card,
 * keeping it and putting the others under the deck (the engine's short form's meaning); `note`, if given, a line
 * under the title. Null when no keep is legal. */
export function quickKeep(view, L, act, note = null) {
  const keeps = L.filter((a) => a.kind === "keep");
  if (!keeps.length) return null;
  const drawn = [...new Set(view.drawn || [])];
  return h("section", { class: "keep-panel", id: "keep-panel", "aria-labelledby": "keep-title" },
    h("h2", { id: "keep-title", class: "panel-title" }, t("keep_title")),
    note ? h("p", { class: "muted small" }, note) : null,
    h("div", { class: "buttons" }, drawn.map((c) => h("button", { type: "button", class: "btn", "data-action": keepAction(keeps, c),
      onclick: (ev) => act(ev.currentTarget.dataset.action) },
      t("btn_keep", { card: cardName(c) })))));
}

/** The legal keep of `card` that puts the other drawn cards under the deck. */
function keepAction(keeps, card) {
  const plain = keeps.find((a) => a.action.split(" ")[1] === card && !a.action.includes("top:"));
  return (plain || keeps.find((a) => a.action.split(" ")[1] === card) || keeps[0]).action;
}
