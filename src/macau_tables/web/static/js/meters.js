// The meters: GET /meters?day= drawn as a table, one row per table and the
// totals; a supervisor closes a gaming day that is over (POST /meters/close). Every figure
// is the server's (server/meters.py); nothing is computed here but the formatting.
import { PATHS, decimal, get, money, post, session, strings } from "./api.js";

const S = strings();
const form = document.querySelector("[data-day]");
const closeButton = document.querySelector("[data-close]");
const state = document.querySelector("[data-state]");
const error = document.querySelector("[data-error]");
const body = document.querySelector("[data-meters] tbody");
const foot = document.querySelector("[data-meters] tfoot");
const staff = ["supervisor", "auditor"].includes(session.role);

function cell(row, text, { num = false, header = false } = {}) {
  const c = document.createElement(header ? "th" : "td");
  if (header) c.scope = "row";
  if (num) c.className = "num";
  c.textContent = text ?? "—";
  row.append(c);
  return c;
}

function theo(t) {
  return t.theoretical && t.theoretical.available ? t.theoretical : null;
}

function row(t) {
  const tr = document.createElement("tr");
  tr.dataset.tableId = t.table_id;
  cell(tr, t.table_id, { header: true });
  cell(tr, S[`game.${t.game}`] || t.game);
  for (const k of ["drop", "cash_out", "win", "commission", "handle"]) {
    cell(tr, money(t[k]), { num: true }).dataset.figure = k;
  }
  cell(tr, decimal(t.hold), { num: true }).dataset.figure = "hold";
  const th = theo(t);
  const tw = cell(tr, th ? money(th.theoretical_win) : S.unavailable, { num: true });
  tw.dataset.figure = "theoretical_win";
  if (!th && t.theoretical) tw.title = t.theoretical.reason;
  cell(tr, th ? decimal(th.hold) : "—", { num: true }).dataset.figure = "theoretical_hold";
  const ok = t.reconciliation.ok;
  const rc = cell(tr, ok ? "✓" : `${S.mismatch}: ${t.reconciliation.mismatches.join("; ")}`);
  rc.dataset.reconciled = String(ok);
  if (!ok) rc.className = "error";
  return tr;
}

function totals(r) {
  const tr = document.createElement("tr");
  cell(tr, S.total, { header: true });
  cell(tr, "");
  for (const k of ["drop", "cash_out", "win", "commission", "handle"]) {
    cell(tr, money(r.totals[k]), { num: true }).dataset.total = k;
  }
  cell(tr, decimal(r.totals.hold), { num: true });
  cell(tr, money(r.totals.theoretical_win), { num: true });
  cell(tr, decimal(r.totals.theoretical_hold), { num: true });
  cell(tr, r.reconciled ? "✓" : S.mismatch).dataset.reconciled = String(r.reconciled);
  return tr;
}

async function show(day) {
  error.textContent = "";
  const r = await get(`${PATHS.meters}?day=${encodeURIComponent(day)}`);
  body.replaceChildren(...r.tables.map(row));
  foot.replaceChildren(totals(r));
  const when = `${r.window.start} → ${r.window.end}`;
  state.textContent = r.closed
    ? `${S.gaming_day} ${r.day} (${when}) · ${S.closed_by} ${r.closed.by}`
    : `${S.gaming_day} ${r.day} (${when}) · ${S.live_figures}`;
  state.dataset.closed = String(Boolean(r.closed));
  closeButton.hidden = session.role !== "supervisor" || Boolean(r.closed);
}

if (session.user && !staff) document.querySelector("[data-need-staff]").hidden = false;
if (staff) {
  form.hidden = false;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    show(form.day.value).catch((x) => { error.textContent = x.message; });
  });
  closeButton.addEventListener("click", async () => {
    error.textContent = "";
    try {
      await post(PATHS.metersClose, { day: form.day.value });
      await show(form.day.value);
    } catch (x) {
      error.textContent = x.message;
    }
  });
  get(PATHS.meters)
    .then((r) => { form.day.value = r.day; return show(r.day); })
    .catch((x) => { error.textContent = x.message; });
}
