// The Pai Gow / Taiwan Pai Kao table (games/tiletable.py's view): the places, the banker's
// seat, dice and the dealing order, my four tiles set into a front and a back by clicking
// or dragging (names, ranks and TW-6b's forced setting come from /ui/settings: Python),
// the exact hint on request, and the last round's settlement in its order.
import { money, mop } from "./api.js";
import { LiveTable, actionBar, avos, me, root, say, wire } from "./live.js";
import { toast } from "./session.js";
import { die, tile } from "./svg.js";

const q = (sel) => root.querySelector(sel);
const game = root.dataset.game;
let mySeat = null;
let mine = [];       // my four tiles ("6-6"…) as the server showed them to me
let where = {};      // tile index -> "tray" | "front" | "back"

function tileButton(code, i) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "tile-btn";
  b.draggable = true;
  b.dataset.index = i;
  b.dataset.tile = code;
  b.setAttribute("aria-label", `${say("tile." + code)} ${code}`);
  b.append(tile(code));
  b.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", String(i)));
  return b;
}

function count(to) { return Object.values(where).filter((w) => w === to).length; }

function place(i, to) {
  if (to !== "tray" && where[i] !== to && count(to) >= 2) return;
  where[i] = to;
  drawHand();
}

function drawHand() {
  const boxes = { tray: q("[data-tray]"), front: q('[data-drop="front"]'), back: q('[data-drop="back"]') };
  for (const box of Object.values(boxes)) box.replaceChildren();
  mine.forEach((code, i) => boxes[where[i] || "tray"].append(tileButton(code, i)));
  window.macauTiles = mine.join(" ");
  const ready = count("front") === 2 && count("back") === 2;
  q("[data-set]").disabled = !(ready && table.mine().has("set_tiles"));
  q("[data-hint]").disabled = mine.length !== 4;
  for (const side of ["front", "back"]) q(`[data-hand="${side}"]`).textContent = "";
  if (mine.length === 4) names();
}

// the hint's request carries my four tiles (added here: the page allows no eval, so no
// hx-vals "js:")
document.body.addEventListener("htmx:configRequest", (e) => {
  if (e.detail.elt.matches("[data-hint]")) e.detail.parameters.tiles = mine.join(" ");
});

async function names() {
  const r = await fetch(`/ui/settings?game=${game}&tiles=${encodeURIComponent(mine.join(" "))}`);
  if (!r.ok) return;
  const data = await r.json();
  const front = mine.filter((_, i) => where[i] === "front");
  const back = mine.filter((_, i) => where[i] === "back");
  const same = (a, b) => [...a].sort().join() === [...b].sort().join();
  const zh = document.documentElement.lang.startsWith("zh");
  const label = (h) => `${zh ? h.name : h.english} · ${say("rank")} ${h.rank}`;
  let chosen = null;
  for (const s of data.settings) {
    for (const [f, b] of [[s.front, s.back], [s.back, s.front]]) {
      if (front.length === 2 && back.length === 2 && same(front, f.tiles) && same(back, b.tiles)) {
        q('[data-hand="front"]').textContent = label(f);
        q('[data-hand="back"]').textContent = label(b);
        chosen = s;
      }
    }
  }
  q("[data-keep]").textContent = chosen && !chosen.keepable ? say("reset_note") : "";
  const forced = data.settings.find((s) => s.forced);
  q("[data-forced]").textContent = forced
    ? `${say("forced")} (TW-6b): ${say("front")} ${forced.front.tiles.join(" ")} · ${say("back")} ${forced.back.tiles.join(" ")}`
    : "";
}

// an amount field's avos, or null (and the page says why): nothing is sent then
function amountOf(sel) {
  const amount = avos(q(sel).value);
  if (amount == null) { toast(say("bad_amount")); q(sel).focus(); }
  return amount;
}

function placesOf(view) {
  return (view.rules && view.rules.places) || (game === "taiwan" ? 4 : 8);
}

