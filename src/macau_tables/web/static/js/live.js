// A live table: the per-viewer WebSocket (docs/server.md: snapshot on connect, then events
// and states; resume from the last seq after a reconnect), and the parts every table page
// shares: status, countdown, my wallet and chips (the ledger's balances), the operations
// the server says I may perform now, and the log of the events I may see.
import { PATHS, amountOf, command, get, may, mop, session, strings } from "./api.js";
import { toast } from "./session.js";
import { narrate, opName } from "./words.js";

export const S = strings();
export const root = document.querySelector("[data-table]");
export const tableId = root.dataset.tableId;
export const me = session.user;
export const say = (key) => S[key] ?? key;
const q = (sel) => root.querySelector(sel);

// operations whose one argument is an amount of money, and its name (the action bar asks
// for it); the other operations of the action bar take no argument
const MONEY_ARG = { sit: "amount", join: "amount", buy_in: "amount", buy_chips: "amount", cash_out: "amount", bet: "amount",
  open_bank: "capital", join_bank: "capital" };

// the operations that say bets are taken now (each engine's name for a bet)
const BET_OPS = new Set(["place_bet", "bet"]);
// the dealer's operations that end the betting (the countdown then says when bets close)
const CLOSES_BETS = new Set(["deal", "shake", "throw_dice"]);

export class LiveTable {
  constructor(render) {
    this.render = render;   // (view, state) => void
    this.lastSeq = null;
    this.state = null;      // the last snapshot/state message
    this.retry = 500;
    window.macauTable = this;  // for the browser's console and the tests
  }

