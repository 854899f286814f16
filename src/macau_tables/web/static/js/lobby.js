// The lobby: every table with its game, limits, seats taken, status and countdown; for
// baccarat a live big road (the cells games/baccarat_roads.py computed, from the table's
// public view); filters by game and by stakes (the main bet's minimum); tables picked for
// the side-by-side view. Logged in, GET /tables (and the public board for the roads and
// seats); logged out, the public board /ui/tables, with a prompt to log in to play.
import { PATHS, fact, get, mop, session, strings } from "./api.js";
import { bigRoad } from "./svg.js";
import { opName } from "./words.js";

const S = strings();
const box = document.querySelector("[data-lobby]");
const form = document.querySelector("[data-filters]");
const multiLink = document.querySelector("[data-open-multi]");
const fill = (key, v) => (S[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => String(v[k] ?? ""));
const PICKS = "mt.multi";
const MAX_SIDE = 4;

// The limits of the table's main bet as its rules say them (baccarat: Player and Banker;
// craps: a flat bet; a tile table: a bet on a place, 0 for none; others: view.limits).
export function limitPair(view) {
  if (!view) return null;
  const r = view.rules || {};
  if (r.limits && r.limits.player) return r.limits.player;
  if (r.min_bet != null || r.max_bet != null) return [r.min_bet, r.max_bet];
  if (r.round && (r.round.min_bet != null || r.round.max_bet != null)) return [r.round.min_bet, r.round.max_bet];
  if (view.limits && typeof view.limits === "object") return [view.limits.min, view.limits.max];
  return null;
}

export function limits(view) {
  if (!view) return "—";
  const pair = limitPair(view);
  if (!pair || (!pair[0] && !pair[1])) return S.no_limits;
  return `${pair[0] ? mop(pair[0]) : "—"} – ${pair[1] ? mop(pair[1]) : "—"}`;
}

// the stakes band of a table, by its main bet's minimum (none: the lowest band)
export function band(view) {
  const pair = limitPair(view);
  const min = (pair && pair[0]) || 0;
  return min <= 10000 ? "low" : min <= 100000 ? "mid" : "high";
}

function seatsText(seats) {
  if (!seats) return "—";
  return seats.capacity ? fill("seats_taken", { n: seats.taken, m: seats.capacity }) : fill("players_here", { n: seats.taken });
}

function left(c) {
  if (!c || !c.deadline) return "—";
  const s = Math.max(0, Math.ceil((c.deadline - Date.now()) / 1000));
  const op = opName(c.op || c.kind);
  return s ? S["cd.in"].replace("{op}", op).replace("{s}", s) : S["cd.due"].replace("{op}", op);
}

const picks = () => JSON.parse(localStorage.getItem(PICKS) || "[]");
function savePicks(list) {
  localStorage.setItem(PICKS, JSON.stringify(list.slice(0, MAX_SIDE)));
  showMultiLink();
}
function showMultiLink() {
  const list = picks();
  multiLink.hidden = !session.user || !list.length;
  multiLink.textContent = fill("open_side", { n: list.length });
  multiLink.href = `/multi?tables=${encodeURIComponent(list.join(","))}`;
}

function card(t) {
  const a = document.createElement("article");
  a.className = "card table-card";
  a.dataset.tableId = t.id;
  a.dataset.game = t.game;
  const h = document.createElement("h2");
  h.textContent = `${S["game." + t.game] || t.game} · ${t.id}`;
  const dl = document.createElement("dl");
  dl.className = "facts";
  const road = document.createElement("div");
  road.className = "mini-road";
  road.dataset.road = "";
  const page = `/table/${t.game}/${encodeURIComponent(t.id)}`;
  const join = document.createElement("a");
  join.className = "button";
  join.href = session.user ? page : `/login?next=${encodeURIComponent(page)}`;
  join.textContent = session.user ? `${S.join} ${t.id}` : `${S.log_in_to_play} · ${t.id}`;
  const row = document.createElement("div");
  row.className = "row";
  row.append(join);
  if (session.user) {  // pick the table for the side-by-side view
    const key = `${t.game}:${t.id}`;
    const label = document.createElement("label");
    label.className = "pick";
    const box_ = document.createElement("input");
    box_.type = "checkbox";
    box_.dataset.pick = key;
    box_.checked = picks().includes(key);
    box_.addEventListener("change", () => {
      const list = picks().filter((x) => x !== key);
      if (box_.checked) list.push(key);
      if (list.length > MAX_SIDE) { box_.checked = false; return; }
      savePicks(list);
    });
    label.append(box_, ` ${S.add_side}`);
    row.append(label);
  }
  a.append(h, dl, road, row);
  return a;
}

function update(a, t, view, seats) {
  const dl = a.querySelector("dl");
  dl.replaceChildren();
  fact(dl, S.status, (S[`st.${t.status}`] ?? t.status) + (t.lock_reason ? ` (${t.lock_reason})` : ""));
  const s = fact(dl, S.seats, seatsText(seats));
  s.dataset.seats = seats ? seats.taken : 0;
  fact(dl, S.limits, limits(view)).dataset.limits = "";
  fact(dl, S.countdown, left(t.countdown)).dataset.deadline = t.countdown?.deadline ?? "";
  a.dataset.band = band(view);
  const roads = view && view.roads;
  const road = a.querySelector("[data-road]");
  if (t.game === "baccarat" && roads) road.replaceChildren(bigRoad(roads.big_road, S.big_road, 16));
}

// seats from a table's view (logged in: the server's view; the board sends them counted)
function seatsOf(view, players) {
  if (!view) return { taken: players ?? 0, capacity: null };
  const r = view.rules || {};
  if (Array.isArray(view.players) && r.seats) {
    return { taken: view.players.filter((p) => p.seat != null).length, capacity: r.seats };
  }
  if (view.seats && !Array.isArray(view.seats)) return { taken: Object.keys(view.seats).length, capacity: r.places || null };
  if (Array.isArray(view.seats)) return { taken: view.seats.length, capacity: null };
  return { taken: players ?? 0, capacity: null };
}

function filtered() {
  const game = form.querySelector('[data-filter="game"]').value;
  const stakes = form.querySelector('[data-filter="stakes"]').value;
  let shown = 0;
  for (const a of box.querySelectorAll("article")) {
    const hide = (game && a.dataset.game !== game) || (stakes && a.dataset.band !== stakes);
    a.hidden = Boolean(hide);
    if (!hide) shown += 1;
  }
  let none = box.querySelector("[data-none]");
  if (!shown && box.querySelector("article")) {
    if (!none) {
      none = Object.assign(document.createElement("p"), { textContent: S.no_tables_match });
      none.dataset.none = "";
      box.append(none);
    }
  } else if (none) none.remove();
}

const cards = new Map();

async function refresh() {
  try {
    const board = await get(PATHS.board).catch(() => []);
    const byId = Object.fromEntries(board.map((t) => [t.id, t]));
    const tables = session.user ? await get(PATHS.tables) : board;
    const views = await Promise.all(tables.map(async (t) => {
      const b = byId[t.id];
      if (b && b.view) return [b.view, b.seats];
      const v = (await get(PATHS.view(t.id)).catch(() => null))?.view;
      return [v, seatsOf(v, t.players)];
    }));
    const order = [];
    tables.forEach((t, i) => {
      let a = cards.get(t.id);
      if (!a) { a = card(t); cards.set(t.id, a); }
      update(a, t, views[i][0], views[i][1]);
      order.push(a);
    });
    if (!order.length) {
      box.replaceChildren(Object.assign(document.createElement("p"), { textContent: S.no_tables }));
    } else if (order.some((a, i) => box.children[i] !== a) || box.querySelector("p:not([data-none])")) {
      box.replaceChildren(...order);
    }
    filtered();
  } catch (x) {
    box.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: x.message }));
  }
  box.setAttribute("aria-busy", "false");
}

// the filters: in the address (a link keeps them), applied at once
const params = new URLSearchParams(location.search);
for (const sel of form.querySelectorAll("[data-filter]")) {
  sel.value = params.get(sel.dataset.filter) || "";
  sel.addEventListener("change", () => {
    const p = new URLSearchParams(location.search);
    if (sel.value) p.set(sel.dataset.filter, sel.value);
    else p.delete(sel.dataset.filter);
    history.replaceState(null, "", `${location.pathname}${p.size ? "?" + p : ""}`);
    filtered();
  });
}
form.addEventListener("submit", (e) => e.preventDefault());
showMultiLink();
refresh();
setInterval(refresh, 5000);
