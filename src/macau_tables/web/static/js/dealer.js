// The dealer's console at a live table (docs/operations.md, "The dealer's day"): a form for
// each operation the engine's pending() gives the dealer now, its fields built from the
// arguments the server declares for it (no JSON typed); the engine's refusal shown with its
// rule until the next key-in it takes; the table in words, money as money; the players the
// rules wait for, with the default the dealer may apply; what happened, as a croupier says
// it (the journal as recorded one click away). The page never decides a rule.
import { PATHS, command, get, mop, may, post, session, strings } from "./api.js";
import { toast } from "./session.js";
import { argumentFields, FieldError } from "./forms.js";
import { narrate, opName } from "./words.js";

const S = strings();
const say = (key) => S[key] ?? key;
const root = document.querySelector("[data-dealer]");
const tableId = root.dataset.tableId;
const q = (sel) => root.querySelector(sel);
const CONSOLE = `/tables/${encodeURIComponent(tableId)}/dealer`;
const DEFAULT = `${CONSOLE}/default`;
const forms = new Map();  // op -> its form, kept while the op stays (what is typed stays)
let current = null;

function showError(x) {
  const box = q("[data-error]");
  if (!x) { box.hidden = true; return; }
  const body = x.body || {};
  q("[data-error-message]").textContent = x instanceof FieldError ? x.message : (body.message || x.message);
  q("[data-error-rule]").textContent = body.rule ? `(${body.rule})` : "";
  box.hidden = false;
  toast(x.message);
}

const who = (name) => String(name ?? "").replace(/^player:/, "");
const phase = (p) => (p ? say(`ph.${p}`) : "—");
const betName = (bet) => S[`ba.${bet}`] ?? S[`cr.${bet}`] ?? String(bet).replaceAll("_", " ");
const sentence = (key, fill) => say(key).replace(/\{(\w+)\}/g, (_, k) => String(fill[k] ?? ""));

// The table now, in words (the engine's view as the dealer sees it; amounts as money).
function stateWords(c) {
  const v = c.view || {};
  const out = [sentence("dl.phase", { phase: phase(v.phase) })];
  if (c.table.game === "baccarat") {
    const shoe = v.shoe || {};
    if (shoe.number != null) {
      out.push(sentence("dl.shoe", { n: shoe.number, dealt: shoe.dealt ?? 0, left: (shoe.cards ?? 0) - (shoe.dealt ?? 0) }));
    }
    if (shoe.third_card_due) out.push(sentence("dl.third_due", { side: betName(shoe.third_card_due) }));
    if (v.hand) {
      for (const side of ["player", "banker"]) {
        const cards = (v.hand[side] || []).filter(Boolean);
        if (cards.length) out.push(`${betName(side)}: ${cards.join(" ")}`);
      }
    }
    for (const p of v.players || []) out.push(sentence("dl.chips", { who: p.player, amount: mop(p.chips) }));
    for (const b of v.bets || []) {
      out.push(sentence("dl.bet", { who: b.player, bet: betName(b.bet), amount: mop(b.stake ?? b.amount) }));
    }
  } else if (c.table.game === "craps") {
    out.push(v.point ? sentence("dl.point_on", { point: v.point }) : say("dl.point_off"));
    if (v.shooter) out.push(sentence("dl.shooter", { who: v.shooter }));
    if (v.last_roll) {
      out.push(sentence("dl.last_roll", { dice: v.last_roll.dice.join(" · "), total: v.last_roll.total }));
    }
    for (const s of v.seats || []) out.push(sentence("dl.chips", { who: s.player, amount: mop(s.stack) }));
    for (const b of v.bets || []) {
      out.push(sentence("dl.bet", { who: b.player, bet: betName(b.bet), amount: mop(b.amount) }));
    }
  } else if (["paigow", "taiwan"].includes(c.table.game)) {
    if (v.round_no) out.push(`${say("round")} ${v.round_no}`);
    if (v.banker) {
      out.push(sentence("dl.banker", { who: v.banker, seat: v.banker_seat ?? "—", amount: mop(v.capital) }));
    }
    for (const [seat, name] of Object.entries(v.seats || {})) {
      out.push(sentence("dl.seat_chips", { seat, who: name, amount: mop((v.stacks || {})[name]) }));
    }
    for (const b of v.bets || []) {
      out.push(sentence("dl.place_bet", { who: b.player, seat: b.seat, amount: mop(b.amount) }));
    }
    if (v.dice) out.push(`${say("dice")}: ${v.dice.join(" · ")}`);
  }
  return out;
}

function seatsOf(c) {
  const places = c.view?.rules?.places;
  return Number.isInteger(places) ? Array.from({ length: places }, (_, i) => i + 1) : [];
}

function makeForm(op, c) {
  const form = document.createElement("form");
  form.className = "op-form";
  form.noValidate = true;
  form.dataset.form = op;
  const h = document.createElement("h3");
  h.textContent = opName(op);
  const fields = argumentFields(c.args[op] || [], { game: c.table.game, op, seats: seatsOf(c) });
  const box = document.createElement("div");
  box.className = "row";
  box.append(...fields.elements);
  const side = document.createElement("span");
  side.dataset.thirdSide = "";
  side.className = "muted";
  const button = document.createElement("button");
  button.type = "submit";
  button.dataset.op = op;
  button.textContent = fields.elements.length ? say("dl.record") : opName(op);
  form.append(h, side, box, button);
  form.fields = fields;
  return form;
}

