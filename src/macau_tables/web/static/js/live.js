// A live table: the per-viewer WebSocket (docs/server.md: snapshot on connect, then events
// and states; resume from the last seq after a reconnect), and the parts every table page
// shares: status, countdown, my wallet and chips (the ledger's balances), the operations
// the server says I may perform now, and the log of the events I may see.
import { PATHS, command, get, money, session, strings } from "./api.js";
import { toast } from "./session.js";

export const S = strings();
export const root = document.querySelector("[data-table]");
export const tableId = root.dataset.tableId;
export const me = session.user;
export const say = (key) => S[key] ?? key;
const q = (sel) => root.querySelector(sel);

// operations whose one argument is an amount of money, and its name (the action bar asks
// for it); the other operations of the action bar take no argument
const MONEY_ARG = { join: "amount", buy_in: "amount", buy_chips: "amount", cash_out: "amount", bet: "amount",
  open_bank: "capital", join_bank: "capital" };

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
    const w = await get(PATHS.wallet).catch(() => null);
    if (!w) return;
    const stack = w.stacks[`stack:${tableId}:${me}`];
    q("[data-wallet]").textContent = money(w.wallet);
    q("[data-stack]").textContent = money(stack ?? 0);
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
  q("[data-status]").textContent = [msg.status, msg.view.phase].filter(Boolean).join(" · ");
  countdown(q("[data-countdown]"), msg.countdown);
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

function countdown(node, c) {
  clearInterval(node.timer);
  if (!c || !c.deadline) { node.textContent = "—"; return; }
  const tick = () => {
    const s = Math.max(0, Math.ceil((c.deadline - Date.now()) / 1000));
    node.textContent = `${s}s · ${c.op || c.kind}`;
    if (!s) clearInterval(node.timer);
  };
  tick();
  node.timer = setInterval(tick, 500);
}

function logEvent(seq, ev) {
  const log = q("[data-log]");
  const li = document.createElement("li");
  const detail = Object.entries(ev.data || {})
    .filter(([k, v]) => v !== null && typeof v !== "object" && k !== "table_id")
    .map(([k, v]) => `${k} ${v}`).join(", ");
  li.textContent = `#${seq} ${ev.kind}${detail ? ": " + detail : ""}`;
  log.prepend(li);
  while (log.children.length > 60) log.lastChild.remove();
}

// The action bar: a button for each operation the server says I may perform now.
export function actionBar(table) {
  const bar = q("[data-actions]");
  const fixed = new Set([...root.querySelectorAll("[data-join], [data-leave]")].map((b) => b.dataset.action));
  // the operations this page has its own controls for (bet spots, reveal, set tiles …)
  for (const op of (root.dataset.handled || "").split(" ")) fixed.add(op);
  const ops = [...table.mine()].filter((op) => !fixed.has(op));
  bar.replaceChildren(...ops.map((op) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = say(`op.${op}`) === `op.${op}` ? op.replaceAll("_", " ") : say(`op.${op}`);
    b.dataset.action = op;
    return b;
  }));
}

export function wire(table) {
  root.addEventListener("click", (e) => {
    const b = e.target.closest("[data-action]");
    if (!b) return;
    const op = b.dataset.action;
    const arg = b.dataset.arg || MONEY_ARG[op];
    const args = arg ? { [arg]: avos(q("[data-action-amount]").value) } : {};
    const seat = b.hasAttribute("data-join") && q("[data-join-seat]");
    if (seat && seat.value) args.seat = Number(seat.value);  // a seat, or a standing spot
    table.act(op, args).catch(() => {});
  });
}

export function avos(text) {
  const [whole, cents = ""] = String(text).trim().split(".");
  return Number(whole || 0) * 100 + Number((cents + "00").slice(0, 2));
}
