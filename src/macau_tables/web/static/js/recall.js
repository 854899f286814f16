// Recall (docs/operations.md): the last rounds, step by step, as the server rebuilds them
// from the journal. A player sees his own rounds as he saw them; staff pick a table (or a
// player). Nothing is computed here: the rounds, views and money are the server's.
import { PATHS, get, may, money, dateText, session, strings } from "./api.js";

const S = strings();
const form = document.querySelector("[data-recall-form]");
const title = document.querySelector("[data-recall-title]");
const empty = document.querySelector("[data-recall-empty]");
const error = document.querySelector("[data-error]");
const out = document.querySelector("[data-rounds]");
const staff = ["supervisor", "auditor", "dealer"].includes(session.role);

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function moneyTable(m) {
  const table = el("table", null, "grid");
  table.append(el("caption", S.net || "Net", "sr-only"));
  const head = el("tr");
  for (const h of [S.player, S.staked, S.returned, S.net]) head.append(el("th", h));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  for (const [who, row] of Object.entries(m.players)) {
    const tr = el("tr");
    tr.append(el("td", who), el("td", money(row.staked), "num"), el("td", money(row.returned), "num"),
      el("td", money(row.net), "num"));
    body.append(tr);
  }
  table.append(body);
  return table;
}

function roundSection(r) {
  const sec = el("section", null, "recall-round");
  sec.dataset.round = `${r.table_id}:${r.round}`;
  sec.dataset.status = r.status;
  const when = dateText(r.started_at);
  sec.append(el("h3", `${r.table_id} · ${S.round} ${r.round} · ${r.status}`));
  sec.append(el("p", `${when} · seq ${r.first_seq}–${r.last_seq}`));
  if (Object.keys(r.money.players).length) sec.append(moneyTable(r.money));
  const ol = el("ol", null, "recall-steps");
  for (const s of r.steps) {
    const li = el("li");
    li.dataset.seq = s.seq;
    const kinds = s.events.map((e) => e.kind).join(", ");
    li.append(el("span", `${dateText(s.at, { time: true })} · ${s.actor} · ${s.op}: ${kinds}`));
    const d = el("details");
    d.append(el("summary", S.view_after), el("pre", JSON.stringify(s.view, null, 1)));
    li.append(d);
    ol.append(li);
  }
  sec.append(ol);
  return sec;
}

async function show(path, heading) {
  error.textContent = "";
  title.textContent = heading;
  try {
    const body = await get(path);
    out.replaceChildren(...body.rounds.slice().reverse().map(roundSection));
    empty.hidden = body.rounds.length > 0;
  } catch (x) {
    out.replaceChildren();
    error.textContent = x.message;
  }
}

async function start() {
  const q = new URLSearchParams(location.search);
  if (!staff) {
    if (!may("recallPlayer")) { empty.textContent = S.need_recall; empty.hidden = false; return; }
    await show(`/players/${encodeURIComponent(session.user)}/recall`, S.my_rounds);
    return;
  }
  form.hidden = false;
  const select = form.querySelector("select");
  for (const t of await get(PATHS.tables)) select.append(new Option(t.id, t.id));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const table = select.value;
    const player = form.querySelector("input").value.trim();
    const next = new URLSearchParams(table ? { table } : player ? { player } : {});
    history.replaceState(null, "", `?${next}`);
    if (table) show(`/tables/${encodeURIComponent(table)}/recall`, `${S.table_rounds}: ${table}`);
    else if (player) show(`/players/${encodeURIComponent(player)}/recall`, `${S.my_rounds}: ${player}`);
  });
  if (q.get("table")) {
    select.value = q.get("table");
    await show(`/tables/${encodeURIComponent(q.get("table"))}/recall`, `${S.table_rounds}: ${q.get("table")}`);
  } else if (q.get("player")) {
    form.querySelector("input").value = q.get("player");
    await show(`/players/${encodeURIComponent(q.get("player"))}/recall`, `${S.my_rounds}: ${q.get("player")}`);
  }
}

if (session.user) start().catch((x) => { error.textContent = x.message; });
