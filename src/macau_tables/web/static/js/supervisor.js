// The supervisor's pit (docs/operations.md, "The supervisor's day"): every table live — its
// status, game, phase, limits, seats, and the day's drop, win and hold beside the theoretical
// hold (GET /ui/pit, GET /meters) —, a new table opened, and the table you look at: paused,
// resumed, closed or unlocked with a reason; a void or a correction asked for naming its
// round (the server refuses it if the round is no longer the one it would apply to); limits;
// a disputed round frozen and released. Then what waits for a second supervisor — requests
// with their evidence, fills of the cage —, disputes and the audit log. An auditor reads it
// all. Every rule is the server's: the page only asks.
import { PATHS, amountOf, dateText, decimal, get, mop, post, session, strings } from "./api.js";
import { argumentFields, FieldError } from "./forms.js";
import { opName } from "./words.js";

const S = strings();
const say = (key) => S[key] ?? key;
const reader = ["supervisor", "auditor"].includes(session.role);
const acts = session.role === "supervisor";
const $ = (sel) => document.querySelector(sel);
const enc = encodeURIComponent;
let looking = new URLSearchParams(location.search).get("table") || "";
let pit = [];         // GET /ui/pit
let meters = {};      // table -> its meters today
let detail = null;    // GET /ui/pit/{looking}
let detailSeq = null;
const drawn = {};     // what each list shows (redrawn only when it changes)

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function fact(dl, term, value, key) {
  const d = el("div");
  const dd = el("dd", value ?? "—");
  if (key) dd.dataset.fact = key;
  d.append(el("dt", term), dd);
  dl.append(d);
}

const gameName = (g) => S[`game.${g}`] ?? g;
const statusName = (s) => S[`st.${s}`] ?? s;
const phaseName = (p) => (p ? S[`ph.${p}`] ?? p : "—");
const pct = (text) => (text == null ? "—" : decimal(text));

function limitsText(t) {
  if (!t.limits) return say("no_limits");
  return `${mop(t.limits[0])} – ${mop(t.limits[1])}`;
}

function changed(name, value) {
  const now = JSON.stringify(value);
  if (drawn[name] === now) return false;
  drawn[name] = now;
  return true;
}

// --- the pit ---------------------------------------------------------------------------------

const rows = new Map();  // table -> {tr, cells}

function pitRow(t) {
  let row = rows.get(t.id);
  if (!row) {
    const tr = el("tr");
    tr.dataset.tableId = t.id;
    const th = el("th");
    th.scope = "row";
    const b = el("button", t.id, "link");
    b.type = "button";
    b.dataset.lookAt = t.id;
    b.setAttribute("aria-label", `${say("pit.look")} ${t.id}`);
    b.addEventListener("click", () => look(t.id, true));
    th.append(b);
    tr.append(th);
    const cells = {};
    for (const k of ["game", "status", "phase", "limits", "seats", "drop", "win", "hold", "theo"]) {
      cells[k] = el("td", "", ["seats", "drop", "win", "hold", "theo"].includes(k) ? "num" : null);
      cells[k].dataset.cell = k;
      tr.append(cells[k]);
    }
    row = { tr, cells, button: b };
    rows.set(t.id, row);
  }
  const m = meters[t.id];
  const theo = m && m.theoretical && m.theoretical.available ? m.theoretical : null;
  const put = {
    game: `${gameName(t.game)}${t.live ? ` · ${say("pit.live")}` : ""}`,
    status: statusName(t.status) + (t.lock_reason ? ` (${t.lock_reason})` : ""),
    phase: phaseName(t.phase),
    limits: limitsText(t),
    seats: t.seats ? `${t.players} / ${t.seats}` : String(t.players),
    drop: m ? mop(m.drop) : "…",
    win: m ? mop(m.win) : "…",
    hold: m ? pct(m.hold) : "…",
    theo: m ? (theo ? pct(theo.hold) : say("unavailable")) : "…",
  };
  for (const [k, v] of Object.entries(put)) if (row.cells[k].textContent !== v) row.cells[k].textContent = v;
  row.tr.dataset.status = t.status;
  row.tr.classList.toggle("looking", t.id === looking);
  row.button.setAttribute("aria-pressed", String(t.id === looking));
  return row.tr;
}

