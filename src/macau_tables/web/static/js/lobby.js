// The lobby: every table with its game, limits, players, status, countdown; for baccarat a
// mini big road (the cells games/baccarat_roads.py computed, from the table's public view).
// Logged in, GET /tables and each table's view; logged out, the public board /ui/tables
// (the same tables, with a prompt to log in to play).
import { PATHS, fact, get, mop, session, strings } from "./api.js";
import { bigRoad } from "./svg.js";
import { opName } from "./words.js";

const S = strings();
const box = document.querySelector("[data-lobby]");

// The limits of the table's main bet as its rules say them (baccarat: Player and Banker;
// craps: a flat bet; a tile table: a bet on a place, 0 for none; others: view.limits).
export function limits(view) {
  if (!view) return "—";
  const r = view.rules || {};
  let pair = null;
  if (r.limits && r.limits.player) pair = r.limits.player;
  else if (r.min_bet != null || r.max_bet != null) pair = [r.min_bet, r.max_bet];
  else if (r.round && (r.round.min_bet != null || r.round.max_bet != null)) pair = [r.round.min_bet, r.round.max_bet];
  else if (view.limits && typeof view.limits === "object") pair = [view.limits.min, view.limits.max];
  if (!pair || (!pair[0] && !pair[1])) return S.no_limits;
  return `${pair[0] ? mop(pair[0]) : "—"} – ${pair[1] ? mop(pair[1]) : "—"}`;
}

function left(c) {
  if (!c || !c.deadline) return "—";
  const s = Math.max(0, Math.ceil((c.deadline - Date.now()) / 1000));
  const op = opName(c.op || c.kind);
  return s ? S["cd.in"].replace("{op}", op).replace("{s}", s) : S["cd.due"].replace("{op}", op);
}

async function tableCard(t) {
  const a = document.createElement("article");
  a.className = "card table-card";
  a.dataset.tableId = t.id;
  const h = document.createElement("h2");
  h.textContent = `${S["game." + t.game] || t.game} · ${t.id}`;
  const dl = document.createElement("dl");
  dl.className = "facts";
  const view = t.view ?? (await get(PATHS.view(t.id)).catch(() => null))?.view;
  fact(dl, S.status, (S[`st.${t.status}`] ?? t.status) + (t.lock_reason ? ` (${t.lock_reason})` : ""));
  fact(dl, S.seats, String(t.players)).dataset.seats = t.players;
  fact(dl, S.limits, limits(view)).dataset.limits = "";
  fact(dl, S.countdown, left(t.countdown)).dataset.deadline = t.countdown?.deadline ?? "";
  a.append(h, dl);
  const roads = view && view.roads;
  if (t.game === "baccarat" && roads) a.append(bigRoad(roads.big_road, S.big_road, 16));
  const page = `/table/${t.game}/${encodeURIComponent(t.id)}`;
  const join = document.createElement("a");
  join.className = "button";
  join.href = session.user ? page : `/login?next=${encodeURIComponent(page)}`;
  join.textContent = session.user ? `${S.join} ${t.id}` : `${S.log_in_to_play} · ${t.id}`;
  a.append(join);
  return a;
}

async function refresh() {
  try {
    const tables = await get(session.user ? PATHS.tables : PATHS.board);
    const cards = await Promise.all(tables.map(tableCard));
    box.replaceChildren(...(cards.length ? cards : [Object.assign(document.createElement("p"), { textContent: S.no_tables })]));
  } catch (x) {
    box.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: x.message }));
  }
  box.setAttribute("aria-busy", "false");
}

refresh();
setInterval(refresh, 5000);
