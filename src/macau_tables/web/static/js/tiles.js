// The Pai Gow / Taiwan Pai Kao table: places, dice and the count, my four tiles set into a
// front and a back by clicking or dragging; names, ranks and the forced setting from Python.
import { money } from "./api.js";
import { LiveTable, enable, me, root, say, wireOps } from "./live.js";
import { die, tile } from "./svg.js";

const q = (sel) => root.querySelector(sel);
const game = root.dataset.game;
let mine = [];                       // my tiles ("6-6"…), as the server showed them to me
let where = {};                      // index -> "tray" | "front" | "back"

function tileButton(code, i) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile-btn";
  b.draggable = true;
  b.dataset.index = i;
  b.append(tile(code, `${say("tile." + code)} ${code}`));
  b.setAttribute("aria-label", `${say("tile." + code)} ${code}`);
  b.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", String(i)));
  return b;
}

function place(i, to) {
  if (to !== "tray" && Object.values(where).filter((w) => w === to).length >= 2) return;
  where[i] = to;
  drawHand();
}

function drawHand() {
  const boxes = { tray: q("[data-tray]"), front: q('[data-drop="front"]'), back: q('[data-drop="back"]') };
  for (const box of Object.values(boxes)) box.replaceChildren();
  mine.forEach((code, i) => boxes[where[i] || "tray"].append(tileButton(code, i)));
  const front = mine.filter((_, i) => where[i] === "front");
  const back = mine.filter((_, i) => where[i] === "back");
  window.macauTiles = mine.join(" ");
  q("[data-set]").disabled = !(front.length === 2 && back.length === 2);
  q("[data-hint]").disabled = mine.length !== 4;
  for (const side of ["front", "back"]) q(`[data-hand="${side}"]`).textContent = "";
  if (mine.length === 4) names(front, back);
}

async function names(front, back) {
  const r = await fetch(`/ui/settings?game=${game}&tiles=${encodeURIComponent(mine.join(" "))}`);
  const data = await r.json();
  if (!r.ok) return;
  const same = (a, b) => [...a].sort().join() === [...b].sort().join();
  const label = (h) => `${document.documentElement.lang === "en" ? h.english : h.name} · ${say("rank")} ${h.rank}`;
  for (const s of data.settings) {
    for (const [f, b] of [[s.front, s.back], [s.back, s.front]]) {
      if (front.length === 2 && back.length === 2 && same(front, f.tiles) && same(back, b.tiles)) {
        q('[data-hand="front"]').textContent = label(f);
        q('[data-hand="back"]').textContent = label(b);
      }
    }
  }
  const forced = data.settings.find((s) => s.forced);
  q("[data-forced]").textContent = forced
    ? `${say("forced")} (TW-6b): ${say("front")} ${forced.front.tiles.join(" ")} · ${say("back")} ${forced.back.tiles.join(" ")}`
    : "";
}

function render(view) {
  enable(view);
  const seats = view.places || view.seats || [];
  const d = view.dice;
  q("[data-dice]").replaceChildren(...(d ? (d.dice || d).map((n) => die(n)) : []));
  q("[data-count]").textContent = view.count ?? view.first_place ?? "—";
  q("[data-places]").replaceChildren(...seats.map((s, i) => {
    const li = document.createElement("li");
    li.className = "place";
    if (s.banker || view.banker === s.player) li.classList.add("banker");
    const h = document.createElement("h3");
    h.textContent = `${i + 1}. ${s.player || say("empty")}${s.banker || view.banker === s.player ? " · " + say("banker_seat") : ""}`;
    li.append(h);
    const row = document.createElement("div");
    row.className = "place-tiles";
    for (const code of s.tiles || []) row.append(tile(code));
    li.append(row);
    if (s.bet != null) { const p = document.createElement("p"); p.textContent = money(s.bet); li.append(p); }
    return li;
  }));
  const mySeat = seats.find((s) => s.player === me);
  q("[data-my-seat]").textContent = mySeat ? String(seats.indexOf(mySeat) + 1) : "—";
  const tiles = (view.my_tiles || (mySeat && mySeat.tiles) || []).filter(Boolean);
  if (tiles.join() !== mine.join()) { mine = tiles; where = {}; drawHand(); }
  q("[data-settlement]").replaceChildren(...(view.settlement || []).map((r) => {
    const tr = document.createElement("tr");
    for (const [text, cls] of [[r.place ?? r.seat, ""], [r.result, ""], [money(r.net), "num"], [money(r.bank_balance), "num"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  }));
}

const table = new LiveTable(render);
wireOps(table);
root.addEventListener("click", (e) => {
  const b = e.target.closest(".tile-btn");
  if (!b) return;
  const i = Number(b.dataset.index);
  const now = where[i] || "tray";
  place(i, now === "tray" ? (Object.values(where).filter((w) => w === "front").length < 2 ? "front" : "back") : "tray");
});
for (const zone of root.querySelectorAll("[data-drop], [data-tray]")) {
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("drop", (e) => {
    e.preventDefault();
    place(Number(e.dataTransfer.getData("text/plain")), zone.dataset.drop || "tray");
  });
}
q("[data-set]").addEventListener("click", () => {
  const front = mine.filter((_, i) => where[i] === "front");
  const back = mine.filter((_, i) => where[i] === "back");
  table.act("set_tiles", { front, back }).catch(() => {});
});
q("[data-bet]").addEventListener("click", () => {
  const amount = Math.round(Number(q("[data-bet-amount]").value) * 100);
  table.act("place_bet", { amount }).catch(() => {});
});
drawHand();
table.connect();