function render(view) {
  const seats = view.seats || {};
  q("[data-dice]").replaceChildren(...(view.dice || []).map((n) => die(n)));
  q("[data-count]").textContent = (view.dealing_order || []).join(" → ") || "—";
  // the last round's hands and settlement stay on the table between rounds (the bank's
  // turn, the shuffle), and are cleared when the next round's betting opens
  const between = ["bank", "shuffle"].includes(view.phase);
  const last = between ? view.last_round || null : null;
  const shownAtSettle = Object.fromEntries((last && last.hands) || []);
  mySeat = Number(Object.keys(seats).find((s) => seats[s] === me)) || null;
  const list = [];
  for (let s = 1; s <= placesOf(view); s += 1) {
    const who = seats[String(s)];
    const li = document.createElement("li");
    li.className = "place";
    li.dataset.seat = s;
    const banker = view.banker_seat === s;
    if (banker) li.classList.add("banker");
    const h = document.createElement("h3");
    h.textContent = `${s}. ${who || say("empty")}${banker ? " · " + say("banker_seat") : ""}`;
    li.append(h);
    const row = document.createElement("div");
    row.className = "place-tiles";
    const own = (view.hands || {})[String(s)];
    const exposed = (view.exposed || {})[String(s)];
    const dealt = (view.dealing_order || []).includes(s);
    const codes = own || exposed || (dealt ? [null, null, null, null] : shownAtSettle[s]) || [];
    if (!own && !exposed && !dealt && shownAtSettle[s]) {  // the last round's hands, turned up
      row.classList.add("last");
      row.title = say("settlement");
    }
    for (const c of codes) row.append(tile(c));
    li.append(row);
    const bets = {};  // each player's bets on this place, added up
    for (const b of (view.bets || []).filter((x) => x.seat === s)) bets[b.player] = (bets[b.player] || 0) + b.amount;
    if (Object.keys(bets).length) {
      const p = document.createElement("p");
      p.dataset.bets = s;
      p.textContent = Object.entries(bets).map(([who, total]) => `${who} ${mop(total)}`).join(", ");
      li.append(p);
    }
    if (!who && !mySeat) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `${say("op.sit")} ${s}`;
      b.dataset.sit = s;
      li.append(b);
    }
    list.push(li);
  }
  q("[data-places]").replaceChildren(...list);
  const hand = mySeat && view.hands ? view.hands[String(mySeat)] : null;
  const tiles = (hand || []).filter(Boolean);
  if (tiles.join() !== mine.join()) { mine = tiles; where = {}; }
  drawHand();
  // a bet on the banker's seat is co-banking (PG-3.2): the action bar offers join_bank
  q("[data-bet]").disabled = !table.mine().has("place_bet") || view.banker_seat === mySeat;
  const myTotal = (view.bets || []).filter((b) => b.player === me).reduce((n, b) => n + b.amount, 0);
  q("[data-my-total]").textContent = myTotal ? `${say("your_bet")}: ${mop(myTotal)}` : "";
  q("[data-my-total]").dataset.avos = myTotal;
  settlement(view, last);
  actionBar(table);
}

function settlement(view, last) {
  const rows = [];
  const order = (last && last.settlement_order) || view.settlement_order || [];
  const results = [...((last && last.results) || [])];
  results.sort((a, b) => order.indexOf(a.seat) - order.indexOf(b.seat));
  for (const r of results) {
    const tr = document.createElement("tr");
    for (const [text, cls] of [[`${r.seat} · ${r.player}`, ""], [`${r.outcome} (${r.seat_result})`, ""],
      [money(r.net), "num"], [r.bank_after != null ? money(r.bank_after) : "", "num"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    rows.push(tr);
  }
  for (const [who, share] of (last && last.bank_shares) || []) {  // the bank's side
    const tr = document.createElement("tr");
    for (const [text, cls] of [[who, ""], [say("banker_seat"), ""], [money(share), "num"], ["", "num"]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    rows.push(tr);
  }
  q("[data-settlement]").replaceChildren(...rows);
  const resets = (last && last.resets) || [];
  // TW-6b: the dealer re-set a player's tiles to the forced setting; say what and why
  const setting = (fb) => `${say("front")} ${fb[0].join(" ")} · ${say("back")} ${fb[1].join(" ")}`;
  q("[data-resets]").replaceChildren(...resets.map((x) => {
    const li = document.createElement("li");
    li.dataset.seat = x.seat;
    li.textContent = `${say("seat")} ${x.seat}: ${setting(x.before)} → ${setting(x.after)} (${say("reset_note")})`;
    return li;
  }));
}

const table = new LiveTable(render);
wire(table);
root.addEventListener("click", (e) => {
  const b = e.target.closest(".tile-btn");
  if (b) {
    const i = Number(b.dataset.index);
    const now = where[i] || "tray";
    place(i, now !== "tray" ? "tray" : count("front") < 2 ? "front" : "back");
    root.querySelector(`.tile-btn[data-index="${i}"]`)?.focus();
  }
  const sit = e.target.closest("[data-sit]");
  const amount = sit && amountOf("[data-action-amount]");
  if (sit && amount != null) {  // sit down and buy chips with the amount in the action bar
    table.act("sit", { seat: Number(sit.dataset.sit) })
      .then(() => table.act("buy_in", { amount }))
      .catch(() => {});
  }
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
  table.act("set_tiles", { seat: mySeat, front }).catch(() => {});
});
q("[data-bet]").addEventListener("click", () => {
  const amount = amountOf("[data-bet-amount]");
  if (amount != null) table.act("place_bet", { seat: mySeat, amount }).catch(() => {});
});
table.connect();
