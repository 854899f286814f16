// The administrator's console: every account with who created and who approved it; a form
// for a new account (a player's plays at once, a staff account waits for a second
// administrator's approval); per account a request to disable it, enable it again or give it
// a new password, which a second administrator approves or rejects. Pending approvals show
// who asked and why; the one who asked sees them wait (the server refuses his own decision
// anyway: SRV-DUTY). The rules — the password policy, the two people — are the server's.
import { dateText, get, post, session, strings } from "./api.js";

const S = strings();
const say = (key) => S[key] ?? key;
const $ = (sel) => document.querySelector(sel);
const enc = encodeURIComponent;
const me = session.user;
let shown = "";  // what the tables show (redrawn only when it changes)

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function button(text, data) {
  const b = el("button", text);
  b.type = "button";
  Object.assign(b.dataset, data);
  return b;
}

// a form's control by name (not form.name / form.action: the form's own attributes)
const field = (form, name) => form.elements.namedItem(name);
const role = (r) => S[`role.${r}`] ?? r;
const what = (action) => say(`adm.what.${action}`);

function state(u) {
  if (!u.active) return say("adm.disabled");
  return u.approved ? say("adm.active") : say("adm.awaiting");
}

function pendingRows(users, requests) {
  const rows = [];
  for (const u of users.filter((x) => x.active && !x.approved)) {
    rows.push({
      key: `user:${u.name}`, what: what("new_staff"), name: u.name, role: u.role,
      reason: "", by: u.created_by, at: null, mine: u.created_by === me,
      approve: () => post(`/users/${enc(u.name)}/approve`, { reason: reasonOf() }),
    });
  }
  for (const r of requests) {
    const u = users.find((x) => x.name === r.name);
    rows.push({
      key: `request:${r.id}`, what: what(r.action), name: r.name, role: u?.role, reason: r.reason,
      by: r.requested_by, at: r.requested_at, mine: r.requested_by === me,
      approve: () => post(`/users/requests/${r.id}/approve`, { reason: reasonOf() }),
      reject: () => post(`/users/requests/${r.id}/reject`, { reason: reasonOf() }),
    });
  }
  return rows;
}

class NeedReason extends Error {}
function reasonOf() {
  const box = $("[data-decision-reason]");
  const v = box.value.trim();
  if (!v) { box.focus(); throw new NeedReason(say("adm.need_reason")); }
  return v;
}

async function decide(row, verdict) {
  const err = $("[data-pending-error]");
  const done = $("[data-pending-done]");
  err.textContent = done.textContent = "";
  try {
    await row[verdict]();
    done.textContent = `${row.what} · ${row.name}: ${say(verdict === "approve" ? "adm.approved" : "adm.rejected")}`;
    $("[data-decision-reason]").value = "";
  } catch (x) {
    err.textContent = x.message;
  }
  await refresh(true);
}

function drawPending(rows) {
  const body = $("[data-pending] tbody");
  body.replaceChildren(...rows.map((r) => {
    const tr = el("tr");
    tr.dataset.pending = r.key;
    tr.dataset.name = r.name;
    tr.append(el("td", r.what), el("td", r.role ? `${r.name} (${role(r.role)})` : r.name), el("td", r.reason || "—"),
      el("td", r.by || "—"), el("td", r.at ? dateText(r.at) : "—"));
    const td = el("td");
    if (r.mine) td.append(el("span", say("adm.waits_second"), "muted"));
    else {
      td.append(button(say("sv.approve"), { verdict: "approve" }));
      if (r.reject) td.append(" ", button(say("sv.reject"), { verdict: "reject" }));
      for (const b of td.querySelectorAll("button")) b.addEventListener("click", () => decide(r, b.dataset.verdict));
    }
    tr.append(td);
    return tr;
  }));
  $("[data-pending-none]").hidden = rows.length > 0;
  $("[data-pending]").closest("[role=region]").hidden = rows.length === 0;
}