// The forms of the operations pending for the dealer, and of his others (collapsed); a form
// already shown is kept as it is, so that what is typed in it stays.
function renderForms(c) {
  const pending = [...new Set(c.dealer.flatMap((p) => p.operations))].filter((op) => op !== "time_out");
  const others = Object.keys(c.args).filter((op) => !pending.includes(op));
  for (const [op, form] of forms) {
    if (!pending.includes(op) && !others.includes(op)) { form.remove(); forms.delete(op); }
  }
  for (const [list, ops] of [[q("[data-ops]"), pending], [q("[data-more-ops]"), others]]) {
    for (const op of ops) {
      let form = forms.get(op);
      if (!form) { form = makeForm(op, c); forms.set(op, form); }
      if (form.parentElement !== list) list.append(form);
    }
  }
  q("[data-no-ops]").hidden = pending.length > 0;
  q("[data-more]").hidden = others.length === 0;
  const third = c.view.shoe && c.view.shoe.third_card_due;
  for (const form of forms.values()) {
    const side = form.querySelector("[data-third-side]");
    side.textContent = form.dataset.form === "draw" && third ? `${say("keyin_third")}: ${betName(third)} (${third})` : "";
  }
}

function render(c) {
  current = c;
  q("[data-game]").textContent = S[`game.${c.table.game}`] ?? c.table.game;
  q("[data-mode]").textContent = c.live ? say("live_table") : say("auto_table");
  q("[data-status]").textContent = [S[`st.${c.status}`] ?? c.status, phase(c.view.phase)].join(" · ");
  q("[data-seq]").textContent = `#${c.seq}`;
  q("[data-pending-rules]").textContent = c.dealer
    .map((p) => `${p.operations.map(opName).join(", ")} (${p.rule})`).join(" · ");
  q("[data-state-words]").replaceChildren(...stateWords(c).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  q("[data-raw-view]").textContent = JSON.stringify(c.view, null, 1);
  renderForms(c);
  const waiting = c.waiting.filter((p) => p.default);
  q("[data-nobody-waits]").hidden = waiting.length > 0;
  q("[data-waiting]").replaceChildren(...waiting.map((p) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.defaultActor = p.actor;
    b.dataset.defaultOp = p.default;
    b.textContent = `${say("apply_default")}: ${who(p.actor)} · ${opName(p.default)} (${p.rule})`;
    li.append(b);
    return li;
  }));
}

async function refresh() {
  try { render(await get(CONSOLE)); } catch (x) { showError(x); }
}

root.addEventListener("click", (e) => {
  const d = e.target.closest("button[data-default-actor]");
  if (d) {
    post(DEFAULT, { actor: d.dataset.defaultActor, op: d.dataset.defaultOp }, { idempotent: true })
      .then(() => showError(null), showError);
  }
});

root.addEventListener("submit", async (e) => {
  const form = e.target.closest("[data-form]");
  if (!form || !form.fields) return;
  e.preventDefault();
  let args;
  try { args = form.fields.read(); } catch (x) { showError(x); return; }
  try {
    await command(tableId, form.dataset.form, args);
    showError(null);  // the next good key-in clears the refusal
    form.reset();
  } catch (x) { showError(x); }
});

// The journal as recorded, for auditors: "#12 craps.dice_thrown: dice 5 6, …".
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

function logEvent(seq, ev, { older = false } = {}) {
  const li = document.createElement("li");
  li.dataset.seq = seq;
  li.dataset.kind = ev.kind;
  li.textContent = `#${seq} ${narrate(ev)}`;
  const raw = document.createElement("li");
  const detail = Object.entries(ev.data || {})
    .filter(([k, v]) => v !== null && k !== "table_id" && (typeof v !== "object" || Array.isArray(v)))
    .map(([k, v]) => `${k} ${plain(v)}`).join(", ");
  raw.textContent = `#${seq} ${ev.kind}${detail ? ": " + detail : ""}`;
  for (const [list, item] of [[q("[data-log]"), li], [q("[data-raw-log]"), raw]]) {
    if (older) list.append(item);
    else list.prepend(item);
    while (list.children.length > 80) list.lastChild.remove();
  }
}

let lastSeq = null;
let retry = 500;
async function backlog(seq) {  // the last events before the page opened
  try {
    const events = await get(PATHS.events(tableId, Math.max(-1, seq - 30)));
    for (const e of events.filter((x) => x.seq <= seq).reverse()) logEvent(e.seq, e, { older: true });
  } catch (x) { showError(x); }
}

function connect() {
  if (!session.user) return;
  const first = lastSeq == null;
  const ws = new WebSocket(PATHS.socket(tableId, lastSeq));  // (the session cookie)
  ws.onopen = () => { retry = 500; q("[data-conn]").textContent = ""; };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.type === "event") logEvent(msg.seq, msg.event);
    else if (msg.type === "snapshot" || msg.type === "state") {
      if (msg.type === "snapshot" && first && lastSeq == null) backlog(msg.seq);
      refresh();
    } else if (msg.type === "error") q("[data-conn]").textContent = `${msg.message} (${msg.rule})`;
    if (typeof msg.seq === "number") lastSeq = Math.max(lastSeq ?? -1, msg.seq);
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