  connect() {
    if (!session.user) return;
    // authenticated by the session cookie, which the browser sends with the handshake
    const ws = new WebSocket(PATHS.socket(tableId, this.lastSeq));
    this.ws = ws;
    conn(say("connecting"));
    ws.onopen = () => { this.retry = 500; conn(""); };
    ws.onmessage = (m) => this.receive(JSON.parse(m.data));
    ws.onclose = (e) => {
      if (e.code === 4401 || e.code === 4404 || e.code === 4403) return;  // not for retrying
      conn(say("disconnected"));
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  receive(msg) {
    if (typeof msg.seq === "number") this.lastSeq = Math.max(this.lastSeq ?? -1, msg.seq);
    if (msg.type === "event") logEvent(msg.seq, msg.event);
    else if (msg.type === "snapshot" || msg.type === "state") {
      this.state = msg;
      this.render(msg.view, msg);
      shared(msg);
      this.wallet();
    } else if (msg.type === "error") conn(`${msg.message} (${msg.rule})`);
  }

  async wallet() {
    if (!may("wallet")) return;  // only a player has a wallet (GET /wallet: wallet.read)
    const w = await get(PATHS.wallet).catch(() => null);
    if (!w) return;
    const stack = w.stacks[`stack:${tableId}:${me}`];
    q("[data-wallet]").textContent = mop(w.wallet);
    q("[data-stack]").textContent = mop(stack ?? 0);
    q("[data-stack]").dataset.avos = stack ?? 0;
    q("[data-wallet]").dataset.avos = w.wallet;
  }

  async act(op, args = {}) {
    try {
      return await command(tableId, op, args);
    } catch (x) {
      toast(x.message);
      throw x;
    }
  }

  mine() {
    // the operations pending for me now, per the server (engine.pending())
    const ops = new Set();
    for (const p of (this.state && this.state.pending) || []) {
      if (p.actor === `player:${me}`) for (const o of p.operations) ops.add(o);
    }
    return ops;
  }
}

function conn(text) { q("[data-conn]").textContent = text; }

function shared(msg) {
  const phase = msg.view.phase && (S[`ph.${msg.view.phase}`] ?? msg.view.phase);
  q("[data-status]").textContent = [S[`st.${msg.status}`] ?? msg.status, phase].filter(Boolean).join(" · ");
  const betting = (msg.pending || []).some((p) => p.operations.some((o) => BET_OPS.has(o)));
  countdown(q("[data-countdown]"), msg.countdown, betting);
  const seat = seatOf(msg.view);
  q("[data-my-seat]").textContent = seat == null ? "—" : seat === true ? me : `${seat} · ${me}`;
}

// Where I sit, as each engine's view says it: players [{player, seat}] (baccarat), seats
// [{seat, player}] (craps), seats {"2": name} (tiles), players [name] (others).
export function seatOf(view) {
  for (const list of [view.players, view.seats]) {
    if (Array.isArray(list)) {
      for (const x of list) {
        if (x === me) return true;
        if (x && x.player === me) return x.seat ?? true;
      }
    } else if (list && typeof list === "object") {
      const found = Object.keys(list).find((k) => list[k] === me);
      if (found) return found;
    }
  }
  return null;
}

export { narrate, opName };

// "{op} in {s} s" — or, while bets are taken, when betting closes; once the time is up and
// the table still waits (the dealer deals when there is a bet), what it waits for.
export function countdownText(c, betting, now = Date.now()) {
  if (!c || !c.deadline) return betting ? say("cd.open") : "—";
  if (betting && !CLOSES_BETS.has(c.op) && c.deadline <= now) return say("cd.open");
  const s = Math.max(0, Math.ceil((c.deadline - now) / 1000));
  if (betting && CLOSES_BETS.has(c.op)) return s ? say("cd.betting").replace("{s}", s) : say("cd.open");
  if (!s) return say("cd.due").replace("{op}", opName(c.op || c.kind));
  return say("cd.in").replace("{op}", opName(c.op || c.kind)).replace("{s}", s);
}

function countdown(node, c, betting) {
  clearInterval(node.timer);
  const tick = () => {
    node.textContent = countdownText(c, betting);
    if (!c || !c.deadline || c.deadline <= Date.now()) clearInterval(node.timer);
  };
  tick();
  node.timer = setInterval(tick, 500);
}

// What happened, as a croupier would say it (words.js); the raw journal (kind and data,
// as recorded) one click away, for auditors.
function raw(v) {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

function logEvent(seq, ev) {
  const log = q("[data-log]");
  const li = document.createElement("li");
  li.dataset.seq = seq;
  li.dataset.kind = ev.kind;
  li.textContent = narrate(ev);
  log.prepend(li);
  while (log.children.length > 60) log.lastChild.remove();
  const rawLog = q("[data-raw-log]");
  const r = document.createElement("li");
  const detail = Object.entries(ev.data || {})
    .filter(([k, v]) => v !== null && k !== "table_id")
    .map(([k, v]) => `${k} ${raw(v)}`).join(", ");
  r.textContent = `#${seq} ${ev.kind}${detail ? ": " + detail : ""}`;
  rawLog.prepend(r);
  while (rawLog.children.length > 200) rawLog.lastChild.remove();
}

// The action bar: a button for each operation the server says I may perform now.
export function actionBar(table) {
  const bar = q("[data-actions]");
  const mine = table.mine();
  const player = session.role === "player";
  const seated = table.state ? seatOf(table.state.view) != null : false;
  // Join (or buy in) while I do not sit here, or while the server offers it; Leave when
  // the server says I may; the box says "Your turn" only when pending() names me.
  const join = q("[data-join]");
  join.hidden = !player || (seated && !mine.has(join.dataset.action));
  q("[data-leave]").hidden = !mine.has("leave");
  const box = q("[data-turn-box]");
  box.hidden = !player || (seated && mine.size === 0);
  q("[data-turn-title]").textContent = seated ? say("actions") : say("join_table");
  const fixed = new Set([...root.querySelectorAll("[data-join], [data-leave]")].map((b) => b.dataset.action));
  // the operations this page has its own controls for (bet spots, reveal, set tiles …)
  for (const op of (root.dataset.handled || "").split(" ")) fixed.add(op);
  const ops = [...table.mine()].filter((op) => !fixed.has(op));
  bar.replaceChildren(...ops.map((op) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = opName(op);
    b.dataset.action = op;
    return b;
  }));
  for (const n of root.querySelectorAll("[data-join-field]")) n.hidden = join.hidden;
  const amount = !join.hidden || ops.some((op) => MONEY_ARG[op]);
  for (const n of root.querySelectorAll("[data-amount-field]")) n.hidden = !amount;
}

export function wire(table) {
  root.addEventListener("click", (e) => {
    const b = e.target.closest("[data-action]");
    if (!b) return;
    const op = b.dataset.action;
    const arg = b.dataset.arg || MONEY_ARG[op];
    let args = {};
    if (arg) {
      const amount = avos(q("[data-action-amount]").value);
      if (amount == null) { toast(say("bad_amount")); q("[data-action-amount]").focus(); return; }
      args = { [arg]: amount };
    }
    const seat = b.hasAttribute("data-join") && q("[data-join-seat]");
    if (seat && seat.value) args.seat = Number(seat.value);  // a seat, or a standing spot
    table.act(op, args).catch(() => {});
  });
}

export const avos = amountOf;
