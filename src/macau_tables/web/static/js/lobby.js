// The lobby: every table with its game, limits, seats, status, countdown, a mini big road.
import { PATHS, get, money, strings } from "./api.js";
import { bigRoad } from "./svg.js";

const S = strings();
const box = document.querySelector("[data-lobby]");

function tableCard(t) {
  const a = document.createElement("article");
  a.className = "card table-card";
  const h = document.createElement("h2");
  h.textContent = `${S["game." + t.game] || t.game} · ${t.id || t.table_id}`;
  const dl = document.createElement("dl");
  dl.className = "facts";
  const seats = t.seats_taken ?? (t.players || []).length;
  const lim = t.limits && Object.values(t.limits)[0];
  for (const [k, v] of [["status", t.status], ["seats", `${seats}${t.seats ? " / " + t.seats : ""}`],
    ["limits", lim ? `${money(lim.min ?? lim[0])}–${money(lim.max ?? lim[1])}` : "—"],
    ["countdown", t.deadline ? `${Math.max(0, Math.ceil((Date.parse(t.deadline) - Date.now()) / 1000))}s` : "—"]]) {
    const d = document.createElement("div");
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = S[k];
    dd.textContent = v ?? "—";
    d.append(dt, dd);
    dl.append(d);
  }
  a.append(h, dl);
  if (t.game === "baccarat" && t.big_road) a.append(bigRoad(t.big_road, S.big_road, 16));
  const join = document.createElement("a");
  join.className = "button";
  join.href = `/table/${t.game}/${encodeURIComponent(t.id || t.table_id)}`;
  join.textContent = S.join;
  a.append(join);
  return a;
}

async function refresh() {
  try {
    const data = await get(PATHS.tables);
    const tables = data.tables || data;
    box.replaceChildren(...(tables.length ? tables.map(tableCard) : [Object.assign(document.createElement("p"), { textContent: S.no_tables })]));
  } catch (x) {
    box.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: x.message }));
  }
  box.setAttribute("aria-busy", "false");
}
refresh();
setInterval(refresh, 5000);
