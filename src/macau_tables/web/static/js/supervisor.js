// The supervisor's page: requests to decide (a second supervisor approves or rejects), the
// void / correct / limits / freeze / release forms, disputes and the audit log — all through
// the server's API (docs/operations.md, "The supervisor's day"). The rules are the server's.
import { PATHS, amountOf, dateText, get, post, session, strings } from "./api.js";

const S = strings();
const reader = ["supervisor", "auditor"].includes(session.role);
const acts = session.role === "supervisor";
const $ = (sel) => document.querySelector(sel);
const enc = encodeURIComponent;

function cell(tr, text) {
  const td = document.createElement("td");
  td.textContent = text ?? "";
  tr.append(td);
  return td;
}

function what(r) {
  return r.action === "correct" ? `correct #${r.args.of_seq} → ${JSON.stringify(r.args.args)}` : r.action;
}

async function decide(r, verdict) {
  const err = $("[data-req-error]");
  err.textContent = "";
  const reason = $("[data-decision-reason]").value.trim();
  if (!reason) {
    err.textContent = `${S["sv.reason"]}?`;
    $("[data-decision-reason]").focus();
    return;
  }
  try {
    await post(`/supervisor/requests/${r.id}/${verdict}`, { reason }, { idempotent: verdict === "approve" });
  } catch (x) {
    err.textContent = x.message;
  }
  await refresh();
}

async function showRequests() {
  const body = $("[data-requests] tbody");
  const rows = await get("/supervisor/requests?limit=50");
  body.replaceChildren();
  for (const r of rows) {
    const tr = document.createElement("tr");
    tr.dataset.request = r.id;
    tr.dataset.state = r.state;
    cell(tr, `#${r.id}`);
    cell(tr, r.table_id);
    cell(tr, what(r));
    cell(tr, r.reason);
    cell(tr, r.decided_by ? `${r.requested_by} → ${r.decided_by}` : r.requested_by);
    cell(tr, r.state).dataset.stateCell = "";
    const td = cell(tr, "");
    if (acts && r.state === "pending" && r.requested_by !== session.user) {
      for (const verdict of ["approve", "reject"]) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = S[`sv.${verdict}`];
        b.dataset.verdict = verdict;
        b.addEventListener("click", () => decide(r, verdict));
        td.append(b, " ");
      }
    }
    body.append(tr);
  }
}

async function showDisputes() {
  const list = $("[data-disputes]");
  const rows = await get("/supervisor/disputes");
  list.replaceChildren();
  for (const d of rows) {
    const li = document.createElement("li");
    const how = d.resolved ? `${d.resolved} (${d.resolved_by})` : "open";
    li.textContent = `#${d.id} ${d.table_id}: ${d.note} — ${d.evidence.join(", ") || "no evidence"} — seqs ${d.seqs.join(", ") || "—"} — ${how}`;
    list.append(li);
  }
}

async function showAudit() {
  const body = $("[data-audit] tbody");
  const rows = await get("/audit/log?limit=50");
  body.replaceChildren();
  for (const e of rows) {
    const tr = document.createElement("tr");
    cell(tr, dateText(e.at));
    cell(tr, e.user);
    cell(tr, e.action);
    cell(tr, e.target);
    cell(tr, e.reason);
    body.append(tr);
  }
}

async function refresh() {
  await Promise.all([showRequests(), showDisputes(), showAudit()]);
}

// an amount typed in MOP, in avos; a field that is not an amount stops the form with a
// message (nothing is sent)
const avos = (text) => {
  const n = amountOf(text);
  if (n == null) throw new Error(S.bad_amount);
  return n;
};
const list = (text) => String(text || "").split(",").map((s) => s.trim()).filter(Boolean);

// The limits form: min / max are the table's main bet (craps flat bets, baccarat Player and
// Banker, a tile table's bet on a place); at baccarat the other bets' limits and the BA-14
// differential may be given too (blank: unchanged).
const BAC_BETS = ["tie", "banker_pair", "player_pair"];
function limitsBody(f) {
  const body = { min_bet: avos(f.min_bet.value), max_bet: avos(f.max_bet.value), reason: f.reason.value };
  if (f.querySelector("[data-bac-limits]").hidden) return body;
  const bets = {};
  for (const bet of BAC_BETS) {
    const lo = f[`${bet}_min`].value.trim();
    const hi = f[`${bet}_max`].value.trim();
    if (lo || hi) bets[bet] = [avos(lo), avos(hi)];
  }
  if (Object.keys(bets).length) body.bets = bets;
  if (f.differential.value.trim()) body.differential = avos(f.differential.value);
  return body;
}

const SEND = {
  void: (t, f) => post(`/tables/${enc(t)}/requests`, { action: "void", reason: f.reason.value }),
  correct: (t, f) => post(`/tables/${enc(t)}/requests`, {
    action: "correct", of_seq: Number(f.of_seq.value), args: JSON.parse(f.args.value), reason: f.reason.value,
  }),
  limits: (t, f) => post(`/tables/${enc(t)}/limits`, limitsBody(f)),
  freeze: (t, f) => post(`/tables/${enc(t)}/freeze`, {
    note: f.note.value, evidence: list(f.evidence.value), seqs: list(f.seqs.value).map(Number),
  }),
  release: (t, f) => post(`/tables/${enc(t)}/release`, { reason: f.reason.value }),
};

async function setUp() {
  if (!reader) return;
  $("[data-sv-need]").hidden = true;
  $("[data-sv]").hidden = false;
  if (acts) {
    $("[data-sv-act]").hidden = false;
    const select = $("[data-sv-table]");
    for (const t of await get(PATHS.tables)) {
      const o = document.createElement("option");
      o.value = t.id;
      o.dataset.game = t.game;
      o.textContent = `${t.id} (${t.game}, ${t.status})`;
      select.append(o);
    }
    const bac = $("[data-bac-limits]");
    const showBac = () => { bac.hidden = select.selectedOptions[0]?.dataset.game !== "baccarat"; };
    select.addEventListener("change", showBac);
    showBac();
    for (const form of document.querySelectorAll("[data-form]")) {
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        const err = $("[data-act-error]");
        const done = $("[data-act-done]");
        err.textContent = done.textContent = "";
        try {
          const r = await SEND[form.dataset.form](select.value, form);
          done.textContent = r.id ? `#${r.id}: ${r.state}` : `${select.value}: ${r.status ?? "ok"}`;
          form.reset();
        } catch (x) {
          err.textContent = x.message;
        }
        await refresh();
      });
    }
  }
  await refresh();
}

setUp().catch((x) => { $("[data-req-error]").textContent = x.message; });
