// The dealer's console at a live table (docs/operations.md, "The dealer's day"): the
// dealer's operations the engine's pending() gives now, as buttons; key-in forms for what
// the physical table shows (dice, cards, tiles), whose refusals show the engine's message
// and rule; the players the rules wait for, with the default the dealer may apply; the
// table as the dealer sees it, and its events. Everything is the server's: the page never
// decides a rule.
import { PATHS, command, fact, get, may, post, session, strings } from "./api.js";
import { toast } from "./session.js";

const S = strings();
const say = (key) => S[key] ?? key;
const root = document.querySelector("[data-dealer]");
const tableId = root.dataset.tableId;
const q = (sel) => root.querySelector(sel);
const CONSOLE = `/tables/${encodeURIComponent(tableId)}/dealer`;
const DEFAULT = `${CONSOLE}/default`;
// the key-in forms, and when each is the way to run its operation
const FORMS = {
  throw_dice: () => true,
  deal: (c) => Boolean(c.view.shoe && c.view.shoe.keyed),
  draw: () => true,
  shake: (c) => Boolean(c.view.woodpile && c.view.woodpile.keyed),
};
let current = null;

function showError(x) {
  const box = q("[data-error]");
  if (!x) { box.hidden = true; return; }
  const body = x.body || {};
  q("[data-error-message]").textContent = body.message || x.message;
  q("[data-error-rule]").textContent = body.rule ? `(${body.rule})` : "";
  box.hidden = false;
  toast(x.message);
}

async function run(op, args = {}) {
  try {
    await command(tableId, op, args);
    showError(null);
  } catch (x) { showError(x); }
}

async function refresh() {
  try { current = await get(CONSOLE); } catch (x) { showError(x); return; }
  render(current);
}

function render(c) {
  q("[data-game]").textContent = c.table.game;
  q("[data-mode]").textContent = c.live ? say("live_table") : say("auto_table");
  q("[data-status]").textContent = [c.status, c.view.phase].filter(Boolean).join(" · ");
  q("[data-seq]").textContent = String(c.seq);
  const ops = [...new Set(c.dealer.flatMap((p) => p.operations))];
  q("[data-pending-rules]").textContent = c.dealer.map((p) => `${p.operations.join(", ")} (${p.rule})`).join(" · ");
  const formed = new Set();
  for (const [op, when] of Object.entries(FORMS)) {
    const show = ops.includes(op) && op in c.keyin && when(c);
    q(`[data-form="${op}"]`).hidden = !show;
    if (show) formed.add(op);
  }
  const third = c.view.shoe && c.view.shoe.third_card_due;
  q("[data-third-side]").textContent = third ? `(${third})` : "";
  q("[data-ops]").replaceChildren(...ops.filter((op) => !formed.has(op)).map((op) => {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.op = op;
    b.textContent = op.replaceAll("_", " ");
    return b;
  }));
  const other = q("[data-other-op]");
  const chosen = other.value;
  other.replaceChildren(...ops.map((op) => new Option(op, op)));
  if (ops.includes(chosen)) other.value = chosen;
  q("[data-waiting]").replaceChildren(...c.waiting.filter((p) => p.default).map((p) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.defaultActor = p.actor;
    b.dataset.defaultOp = p.default;
    b.textContent = `${say("apply_default")}: ${p.actor} · ${p.default.replaceAll("_", " ")} (${p.rule})`;
    li.append(b);
    return li;
  }));
  const dl = q("[data-view]");
  dl.replaceChildren();
  for (const [k, v] of Object.entries(c.view)) {
    if (k === "pending" || k === "rules" || k === "roads") continue;
    fact(dl, k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)).dataset.key = k;
  }
}

root.addEventListener("click", (e) => {
  const b = e.target.closest("button[data-op]");
  if (b) run(b.dataset.op);
  const d = e.target.closest("button[data-default-actor]");
  if (d) {
    post(DEFAULT, { actor: d.dataset.defaultActor, op: d.dataset.defaultOp }, { idempotent: true })
      .then(() => showError(null), showError);
  }
});

root.addEventListener("submit", (e) => {
  e.preventDefault();
  const form = e.target.closest("[data-form]");
  const op = form.dataset.form;
  const dice = [...form.querySelectorAll("[data-die]")].map((i) => Number(i.value));
  const cards = [...form.querySelectorAll("[data-card]")].map((i) => i.value.trim());
  if (op === "throw_dice") run(op, { dice });
  else if (op === "deal") run(op, { cards });
  else if (op === "draw") run(op, { card: cards[0] });
  else if (op === "shake") run(op, { dice, hands: hands(form.querySelector("[data-hands]").value) });
  else {
    let args;
    try { args = JSON.parse(q("[data-other-args]").value || "{}"); } catch { showError(new Error(say("bad_json"))); return; }
    run(q("[data-other-op]").value, args);
  }
});

// "1: 6-6 1-1 4-5 2-3" per line -> {"1": ["6-6", "1-1", "4-5", "2-3"]} (the engine checks them)
function hands(text) {
  const out = {};
  for (const line of text.split("\n")) {
    const [seat, rest] = line.split(":");
    if (rest !== undefined && seat.trim()) out[seat.trim()] = rest.trim().split(/[\s,]+/).filter(Boolean);
  }
  return out;
}

// an event's value as the log shows it: ["2c", "3d"] -> "2c 3d"; rows (a settlement's
// results, postings, hands) -> "player bob seat 2 … net 9600; …", "1 [4-4 4-4 1-3 1-3]; …"
function plain(v, nested = false) {
  if (Array.isArray(v)) {
    const rows = v.length > 0 && v.every((x) => x !== null && typeof x === "object");
    if (rows) return v.map((x) => plain(x)).join("; ");
    const text = v.map((x) => plain(x, true)).join(" ");
    return nested ? `[${text}]` : text;
  }
  if (v !== null && typeof v === "object") {
    return Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => `${k} ${plain(x, true)}`).join(" ");
  }
  return String(v);
}

function logEvent(seq, ev) {
  const log = q("[data-log]");
  const li = document.createElement("li");
  const detail = Object.entries(ev.data || {})
    .filter(([k, v]) => v !== null && k !== "table_id" && (typeof v !== "object" || Array.isArray(v)))
    .map(([k, v]) => `${k} ${plain(v)}`).join(", ");
  li.textContent = `#${seq} ${ev.kind}${detail ? ": " + detail : ""}`;
  log.prepend(li);
  while (log.children.length > 80) log.lastChild.remove();
}

let lastSeq = null;
let retry = 500;
function connect() {
  if (!session.user) return;
  const ws = new WebSocket(PATHS.socket(tableId, lastSeq));  // (the session cookie)
  ws.onopen = () => { retry = 500; q("[data-conn]").textContent = ""; };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (typeof msg.seq === "number") lastSeq = Math.max(lastSeq ?? -1, msg.seq);
    if (msg.type === "event") logEvent(msg.seq, msg.event);
    else if (msg.type === "snapshot" || msg.type === "state") refresh();
    else if (msg.type === "error") q("[data-conn]").textContent = `${msg.message} (${msg.rule})`;
  };
  ws.onclose = (e) => {
    if (e.code >= 4400 && e.code < 4500) return;
    q("[data-conn]").textContent = say("disconnected");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}

window.macauDealer = { refresh, get state() { return current; } };
if (may("dealerConsole")) { refresh(); connect(); } else if (session.user) q("[data-need-dealer]").hidden = false;