function drawPit() {
  const body = $("[data-pit] tbody");
  const want = pit.map(pitRow);
  for (const [id, row] of rows) if (!pit.some((t) => t.id === id)) { row.tr.remove(); rows.delete(id); }
  want.forEach((tr, i) => { if (body.children[i] !== tr) body.insertBefore(tr, body.children[i] || null); });
}

async function refreshPit() {
  try {
    pit = await get("/ui/pit");
    $("[data-pit-error]").textContent = "";
  } catch (x) {
    $("[data-pit-error]").textContent = x.message;
    return;
  }
  drawPit();
  const t = pit.find((x) => x.id === looking);
  if (t && t.seq !== detailSeq) await refreshDetail();
}

async function refreshMeters() {
  try {
    const r = await get(PATHS.meters);
    meters = Object.fromEntries(r.tables.map((m) => [m.table_id, m]));
    const when = `${r.window.start} → ${r.window.end}`;
    $("[data-pit-day]").textContent = `${S.gaming_day} ${r.day} (${when}) · ${r.closed ? S.closed_by + " " + r.closed.by : S.live_figures}`;
    drawPit();
  } catch (x) {
    $("[data-pit-error]").textContent = x.message;
  }
}

// --- the table you look at ---------------------------------------------------------------------

function look(id, focus = false) {
  looking = id;
  const url = new URL(location.href);
  url.searchParams.set("table", id);
  history.replaceState(null, "", url);
  detail = null;
  detailSeq = null;
  for (const f of document.querySelectorAll("[data-look] form")) f.reset();
  drawPit();
  refreshDetail().then(() => { if (focus) $("[data-look-title]").focus(); });
}

function describeArgs(args) {
  return Object.entries(args || {}).map(([k, v]) => {
    if (k === "hands" && v && typeof v === "object") {
      return Object.entries(v).map(([seat, tiles]) => `${S.seat} ${seat}: ${tiles.join(" ")}`).join("; ");
    }
    const shown = Array.isArray(v) ? v.join(" · ") : String(v);
    return `${say(`fld.${k}`)} ${shown}`;
  }).join(", ");
}

let correctFields = null;

function drawDetail() {
  const t = pit.find((x) => x.id === looking);
  const box = $("[data-look]");
  if (!t || !detail) { box.hidden = !t; return; }
  box.hidden = false;
  box.dataset.tableId = t.id;
  $("[data-look-title]").textContent = `${say("pit.looking")} ${t.id} · ${gameName(t.game)}`;
  const dl = $("[data-look-facts]");
  dl.replaceChildren();
  fact(dl, S.status, statusName(t.status), "status");
  fact(dl, say("pit.phase"), phaseName(t.phase), "phase");
  fact(dl, S.dealer_mode, t.live ? S.live_table : S.auto_table);
  const r = detail.round;
  fact(dl, S.round, r ? `${r.number} (${say(`pit.round.${r.status.replace(" ", "_")}`)})` : "—", "round");
  fact(dl, S.seats, t.seats ? `${t.players} / ${t.seats}` : String(t.players));
  fact(dl, S.limits, limitsText(t));
  $("[data-look-recall]").href = `/recall?table=${enc(t.id)}`;
  // the status buttons this status takes (the server refuses the others anyway)
  const verbs = { open: ["pause", "close"], paused: ["resume", "close"], locked: ["unlock"], closed: [] }[t.status] ?? [];
  for (const b of document.querySelectorAll("[data-form=status] [data-verb]")) b.hidden = !verbs.includes(b.dataset.verb);
  $("[data-form=status]").hidden = verbs.length === 0;
  // the void: of the table's last round, named by its number
  $("[data-void-title]").textContent = r
    ? say("pit.void_round").replace("{round}", r.number).replace("{table}", t.id)
    : S["sv.void"];
  $("[data-void-none]").hidden = Boolean(r);
  $("[data-void-button]").textContent = r ? say("pit.ask_void").replace("{round}", r.number) : S["sv.ask"];
  $("[data-void-button]").disabled = !r;
  // the correction: of the table's last operation, if it keyed in an outcome
  const k = detail.keyed;
  const fields = $("[data-correct-fields]");
  $("[data-correct-none]").hidden = Boolean(k);
  $("[data-correct-reason]").hidden = !k;
  if (!k) {
    fields.replaceChildren();
    correctFields = null;
    $("[data-correct-title]").textContent = S["sv.correct"];
  } else if (fields.dataset.seq !== String(k.seq)) {
    $("[data-correct-title]").textContent = say("pit.correct_round")
      .replace("{round}", k.round ?? "—").replace("{op}", opName(k.op)).replace("{seq}", k.seq);
    const places = Array.from({ length: 8 }, (_, i) => i + 1);
    const seats = k.args.hands ? Object.keys(k.args.hands).map(Number) : places;
    correctFields = argumentFields(k.fields, { game: t.game, op: k.op, values: k.args, seats });
    fields.replaceChildren(...correctFields.elements);
  }
  fields.dataset.seq = k ? String(k.seq) : "";
  $("[data-bac-limits]").hidden = t.game !== "baccarat";
}

