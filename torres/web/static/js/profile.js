// A player's public profile (/players/<username>: ratings per player count, recent finished games) and the
// leaderboard (/leaderboard?players=N). Loaded on demand.

import { h, clear, api } from "./dom.js";
import { t, editionName } from "./i18n.js";
import { sameName, playerLink } from "./session.js";
import { ratingChange as change } from "./panels.js";

function provisional(p) {
  return p ? h("abbr", { class: "prov", title: t("provisional_note") }, t("provisional")) : null;
}

function date(iso) {
  const d = new Date(iso);
  return isNaN(d) ? "" : d.toLocaleDateString(document.documentElement.lang || "en", { year: "numeric", month: "short", day: "numeric" });
}

export async function profilePage(root, username) {
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(username)}`); } catch (e) {
    clear(root).append(h("div", { class: "page narrow" }, h("h1", { class: "page-title" }, e.status === 404 ? t("no_player") : t("error", { msg: e.message })),
      h("p", {}, h("a", { href: "/leaderboard", "data-link": "" }, t("leaderboard")))));
    return;
  }
  document.title = `${p.username} · Torres`;
  const ratings = Object.entries(p.ratings || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  const recent = p.recent || [];
  root.replaceChildren(h("div", { class: "page narrow profile" },
    h("section", { class: "card-box" },
      h("h1", { class: "page-title" }, p.username, " ",
        h("small", { class: p.online ? "online-tag" : "muted" }, p.online ? t("online") : t("offline"))),
      p.created ? h("p", { class: "muted" }, t("member_since", { date: date(p.created) })) : null),
    h("section", { class: "card-box", "aria-labelledby": "ratings-title" }, h("h2", { id: "ratings-title" }, t("ratings")),
      ratings.length ? h("table", { class: "data-table", id: "ratings" },
        h("caption", { class: "visually-hidden" }, t("ratings")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("player_count")), h("th", { scope: "col" }, t("rating")), h("th", { scope: "col" }, t("rated_games")))),
        h("tbody", {}, ratings.map(([n, r]) => h("tr", {}, h("th", { scope: "row" }, t("n_players", { n })),
          h("td", { class: "num" }, h("b", {}, String(r.rating)), " ", provisional(r.provisional)), h("td", { class: "num" }, String(r.games))))))
        : h("p", { class: "muted" }, t("no_ratings"))),
    h("section", { class: "card-box", "aria-labelledby": "recent-title" }, h("h2", { id: "recent-title" }, t("recent_games")),
      recent.length ? h("ul", { class: "game-list", id: "recent" }, recent.map((g) => recentItem(g, p.username)))
        : h("p", { class: "muted" }, t("no_recent")))));
}

function recentItem(g, username) {
  const seats = g.seats || [];
  const names = seats.map((s, i) => s.account || s.name || t("default_human", { n: i + 1 }));
  const mine = seats.findIndex((s) => sameName(s.account, username));
  const won = mine >= 0 && (g.winners || []).includes(mine);
  const rc = (g.rating_changes || []).find((c) => sameName(c.account, username));
  return h("li", { class: "game-item" },
    h("div", { class: "gi-main" },
      h("div", {}, seats.map((s, i) => [i ? " · " : "", s.account ? playerLink(s.account) : names[i]])),
      h("div", { class: "muted small" }, date(g.updated || g.created), " · ", editionName(g.edition), g.rated ? ` · ${t("rated")}` : "",
        " · ", mine >= 0 ? h("b", {}, won ? t("result_won") : t("result_lost")) : t("won", { names: (g.winners || []).map((s) => names[s]).join(" & ") }),
        g.scores ? ` · ${g.scores.join(" : ")}` : "", rc ? [" · ", change(rc.before, rc.after)] : null)),
    h("div", { class: "gi-actions" }, h("a", { class: "btn small", href: `/replay/${g.id}`, "data-link": "" }, t("watch_replay"))));
}

export async function leaderboardPage(root, navigate) {
  const players = Math.min(4, Math.max(2, Number(new URLSearchParams(location.search).get("players")) || 2));
  clear(root).append(h("p", { class: "loading" }, t("loading")));
  document.title = `${t("leaderboard")} · Torres`;
  let data;
  try { data = await api(`/api/leaderboard?players=${players}`); } catch (e) { data = { leaders: [], error: e.message }; }
  const leaders = data.leaders || [];
  root.replaceChildren(h("div", { class: "page narrow" }, h("section", { class: "card-box" },
    h("h1", { class: "page-title" }, t("leaderboard")),
    h("nav", { class: "tabs", "aria-label": t("player_count") }, [2, 3, 4].map((n) =>
      h("a", { href: `/leaderboard?players=${n}`, "data-link": "", class: ["btn", "small", n === players ? "primary" : null],
        "aria-current": n === players ? "page" : null }, t("n_players", { n })))),
    data.error ? h("p", { class: "error", role: "alert" }, t("error", { msg: data.error })) : null,
    leaders.length ? h("table", { class: "data-table", id: "leaders" },
      h("caption", {}, t("leaders_of", { n: players })),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("username")), h("th", { scope: "col" }, t("rating")),
        h("th", { scope: "col" }, t("rated_games")))),
      h("tbody", {}, leaders.map((l, i) => h("tr", {}, h("td", { class: "num" }, String(i + 1)), h("th", { scope: "row" }, playerLink(l.username)),
        h("td", { class: "num" }, h("b", {}, String(l.rating)), " ", provisional(l.provisional)), h("td", { class: "num" }, String(l.games))))))
      : h("p", { class: "muted" }, t("no_leaders")))));
}
