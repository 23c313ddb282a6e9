// Who is logged in (GET /api/session: {account, csrf}), and changes made with the session cookie, which carry the
// CSRF token in the X-CSRF-Token header.

import { h, api } from "./dom.js";
import { t } from "./i18n.js";

let current = { account: null, csrf: null };
let loading = null;
const listeners = new Set();

/** The session as the server knows it (asked once; `fresh` asks again). */
export function session(fresh = false) {
  if (fresh || !loading) {
    loading = api("/api/session").then(setSession, () => setSession({}));
  }
  return loading;
}

/** Remember an answer of the server that names the session (log-in, sign-up, log-out). */
export function setSession(s) {
  const next = { account: (s && s.account) || null, csrf: (s && s.csrf) || null };
  const changed = (next.account && next.account.id) !== (current.account && current.account.id);
  current = next;
  loading = Promise.resolve(current);
  if (changed) for (const fn of listeners) fn(current);
  return current;
}

export function me() { return current.account; }
export function onSession(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** A change authenticated by the session cookie: `method` with an optional JSON body and the CSRF header. */
export async function change(path, method = "POST", body = undefined) {
  const s = await session();
  return api(path, { method, json: body, headers: { Accept: "application/json", "X-CSRF-Token": s.csrf || "" } });
}

/** Same name, ignoring case (usernames are unique that way). */
export function sameName(a, b) { return !!a && !!b && a.toLowerCase() === b.toLowerCase(); }

/** A link to a player's profile (the name as text). */
export function playerLink(name) {
  return name ? h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": "" }, name) : h("span", { class: "muted" }, t("someone"));
}