async function refreshDetail() {
  if (!looking) return;
  try {
    detail = await get(`/ui/pit/${enc(looking)}`);
    detailSeq = detail.table.seq;
  } catch (x) {
    $("[data-act-error]").textContent = x.message;
    return;
  }
  drawDetail();
}

// an amount typed in MOP, in avos; a field that is not an amount stops the form (nothing sent)
const avos = (text) => {
  const n = amountOf(text);
  if (n == null) throw new FieldError(S.bad_amount);
  return n;
};
const list = (text) => String(text || "").split(",").map((s) => s.trim()).filter(Boolean);
const reasonOf = (f) => {
  const v = f.elements.namedItem("reason").value.trim();
  if (!v) throw new FieldError(say("adm.need_reason"));
  return v;
};

const BAC_BETS = ["tie", "banker_pair", "player_pair"];
function limitsBody(f) {
  const v = (name) => f.elements.namedItem(name).value;
  const body = { min_bet: avos(v("min_bet")), max_bet: avos(v("max_bet")), reason: reasonOf(f) };
  if (f.querySelector("[data-bac-limits]").hidden) return body;
  const bets = {};
  for (const bet of BAC_BETS) {
    const lo = v(`${bet}_min`).trim();
    const hi = v(`${bet}_max`).trim();
    if (lo || hi) bets[bet] = [avos(lo), avos(hi)];
  }
  if (Object.keys(bets).length) body.bets = bets;
  if (v("differential").trim()) body.differential = avos(v("differential"));
  return body;
}

const SEND = {
  status: (t, f, verb) => post(`/tables/${enc(t)}/${verb}`, { reason: reasonOf(f) }),
  void: (t, f) => post(`/tables/${enc(t)}/requests`, {
    action: "void", reason: reasonOf(f), round: detail?.round?.number,
  }),
  correct: (t, f) => {
    if (!detail?.keyed || !correctFields) throw new FieldError(say("pit.nothing_to_correct"));
    const args = correctFields.read();
    return post(`/tables/${enc(t)}/requests`, {
      action: "correct", of_seq: detail.keyed.seq, args, reason: reasonOf(f), round: detail.keyed.round,
    });
  },
  limits: (t, f) => post(`/tables/${enc(t)}/limits`, limitsBody(f)),
  freeze: (t, f) => post(`/tables/${enc(t)}/freeze`, {
    note: f.elements.namedItem("note").value.trim(),
    evidence: list(f.elements.namedItem("evidence").value),
    seqs: list(f.elements.namedItem("seqs").value).map(Number),
  }),
  release: (t, f) => post(`/tables/${enc(t)}/release`, { reason: reasonOf(f) }),
};

function doneText(form, r) {
  if (r.id && r.action) {
    const what = r.action === "void" ? say("pit.what.void") : say("pit.what.correct");
    return `#${r.id} · ${what} · ${S.round} ${r.round ?? "—"} · ${r.table_id}: ${say(`pit.state.${r.state}`)}`;
  }
  return `${looking}: ${say(`pit.done.${form}`)}`;
}

