// A live table: the per-viewer WebSocket (docs/server.md: snapshot on connect, then events
// and states; resume from the last seq after a reconnect), and the parts every table page
// shares: status, the countdown (words and a ring drawn against the server's deadline), my
// wallet, chips, total bet and last win (the ledger's balances), the operations the server
// says I may perform now, the sound when betting opens or it is my turn, the rounds played
// here (with my result), what I missed while disconnected, and the log of the events I may
// see. A page may hold several tables (the side-by-side view): everything is per root.
import { PATHS, amountOf, command, get, may, mop, session, strings } from "./api.js";
import { toast } from "./session.js";
import { beep, soundButton } from "./sound.js";
import { narrate, opName } from "./words.js";

export const S = strings();
export const me = session.user;
export const say = (key) => S[key] ?? key;
export const fill = (key, values) => say(key).replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ""));

// operations whose one argument is an amount of money, and its name (the action bar asks
// for it); the other operations of the action bar take no argument
const MONEY_ARG = { sit: "amount", buy_in: "amount", cash_out: "amount", bet: "amount",
  open_bank: "capital", join_bank: "capital" };

// the operations that say bets are taken now (each engine's name for a bet)
export const BET_OPS = new Set(["place_bet", "bet"]);
// the dealer's operations that end the betting (the countdown then says when bets close)
const CLOSES_BETS = new Set(["deal", "shake", "throw_dice"]);
const RING = 2 * Math.PI * 16;  // the ring's circumference (r = 16 in a 36 × 36 box)

// The server's clock against this browser's (the deadlines are the server's epoch ms):
// measured once per page, half the round trip taken as the one-way delay.
let clockOffset = 0;
const clockReady = (async () => {
  try {
    const t0 = Date.now();
    const r = await fetch("/ui/clock", { cache: "no-store" });
    const { now } = await r.json();
    clockOffset = now - (t0 + Date.now()) / 2;
  } catch { clockOffset = 0; }
})();
export const serverNow = () => Date.now() + clockOffset;

// the tables of this page, for the keyboard: the one the focus is in, else the one that
// needs me, else the first
export const tables = [];

