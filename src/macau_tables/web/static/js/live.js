// A live table: the per-viewer WebSocket (snapshot on connect, then events; resume from the
// last sequence number after a reconnect) and the page's common parts (seat, stack, log).
import { PATHS, command, get, money, session, strings } from "./api.js";
import { toast } from "./session.js";

export const S = strings();
export const root = document.querySelector("[data-table]");
export const tableId = root.dataset.tableId;
export const me = session.user;

export function say(key) { return S[key] ?? key; }

export class LiveTable {
  constructor(render) {
    this.render = render;       // (view, table) => void
    this.lastSeq = 0;
    this.view = null;
    this.frames = 0;
    this.retry = 500;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams();
    if (session.token) q.set("token", session.token);
    if (this.lastSeq) q.set("last_seq", String(this.lastSeq));
    const ws = new WebSocket(`${scheme}://${location.host}${PATHS.socket(tableId)}?${q}`);
    this.ws = ws;
    status(say("connecting"));
    ws.onopen = () => { this.retry = 500; status(""); };
    ws.onmessage = (m) => this.receive(JSON.parse(m.data));
    ws.onclose = () => {
      status(say("disconnected"));
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  receive(msg) {
    this.frames += 1;
    if (typeof msg.seq === "number") this.lastSeq = Math.max(this.lastSeq, msg.seq);
    for (const ev of msg.events || (msg.event ? [msg.event] : [])) logEvent(ev);
    if (msg.view) {
      this.view = msg.view;
      this.render(msg.view, msg);
      common(msg);
    }
  }

  async act(op, args = {}) {
    try {
      return await command(tableId, op, args);
    } catch (x) {
      toast(x.message);
      throw x;
    }
  }
}

function status(text) {
  const s = root.querySelector("[data-conn]");
  if (s) s.textContent = text;
}

function common(msg) {
  const v = msg.view;
  const bal = root.querySelector("[data-stack]");
  const mine = msg.balance ?? msg.stack ?? v.stack ?? (v.stacks && v.stacks[me]);
  if (bal && mine != null) bal.textContent = money(mine);
  const cd = root.querySelector("[data-countdown]");
  if (cd) countdown(cd, msg.deadline ?? v.deadline);
  const st = root.querySelector("[data-status]");
  if (st) st.textContent = [v.status, v.phase].filter(Boolean).join(" · ");
}

function countdown(node, deadline) {
  clearInterval(node.timer);
  if (!deadline) { node.textContent = ""; return; }
  const end = typeof deadline === "number" ? deadline : Date.parse(deadline);
  const tick = () => {
    const s = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    node.textContent = `${s}s`;
    if (!s) clearInterval(node.timer);
  };
  tick();
  node.timer = setInterval(tick, 250);
}

function logEvent(ev) {
  const log = root.querySelector("[data-log]");
  if (!log) return;
  const li = document.createElement("li");
  const data = ev.data || {};
  const detail = Object.entries(data).filter(([, x]) => typeof x !== "object").map(([k, x]) => `${k} ${x}`).join(", ");
  li.textContent = `${ev.kind || ev.type}${detail ? ": " + detail : ""}`;
  log.prepend(li);
  while (log.children.length > 40) log.lastChild.remove();
}

// Buttons with data-op run that operation (with data-args JSON) when clicked.
export function wireOps(table) {
  root.addEventListener("click", (e) => {
    const b = e.target.closest("[data-op]");
    if (!b || b.disabled) return;
    const args = b.dataset.args ? JSON.parse(b.dataset.args) : {};
    table.act(b.dataset.op, args).catch(() => {});
  });
}

// Which operations the server says I may perform now (from the view's pending list).
export function myOps(view) {
  const ops = new Set();
  for (const p of view.pending || []) {
    if (p.actor === `player:${me}`) for (const o of p.operations) ops.add(o);
  }
  return ops;
}

export function enable(view) {
  const ops = myOps(view);
  for (const b of root.querySelectorAll("[data-op]")) b.disabled = !ops.has(b.dataset.op);
  return ops;
}

export async function loadTable() {
  return get(PATHS.table(tableId));
}
