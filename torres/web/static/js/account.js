// Sign up, log in, and the account page (change the password, delete the account, log out). Loaded on demand.

import { h, clear, api } from "./dom.js";
import { t } from "./i18n.js";
import * as store from "./store.js";
import { session, setSession, change, me } from "./session.js";

/** A labelled input in a column form. */
function field(id, label, attrs, note) {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: id, required: true, "aria-describedby": note ? id + "-note" : null, ...attrs }),
    note ? h("small", { class: "muted", id: id + "-note" }, note) : null);
}

/** Words for a refusal: the page's own for the codes it knows, else the server's message. */
export function refusal(e, codes = {}) {
  if (codes[e.status]) return t(codes[e.status]);
  if (e.status === 429) return t("auth_slow");
  return t("error", { msg: e.message });
}

async function authPage(root, navigate, kind) {
  await session();
  const signup = kind === "signup";
  const err = h("p", { class: "error", role: "alert", id: "auth-error" });
  const button = h("button", { type: "submit", class: "btn primary big" }, t(signup ? "signup_submit" : "login_submit"));
  const form = h("form", { class: "auth-form", "aria-labelledby": "auth-title", onsubmit: async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    button.disabled = true;
    const body = { username: form.elements.username.value.trim(), password: form.elements.password.value, seats: store.allSeats() };
    try {
      const res = await api(signup ? "/api/accounts" : "/api/session", { json: body });
      setSession(res);
      const next = new URLSearchParams(location.search).get("next");
      navigate(next && /^\/[\w\-/]*$/.test(next) ? next : "/lobby");
    } catch (e) {
      err.textContent = refusal(e, signup ? { 409: "signup_taken" } : { 401: "login_wrong" });
      button.disabled = false;
    }
  } },
  field("username", t("username"), { type: "text", autocomplete: "username", minlength: 3, maxlength: 24, spellcheck: "false",
    autocapitalize: "none" }, signup ? t("username_note") : null),
  field("password", t("password"), { type: "password", autocomplete: signup ? "new-password" : "current-password",
    minlength: signup ? 8 : 1, maxlength: 200 }, signup ? t("password_note") : null),
  button, err);
  const other = signup ? h("p", {}, t("have_account"), " ", h("a", { href: "/login", "data-link": "" }, t("login")))
    : h("p", {}, t("no_account"), " ", h("a", { href: "/signup", "data-link": "" }, t("signup")));
  document.title = `${t(signup ? "signup" : "login")} · Torres`;
  clear(root).append(h("div", { class: "page auth" }, h("section", { class: "card-box" },
    h("h1", { class: "page-title", id: "auth-title" }, t(signup ? "signup_title" : "login_title")),
    h("p", { class: "muted" }, t(signup ? "signup_intro" : "login_intro")),
    me() ? h("p", { class: "logged-in" }, t("logged_in_as", { name: me().username }), " ", h("a", { href: "/lobby", "data-link": "" }, t("nav_lobby"))) : null,
    form, other)));
  form.elements.username.focus();
}

export function loginPage(root, navigate) { return authPage(root, navigate, "login"); }
export function signupPage(root, navigate) { return authPage(root, navigate, "signup"); }

/** Log out: the session ends on the server; the page forgets it. */
export async function logOut(navigate) {
  try { await change("/api/session", "DELETE"); } catch (e) { /* already gone */ }
  setSession({});
  navigate("/");
}

export async function accountPage(root, navigate) {
  await session(true);
  const account = me();
  document.title = `${t("account")} · Torres`;
  if (!account) {
    clear(root).append(h("div", { class: "page auth" }, h("section", { class: "card-box" },
      h("h1", { class: "page-title" }, t("account")), h("p", {}, t("need_login"), " ",
        h("a", { href: "/login?next=/account", "data-link": "" }, t("login")), " · ",
        h("a", { href: "/signup", "data-link": "" }, t("signup"))))));
    return;
  }
  const form = (id, title, fields, submitLabel, onsubmit, danger) => {
    const msg = h("p", { role: "status", class: "form-msg", id: id + "-msg" });
    const f = h("form", { class: "auth-form", id, "aria-labelledby": id + "-title", onsubmit: async (ev) => {
      ev.preventDefault();
      msg.textContent = "";
      msg.className = "form-msg";
      try { await onsubmit(f, msg); } catch (e) { msg.className = "form-msg error"; msg.textContent = refusal(e, { 401: "wrong_password", 403: "wrong_password" }); }
    } }, fields, h("button", { type: "submit", class: ["btn", danger ? "danger" : "primary"] }, submitLabel), msg);
    return h("section", { class: "card-box" }, h("h2", { id: id + "-title" }, title), f);
  };
  const password = form("change-password", t("change_password"), [
    field("old_password", t("current_password"), { type: "password", autocomplete: "current-password", maxlength: 200 }),
    field("new_password", t("new_password"), { type: "password", autocomplete: "new-password", minlength: 8, maxlength: 200 }, t("password_note")),
  ], t("change_password"), async (f, msg) => {
    await change("/api/account/password", "POST", { old_password: f.elements.old_password.value, new_password: f.elements.new_password.value });
    f.reset();
    await session(true);
    msg.textContent = t("password_changed");
  });
  const remove = form("delete-account", t("delete_account"), [
    h("p", { class: "muted" }, t("delete_note")),
    field("delete_password", t("current_password"), { type: "password", autocomplete: "current-password", maxlength: 200 }),
    h("label", { class: "check" }, h("input", { type: "checkbox", name: "sure", required: true }), t("delete_confirm")),
  ], t("delete_account"), async (f) => {
    await change("/api/account", "DELETE", { password: f.elements.delete_password.value });
    setSession({});
    navigate("/");
  }, true);
  clear(root).append(h("div", { class: "page auth" },
    h("section", { class: "card-box" }, h("h1", { class: "page-title" }, t("account_of", { name: account.username })),
      h("p", {}, h("a", { href: `/players/${encodeURIComponent(account.username)}`, "data-link": "" }, t("your_profile")), " · ",
        h("a", { href: "/lobby", "data-link": "" }, t("nav_lobby"))),
      h("button", { type: "button", class: "btn", onclick: () => logOut(navigate) }, t("logout"))),
    password, remove));
}