export class LiveTable {
  // game: { render(view, msg), round(event) -> a round of the history or null, keys(e) }
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.tableId = root.dataset.tableId;
    this.lastSeq = null;
    this.state = null;      // the last snapshot/state message
    this.retry = 500;
    this.rounds = [];       // the rounds settled here, newest first (history)
    this.result = null;     // my last round's result, per spot
    this.missed = [];       // settled while I was away (a reconnect's catch-up)
    this.catchingUp = false;
    this.wasBetting = false;
    this.wasTurn = false;
    this.settings = null;   // the table's clock settings (the ring's full length)
    tables.push(this);
    if (!window.macauTable) window.macauTable = this;  // for the console and the tests
    (window.macauTables ||= {})[this.tableId] = this;
    soundButton(this.q("[data-mute]"));
    this.q("[data-missed-close]").addEventListener("click", () => { this.q("[data-missed]").hidden = true; });
  }

  q(sel) { return this.root.querySelector(sel); }
  qa(sel) { return this.root.querySelectorAll(sel); }

  connect() {
    if (!session.user) return;
    // authenticated by the session cookie, which the browser sends with the handshake
    const resume = this.lastSeq;
    const ws = new WebSocket(PATHS.socket(this.tableId, resume));
    this.ws = ws;
    this.catchingUp = resume != null;  // the events missed come first, then the snapshot
    this.conn(say("connecting"));
    ws.onopen = () => { this.retry = 500; this.conn(""); };
    ws.onmessage = (m) => this.receive(JSON.parse(m.data));
    ws.onclose = (e) => {
      if (e.code === 4401 || e.code === 4404 || e.code === 4403) return;  // not for retrying
      if (this.ws !== ws) return;
      this.conn(say("disconnected"));
      setTimeout(() => this.connect(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  receive(msg) {
    if (typeof msg.seq === "number") this.lastSeq = Math.max(this.lastSeq ?? -1, msg.seq);
    if (msg.type === "event") {
      logEvent(this, msg.seq, msg.event);
      this.settled(msg.seq, msg.event, { missed: this.catchingUp });
    } else if (msg.type === "snapshot" || msg.type === "state") {
      // the server's first snapshot: the table's clock settings (the ring's length) and
      // its last rounds (a state given to the page by hand, as the tests do, has neither)
      const first = this.state == null && msg.type === "snapshot";
      this.state = msg;
      if (msg.type === "snapshot") {
        if (this.catchingUp) this.showMissed();
        this.catchingUp = false;
      }
      this.shared(msg);
      this.render(msg.view, msg);
      this.wallet();
      this.alerts();
      if (first) {
        this.loadHistory(msg.seq);
        get(PATHS.table(this.tableId)).then((t) => { this.settings = t.settings || {}; }).catch(() => {});
      }
      remember(this.tableId, msg.seq);
    } else if (msg.type === "error") this.conn(`${msg.message}${msg.rule ? ` (${msg.rule})` : ""}`);
  }

  render(view, msg) {
    this.game.render(view, msg);
    this.money();
  }

  // --- money: wallet, chips, total bet, last win ------------------------------------------

  async wallet() {
    if (!may("wallet")) return;  // only a player has a wallet (GET /wallet: wallet.read)
    const seq = this.state && this.state.seq;
    if (this.walletSeq === seq) return;  // (nothing moved since the last answer)
    this.walletSeq = seq;
    const w = await get(PATHS.wallet).catch(() => null);
    if (!w) return;
    const stack = w.stacks[`stack:${this.tableId}:${me}`] ?? 0;
    this.stack = stack;
    const wallet = this.q("[data-wallet]");
    wallet.textContent = mop(w.wallet);
    wallet.dataset.avos = w.wallet;
    const chips = this.q("[data-stack]");
    chips.textContent = mop(stack);
    chips.dataset.avos = stack;
    this.money();
    if (this.onMoney) this.onMoney();
  }

  // my bets on the layout now (the game's view) and my last round's winnings
  money() {
    const node = this.q("[data-total-bet]");
    if (!node || !this.state) return;
    const mine = this.game.myBets ? this.game.myBets(this.state.view) : {};
    const total = Object.values(mine).reduce((n, a) => n + a, 0);
    node.textContent = mop(total);
    node.dataset.avos = total;
    const last = this.q("[data-last-win]");
    const r = this.rounds.find((x) => x.mine.length);
    const won = r ? r.mine.reduce((n, x) => n + Math.max(0, x.net), 0) : null;
    last.textContent = r ? `${mop(won)} · ${r.label}` : "—";
    last.dataset.avos = won ?? "";
  }

  // --- who acts --------------------------------------------------------------------------

  async act(op, args = {}) {
    try {
      return await command(this.tableId, op, args);
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

  // the operations the rules wait for me to do (a required pending entry): my turn
  turn() {
    const ops = new Set();
    for (const p of (this.state && this.state.pending) || []) {
      if (p.actor === `player:${me}` && p.required) for (const o of p.operations) ops.add(o);
    }
    return ops;
  }

  betting() { return [...this.mine()].some((o) => BET_OPS.has(o)); }

  // needs me: my turn, or bets are open and I have none on the layout yet
  needsMe() {
    if (this.turn().size) return true;
    if (!this.betting() || !this.state) return false;
    const mine = this.game.myBets ? this.game.myBets(this.state.view) : {};
    return !Object.values(mine).some(Boolean);
  }

  // the sound when betting opens for me or it becomes my turn; the flag of the side-by-side
  // view (and of the page's title) when the table needs me
  alerts() {
    const betting = this.betting();
    const turn = this.turn().size > 0;
    if ((betting && !this.wasBetting) || (turn && !this.wasTurn)) beep(turn ? "turn" : "open");
    this.wasBetting = betting;
    this.wasTurn = turn;
    const needs = this.needsMe();
    this.root.classList.toggle("needs-me", needs);
    this.root.dataset.needsMe = needs ? "true" : "false";
    const flag = this.q("[data-needs-me]");
    if (flag) flag.hidden = !needs;
    document.dispatchEvent(new CustomEvent("macau:needs", { detail: { table: this.tableId, needs } }));
  }

  conn(text) { this.q("[data-conn]").textContent = text; }

  // --- status, seat and the countdown ---------------------------------------------------------

  shared(msg) {
    const phase = msg.view.phase && (S[`ph.${msg.view.phase}`] ?? msg.view.phase);
    this.q("[data-status]").textContent = [S[`st.${msg.status}`] ?? msg.status, phase].filter(Boolean).join(" · ");
    const seat = seatOf(msg.view);
    this.q("[data-my-seat]").textContent = seat == null ? "—" : seat === true ? me : `${seat} · ${me}`;
    const anyBets = (msg.pending || []).some((p) => p.operations.some((o) => BET_OPS.has(o)));
    this.countdown(msg.countdown, anyBets, this.betting());
  }

  // c: the server's countdown; betting: the table takes bets; mine: I may bet
  countdown(c, betting, mineToBet = betting) {
    clearInterval(this.timer);
    const text = this.q("[data-countdown]");
    const box = this.q("[data-timer]");
    const arc = this.q("[data-ring]");
    const secs = this.q("[data-ring-s]");
    // the full length of this window, as the table's clock settings say it
    const full = () => {
      const s = this.settings || {};
      const by = { betting: s.betting_seconds, action: s.action_seconds, dealer: s.dealer_seconds };
      return Number(by[c && c.kind]) || 0;
    };
    const tick = () => {
      const now = serverNow();
      text.textContent = countdownText(c, betting, now);
      const left = c && c.deadline ? Math.max(0, c.deadline - now) : 0;
      // the ring only for a window that is mine (bets I may make, my turn), and only while
      // it runs: drawn as the share of the window left, never started over
      const mine = c && ((c.kind === "betting" && mineToBet) || (c.actors || []).includes(`player:${me}`));
      const shown = Boolean(mine && c.deadline && c.kind !== "dealer" && left > 0 && full());
      box.hidden = !shown;
      if (shown) {
        const share = Math.min(1, left / (full() * 1000));
        arc.setAttribute("stroke-dashoffset", String(RING * (1 - share)));
        box.classList.toggle("low", left < 5000);
        secs.textContent = String(Math.ceil(left / 1000));
        box.dataset.left = String(Math.ceil(left / 1000));
      }
      if (!c || !c.deadline || c.deadline <= now) clearInterval(this.timer);
    };
    clockReady.then(tick);
    tick();
    this.timer = setInterval(tick, 250);
  }

  // --- the rounds: history, my result per spot, what I missed --------------------------------

  // A settlement event: the game says which round it closes and what each of my bets did.
  settled(seq, ev, { missed = false, quiet = false } = {}) {
    const round = this.game.round ? this.game.round(ev) : null;
    if (!round) return;
    round.seq = seq;
    if (this.rounds.some((r) => r.seq === seq)) return;
    this.rounds.unshift(round);
    this.rounds.sort((a, b) => b.seq - a.seq);
    this.rounds.length = Math.min(this.rounds.length, 30);
    if (!quiet && round.mine.length) {
      this.result = round;
      if (missed) this.missed.push(round);
    }
    this.drawRounds();
    this.money();
    if (!quiet && this.game.onResult) this.game.onResult(round);
  }

  // the last rounds of this table, from its journal (those I may see), when the page opens;
  // a settlement after the last one this browser saw here is one I missed
  async loadHistory(seq) {
    const seen = seen_(this.tableId);
    const after = Math.max(-1, seq - 600);
    const events = await get(PATHS.events(this.tableId, after)).catch(() => []);
    for (const e of events) {
      const missed = seen != null && e.seq > seen;
      this.settled(e.seq, { kind: e.kind, data: e.data }, { missed, quiet: !missed });
    }
    const last = this.rounds.find((r) => r.mine.length);
    if (last && !this.result) this.result = last;
    if (this.result && this.game.onResult) this.game.onResult(this.result);
    if (this.missed.length) this.showMissed();
  }

  drawRounds() {
    const ol = this.q("[data-rounds]");
    if (!ol) return;
    ol.replaceChildren(...this.rounds.map((r) => {
      const li = document.createElement("li");
      li.dataset.round = r.n;
      const head = document.createElement("strong");
      head.textContent = r.label;
      const what = document.createElement("span");
      what.textContent = ` ${r.text}`;
      li.append(head, what);
      if (r.mine.length) {
        const net = r.mine.reduce((n, x) => n + x.net, 0);
        const you = document.createElement("span");
        you.className = `you ${net > 0 ? "won" : net < 0 ? "lost" : "even"}`;
        you.dataset.net = net;
        you.textContent = ` · ${say("your_result")}: ${signed(net)}`;
        li.append(you);
      }
      return li;
    }));
  }

  showMissed() {
    const box = this.q("[data-missed]");
    if (!box || !this.missed.length) return;
    const list = this.q("[data-missed-list]");
    list.replaceChildren(...this.missed.map((r) => {
      const li = document.createElement("li");
      li.dataset.round = r.n;
      li.textContent = `${r.label} · ${r.text} · ${r.mine.map(resultText).join(", ")}`;
      return li;
    }));
    box.hidden = false;
    this.missed = [];
  }
}

// What one of my bets did, in words: "Won MOP 95.00" / "Lost MOP 100.00" / "Push".
export function resultText(x) {
  const word = say(`res.${x.result}`);
  if (x.result === "push" || x.result === "no_action") return `${x.name ? x.name + ": " : ""}${word}`;
  return `${x.name ? x.name + ": " : ""}${word} ${mop(Math.abs(x.net))}`;
}

export function signed(net) {
  return `${net > 0 ? "+" : net < 0 ? "−" : ""}${mop(Math.abs(net))}`;
}

// the last seq this browser saw at a table (a settlement after it, on the next visit, is
// one I missed)
function remember(table, seq) {
  try { localStorage.setItem(`mt.seen.${table}`, String(seq)); } catch { /* private mode */ }
}
function seen_(table) {
  const v = localStorage.getItem(`mt.seen.${table}`);
  return v == null ? null : Number(v);
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
export function countdownText(c, betting, now = serverNow()) {
  if (!c || !c.deadline) return betting ? say("cd.open") : "—";
  if (betting && !CLOSES_BETS.has(c.op) && c.deadline <= now) return say("cd.open");
  const s = Math.max(0, Math.ceil((c.deadline - now) / 1000));
  if (betting && CLOSES_BETS.has(c.op)) return s ? say("cd.betting").replace("{s}", s) : say("cd.open");
  if (!s) return say("cd.due").replace("{op}", opName(c.op || c.kind));
  return say("cd.in").replace("{op}", opName(c.op || c.kind)).replace("{s}", s);
}

// What happened, as a croupier would say it (words.js); the raw journal (kind and data,
// as recorded) one click away, for auditors.
function raw(v) {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

function logEvent(table, seq, ev) {
  const log = table.q("[data-log]");
  const li = document.createElement("li");
  li.dataset.seq = seq;
  li.dataset.kind = ev.kind;
  li.textContent = narrate(ev);
  log.prepend(li);
  while (log.children.length > 60) log.lastChild.remove();
  const rawLog = table.q("[data-raw-log]");
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
  const q = (s) => table.q(s);
  const bar = q("[data-actions]");
  const mine = table.mine();
  const player = session.role === "player";
  const seated = table.state ? seatOf(table.state.view) != null : false;
  // Join (or buy in) while I do not sit here, or while the server offers it; Leave when
  // the server says I may; the box says "Your turn" only when pending() names me.
  const join = q("[data-join]");
  join.hidden = !player || (seated && !mine.has(join.dataset.action));
  q("[data-leave]").hidden = !mine.has("leave");
  const fixed = new Set([...table.qa("[data-join], [data-leave]")].map((b) => b.dataset.action));
  // the operations this page has its own controls for (bet spots, reveal, set tiles …)
  for (const op of (table.root.dataset.handled || "").split(" ")) fixed.add(op);
  const ops = [...mine].filter((op) => !fixed.has(op));
  const box = q("[data-turn-box]");
  box.hidden = !player || (seated && ops.length === 0 && q("[data-leave]").hidden);
  const title = !seated ? "join_table" : table.turn().size ? "actions" : "at_table";
  q("[data-turn-title]").textContent = say(title);
  bar.replaceChildren(...ops.map((op) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = opName(op);
    b.dataset.action = op;
    return b;
  }));
  for (const n of table.qa("[data-join-field]")) n.hidden = join.hidden;
  const amount = !join.hidden || ops.some((op) => MONEY_ARG[op]);
  for (const n of table.qa("[data-amount-field]")) n.hidden = !amount;
}

export function wire(table) {
  table.root.addEventListener("click", (e) => {
    const b = e.target.closest("[data-action]");
    if (!b || !table.root.contains(b)) return;
    const op = b.dataset.action;
    const arg = b.dataset.arg || MONEY_ARG[op];
    let args = {};
    if (arg) {
      const field = table.q("[data-action-amount]");
      const amount = avos(field.value);
      if (amount == null) { toast(say("bad_amount")); field.focus(); return; }
      args = { [arg]: amount };
    }
    const seat = b.hasAttribute("data-join") && table.q("[data-join-seat]");
    if (seat && seat.value) args.seat = Number(seat.value);  // a seat, or a standing spot
    table.act(op, args).catch(() => {});
  });
}

// The keyboard: keys go to the table the focus is in, else to the one that needs me, else
// to the first (each game and the chip rail say what their keys do).
document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.target.closest && e.target.closest("input:not([type=radio]), select, textarea, [contenteditable]")) return;
  const inside = tables.find((t) => t.root.contains(document.activeElement));
  const table = inside || tables.find((t) => t.needsMe()) || tables[0];
  if (!table) return;
  for (const handler of [table.game.keys, table.rail && table.rail.key.bind(table.rail)]) {
    if (handler && handler(e)) { e.preventDefault(); return; }
  }
});

export const avos = amountOf;