// --- what waits for a second person ------------------------------------------------------------

function needReason() {
  const box = $("[data-decision-reason]");
  const reason = box.value.trim();
  if (!reason) { box.focus(); throw new FieldError(say("adm.need_reason")); }
  return reason;
}

async function decide(r, verdict) {
  const err = $("[data-req-error]");
  err.textContent = "";
  try {
    await post(`/supervisor/requests/${r.id}/${verdict}`, { reason: needReason() }, { idempotent: verdict === "approve" });
    $("[data-decision-reason]").value = "";
  } catch (x) {
    err.textContent = x.message;
  }
  await refreshLists(true);
}

function evidenceOf(r, disputes) {
  const d = disputes.find((x) => x.table_id === r.table_id && !x.resolved);
  const parts = [`${say("pit.asked_at")} ${dateText(r.requested_at)}`, `${say("pit.at_entry")} #${r.table_seq}`];
  if (d) {
    parts.push(`${say("sv.disputes")} #${d.id}: ${d.note}`);
    if (d.evidence.length) parts.push(`${say("pit.evidence")}: ${d.evidence.join(", ")}`);
    if (d.seqs.length) parts.push(`${say("pit.entries")} ${d.seqs.map((s) => `#${s}`).join(", ")}`);
  }
  return parts.join(" · ");
}

function drawRequests(rows, disputes) {
  const body = $("[data-requests] tbody");
  body.replaceChildren(...rows.map((r) => {
    const tr = el("tr");
    tr.dataset.request = r.id;
    tr.dataset.state = r.state;
    tr.dataset.round = r.round ?? "";
    const what = r.action === "correct"
      ? `${say("pit.what.correct")} #${r.args.of_seq} → ${describeArgs(r.args.args)}`
      : say("pit.what.void");
    tr.append(el("td", `#${r.id}`), el("td", r.table_id), el("td", r.round == null ? "—" : String(r.round)),
      el("td", what), el("td", r.reason), el("td", evidenceOf(r, disputes)),
      el("td", r.decided_by ? `${r.requested_by} → ${r.decided_by}` : r.requested_by));
    const st = el("td", say(`pit.state.${r.state}`));
    st.dataset.stateCell = "";
    tr.append(st);
    const td = el("td");
    if (r.state === "pending" && acts && r.requested_by !== session.user) {
      for (const verdict of ["approve", "reject"]) {
        const b = el("button", S[`sv.${verdict}`]);
        b.type = "button";
        b.dataset.verdict = verdict;
        b.setAttribute("aria-label", `${S[`sv.${verdict}`]} #${r.id}`);
        b.addEventListener("click", () => decide(r, verdict));
        td.append(b, " ");
      }
    } else if (r.state === "pending") {
      td.append(el("span", say("adm.waits_second"), "muted"));
    }
    tr.append(td);
    return tr;
  }));
  $("[data-req-none]").hidden = rows.some((r) => r.state === "pending");
}

async function decideFill(f, verdict) {
  const err = $("[data-fill-error]");
  err.textContent = "";
  try {
    await post(`/cage/fills/${f.id}/${verdict}`, { reason: needReason() });
    $("[data-decision-reason]").value = "";
  } catch (x) {
    err.textContent = x.message;
  }
  await refreshLists(true);
}

function drawFills(cage) {
  $("[data-cage]").textContent = `${say("pit.cage")}: ${mop(cage.balance)}`;
  $("[data-fills]").replaceChildren(...cage.fills.slice(0, 10).map((f) => {
    const li = el("li");
    li.dataset.fill = f.id;
    li.dataset.state = f.state;
    const by = f.decided_by ? `${f.requested_by} → ${f.decided_by}` : f.requested_by;
    li.append(el("span", `#${f.id} · ${mop(f.amount)} · ${f.reason} · ${by} · ${say(`pit.state.${f.state}`)} `));
    if (f.state === "pending" && acts && f.requested_by !== session.user) {
      for (const verdict of ["approve", "reject"]) {
        const b = el("button", S[`sv.${verdict}`]);
        b.type = "button";
        b.setAttribute("aria-label", `${S[`sv.${verdict}`]} · ${say("pit.fill")} #${f.id}`);
        b.addEventListener("click", () => decideFill(f, verdict));
        li.append(b, " ");
      }
    }
    return li;
  }));
}

function drawDisputes(rows) {
  $("[data-disputes]").replaceChildren(...rows.map((d) => {
    const how = d.resolved ? `${say(`pit.resolved.${d.resolved}`)} (${d.resolved_by})` : say("pit.open_dispute");
    const ev = d.evidence.join(", ") || say("pit.no_evidence");
    const seqs = d.seqs.map((s) => `#${s}`).join(", ") || "—";
    return el("li", `#${d.id} ${d.table_id}: ${d.note} — ${say("pit.evidence")}: ${ev} — ${say("pit.entries")} ${seqs} — ${how}`);
  }));
}

function drawAudit(rows) {
  $("[data-audit] tbody").replaceChildren(...rows.map((e) => {
    const tr = el("tr");
    tr.append(el("td", dateText(e.at)), el("td", e.user), el("td", e.action), el("td", e.target), el("td", e.reason));
    return tr;
  }));
}

async function refreshLists(force = false) {
  if (force) for (const k of Object.keys(drawn)) delete drawn[k];
  const [requests, disputes, audit, cage] = await Promise.all([
    get("/supervisor/requests?limit=50"), get("/supervisor/disputes"), get("/audit/log?limit=50"), get("/cage"),
  ]);
  if (changed("requests", [requests, disputes])) drawRequests(requests, disputes);
  if (changed("disputes", disputes)) drawDisputes(disputes);
  if (changed("audit", audit)) drawAudit(audit);
  if (changed("cage", cage)) drawFills(cage);
}

// --- set up ------------------------------------------------------------------------------------

function wireForms() {
  for (const form of document.querySelectorAll("[data-look] [data-form]")) {
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const err = $("[data-act-error]");
      const done = $("[data-act-done]");
      err.textContent = done.textContent = "";
      const table = looking;
      try {
        const r = await SEND[form.dataset.form](table, form, e.submitter?.dataset.verb);
        done.textContent = doneText(form.dataset.form, r);
        if (form.dataset.form !== "correct") form.reset();
      } catch (x) {
        err.textContent = x.message;
      }
      await Promise.all([refreshPit(), refreshDetail(), refreshLists(true)]);
    });
  }
  const nt = $("[data-new-table]");
  nt.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = $("[data-new-error]");
    const done = $("[data-new-done]");
    err.textContent = done.textContent = "";
    const id = nt.elements.namedItem("id").value.trim();
    if (!id) { err.textContent = `${say("pit.table_id")}?`; return; }
    try {
      const t = await post(PATHS.tables, {
        id, game: nt.elements.namedItem("game").value, dealer: nt.elements.namedItem("dealer").value,
      });
      done.textContent = `${t.id} · ${gameName(t.game)}: ${statusName(t.status)}`;
      nt.reset();
      await refreshPit();
      look(t.id);
    } catch (x) {
      err.textContent = x.message;
    }
  });
  const fill = $("[data-fill-form]");
  fill.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = $("[data-fill-error]");
    err.textContent = "";
    try {
      await post("/cage/fills", { amount: avos(fill.elements.namedItem("amount").value), reason: reasonOf(fill) });
      fill.reset();
    } catch (x) {
      err.textContent = x.message;
    }
    await refreshLists(true);
  });
}

async function setUp() {
  if (!reader) return;
  $("[data-sv-need]").hidden = true;
  $("[data-sv]").hidden = false;
  if (acts) {
    for (const e of document.querySelectorAll("[data-sv-act]")) e.hidden = false;
    const games = await get("/games");
    $("#nt-game").replaceChildren(...games.map((g) => new Option(gameName(g.name), g.name)));
    wireForms();
  }
  await refreshPit();
  if (looking) look(looking);
  refreshMeters();
  await refreshLists(true);
  setInterval(refreshPit, 3000);
  setInterval(refreshMeters, 15000);
  setInterval(() => refreshLists().catch(() => {}), 5000);
}

setUp().catch((x) => { $("[data-req-error]").textContent = x.message; });