function ask(u, action) {
  const form = $("[data-ask-form]");
  form.reset();
  field(form, "name").value = u.name;
  field(form, "action").value = action;
  $("[data-ask-password]").hidden = action !== "password";
  $("[data-ask-error]").textContent = "";
  $("[data-ask-title]").textContent = `${what(action)}: ${u.name} (${role(u.role)})`;
  $("[data-ask]").hidden = false;
  $("[data-ask-title]").focus();
}

function drawUsers(users, requests) {
  const waiting = new Set(requests.map((r) => `${r.name}:${r.action}`));
  const body = $("[data-users] tbody");
  body.replaceChildren(...users.map((u) => {
    const tr = el("tr");
    tr.dataset.user = u.name;
    tr.dataset.state = !u.active ? "disabled" : u.approved ? "active" : "awaiting";
    tr.append(el("th", u.name), el("td", role(u.role)), el("td", state(u)), el("td", u.created_by || "—"),
      el("td", u.approved_by || "—"));
    tr.firstChild.scope = "row";
    const td = el("td");
    if (u.name !== me) {
      const actions = u.active ? ["disable", "password"] : ["enable"];
      for (const action of actions) {
        const b = button(what(action), { ask: action });
        if (waiting.has(`${u.name}:${action}`)) {
          b.disabled = true;
          b.title = say("adm.asked_already");
        }
        b.setAttribute("aria-label", `${what(action)}: ${u.name}`);
        b.addEventListener("click", () => ask(u, action));
        td.append(b, " ");
      }
    }
    tr.append(td);
    return tr;
  }));
}

async function refresh(force = false) {
  const [users, requests] = await Promise.all([get("/users"), get("/users/requests?state=pending")]);
  const now = JSON.stringify([users, requests]);
  if (!force && now === shown) return;  // (unchanged: nothing redrawn under the pointer)
  shown = now;
  drawPending(pendingRows(users, requests));
  drawUsers(users, requests);
}

function policyError(password, again, name) {
  if (password.length < 10) return say("adm.short");
  if (password !== again) return say("adm.mismatch");
  if (password === name) return say("adm.same_as_name");
  return null;
}

function setUp() {
  $("[data-adm-need]").hidden = true;
  $("[data-adm]").hidden = false;
  const create = $("[data-create]");
  create.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = $("[data-create-error]");
    const done = $("[data-create-done]");
    err.textContent = done.textContent = "";
    const name = field(create, "name").value.trim();
    const wrong = !name ? say("adm.need_name") : policyError(field(create, "password").value, field(create, "password2").value, name);
    if (wrong) { err.textContent = wrong; return; }
    try {
      const r = await post("/users", { name, role: field(create, "role").value, password: field(create, "password").value });
      done.textContent = r.approved
        ? `${name} (${role(r.role)}): ${say("adm.created_active")}`
        : `${name} (${role(r.role)}): ${say("adm.created_pending")}`;
      done.dataset.created = name;
      create.reset();
    } catch (x) {
      err.textContent = x.message;
    }
    await refresh(true);
  });
  const askForm = $("[data-ask-form]");
  askForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = $("[data-ask-error]");
    err.textContent = "";
    const body = { action: field(askForm, "action").value, reason: field(askForm, "reason").value.trim() };
    if (!body.reason) { err.textContent = say("adm.need_reason"); field(askForm, "reason").focus(); return; }
    if (body.action === "password") {
      const wrong = policyError(field(askForm, "password").value, field(askForm, "password2").value, field(askForm, "name").value);
      if (wrong) { err.textContent = wrong; return; }
      body.password = field(askForm, "password").value;
    }
    try {
      await post(`/users/${enc(field(askForm, "name").value)}/requests`, body);
      $("[data-users-done]").textContent = `${what(body.action)} · ${field(askForm, "name").value}: ${say("adm.asked")}`;
      $("[data-ask]").hidden = true;
      askForm.reset();
    } catch (x) {
      err.textContent = x.message;
    }
    await refresh(true);
  });
  $("[data-ask-cancel]").addEventListener("click", () => { $("[data-ask]").hidden = true; });
  refresh(true).catch((x) => { $("[data-users-error]").textContent = x.message; });
  setInterval(() => refresh().catch(() => {}), 5000);
}

if (session.role === "administrator") setUp();
