// The lobby: every table with its game, limits, players, status, countdown; for baccarat a
// mini big road (the cells games/baccarat_roads.py computed, from the table's public view).
import { PATHS, fact, get, money, session, strings } from "./api.js";
import { bigRoad } from "./svg.js";

const S = strings();
const box = document.querySelector("[data-lobby]");

function limits(options) {
  const lim = options && (options.limits || (options.rules && options.rules.limits));
  if (!lim) return "—";
  const first = Array.isArray(lim) ? lim[0] : Object.values(lim)[0];
  if (!first) return "—";
  const lo = first.min ?? first.minimum ?? first[0];
  const hi = first.max ?? first.maximum ?? first[1];
  return `${money(lo)} – ${money(hi)}`;
}

function left(countdown) {
  if (!countdown || !countdown.deadline) return "—";
  return `${Math.max(0, Math.ceil((countdown.deadline - Date.now()) / 1000))}s · ${countdown.op || countdown.kind}`;
}

async function tableCard(t) {
  const a = document.createElement("article");
  a.className = "card table-card";
  a.dataset.tableId = t.id;
  const h = document.createElement("h2");
  h.textContent = `${S["game." + t.game] || t.game} · ${t.id}`;
  const dl = document.createElement("dl");
  dl.className = "facts";
  fact(dl, S.status, t.status + (t.lock_reason ? ` (${t.lock_reason})` : ""));
  fact(dl, S.seats, String(t.players));
  fact(dl, S.limits, limits(t.options));
  fact(dl, S.countdown, left(t.countdown)).dataset.deadline = t.countdown?.deadline ?? "";
  a.append(h, dl);
  if (t.game === "baccarat") {
    const v = await get(PATHS.view(t.id)).catch(() => null);
    const roads = v && v.view && v.view.roads;
    if (roads) a.append(bigRoad(roads.big_road, S.big_road, 16));
  }
  const join = document.createElement("a");
  join.className = "button";
  join.href = `/table/${t.game}/${encodeURIComponent(t.id)}`;
  join.textContent = `${S.join} ${t.id}`;
  a.append(join);
  return a;
}

async function refresh() {
  try {
    const tables = await get(PATHS.tables);
    const cards = await Promise.all(tables.map(tableCard));
    box.replaceChildren(...(cards.length ? cards : [Object.assign(document.createElement("p"), { textContent: S.no_tables })]));
  } catch (x) {
    box.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: x.message }));
  }
  box.setAttribute("aria-busy", "false");
}

if (session.user) {
  refresh();
  setInterval(refresh, 5000);
} else {
  box.replaceChildren();
  box.setAttribute("aria-busy", "false");
}
