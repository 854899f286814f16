// The Pai Gow / Taiwan Pai Kao table (games/tiletable.py's view): the woodpile (its stacks in
// their order; before the dice a player may swap two, PG-2.1 / TW-2f) and the dice; the
// places with the banker's seat, each with its bets as chips (mine and the others') and a
// spot to bet on it with the chip rail; my four tiles set into a front and a back by
// tapping, dragging or the keyboard (names, ranks and TW-6b's forced setting come from
// /ui/settings: Python), the exact hint with "use this setting"; the last round's
// settlement in its order, the dealer's re-sets (TW-R1) explained; the rounds played here.
import { money, mop } from "./api.js";
import { LiveTable, actionBar, avos, fill, me, say, signed, wire } from "./live.js";
import { BetRail, bySpot } from "./rail.js";
import { toast } from "./session.js";
import { die, tile } from "./svg.js";

export function mount(root) {
  const q = (sel) => root.querySelector(sel);
  const qa = (sel) => root.querySelectorAll(sel);
  const gameName = root.dataset.game;
  let mySeat = null;
  let handSeat = null; // the place whose tiles I set now (mine, or a place I hold by my bet)
  let mine = [];       // my four tiles ("6-6"…) as the server showed them to me
  let where = {};      // tile index -> "tray" | "front" | "back"
  let order = null;    // the woodpile's order as I rearrange it (PG-R2), before I send it
  let picked = null;   // the stack picked to swap
  let forced = null;   // TW-6b's forced setting of my tiles, from /ui/settings

  const game = {
    myBets: (view) => bySpot(view.bets, (b) => `seat:${b.seat}`, (b) => b.amount, (b) => b.player === me),
    round(ev) {
      if (ev.kind !== "tiletable.round_settled") return null;
      const d = ev.data;
      const seats = new Map();
      for (const r of d.results || []) seats.set(r.seat, r.seat_result);
      const text = [...seats].map(([s, res]) => `${fill("place_n", { n: s })} ${say(`seat.${res}`)}`).join(" · ") || say("no_bet");
      const rows = (d.results || []).filter((r) => r.player === me).map((r) => ({
        spot: `seat:${r.seat}`, name: fill("place_n", { n: r.seat }), result: r.outcome, stake: r.amount, net: r.net,
      }));
      for (const [who, share] of d.bank_shares || []) {
        if (who !== me) continue;
        rows.push({ spot: null, name: say("banker_seat"), result: share > 0 ? "win" : share < 0 ? "lose" : "push", stake: 0, net: share });
      }
      return { n: d.round_no, label: fill("round_n", { n: d.round_no }), text, mine: rows };
    },
    render,
    keys(e) {
      const k = e.key.toLowerCase();
      const t = document.activeElement && document.activeElement.closest && document.activeElement.closest(".tile-btn");
      if (t && root.contains(t) && (k === "f" || k === "k")) {
        place(Number(t.dataset.index), k === "f" ? "front" : "back");
        q(`.tile-btn[data-index="${t.dataset.index}"]`)?.focus();
        return true;
      }
      return false;
    },
    onResult: (round) => rail.result(round),
  };
  const table = new LiveTable(root, game);
  const rail = new BetRail(table, {
    placed: game.myBets,
    others: (view) => bySpot(view.bets, (b) => `seat:${b.seat}`, (b) => b.amount, (b) => b.player !== me),
    chips: (view) => (typeof view.stack === "number" ? view.stack : null),
    send: (spot, amount) => table.act("place_bet", { seat: Number(spot.split(":")[1]), amount }),
    round: (view) => view.round_no,
  });

  // --- my tiles: tray, front, back ---------------------------------------------------------

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

  const count = (to) => Object.values(where).filter((w) => w === to).length;

  function place(i, to) {
    if (to !== "tray" && where[i] !== to && count(to) >= 2) return;
    where[i] = to;
    drawHand();
  }

  // put my tiles as a setting says (front and back: two tiles each, by their codes)
  function apply(front, back) {
    where = {};
    const free = mine.map((c, i) => [c, i]);
    for (const [side, codes] of [["front", front], ["back", back]]) {
      for (const c of codes) {
        const at = free.findIndex(([x]) => x === c);
        if (at >= 0) { where[free[at][1]] = side; free.splice(at, 1); }
      }
    }
    drawHand();
  }

  function drawHand() {
    const boxes = { tray: q("[data-tray]"), front: q('[data-drop="front"]'), back: q('[data-drop="back"]') };
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.index : null;
    for (const box of Object.values(boxes)) box.replaceChildren();
    mine.forEach((code, i) => boxes[where[i] || "tray"].append(tileButton(code, i)));
    if (focused != null && root.contains(document.activeElement) === false) q(`.tile-btn[data-index="${focused}"]`)?.focus();
    window.macauTiles = mine.join(" ");
    const ready = count("front") === 2 && count("back") === 2;
    q("[data-set]").disabled = !(ready && table.mine().has("set_tiles"));
    q("[data-hint]").disabled = mine.length !== 4;
    for (const side of ["front", "back"]) q(`[data-hand="${side}"]`).textContent = "";
    if (mine.length === 4) names();
    else {
      q("[data-forced-box]").hidden = true;
      q("[data-keep]").textContent = "";
    }
  }

  // the hint's request carries my four tiles (added here: the page allows no eval, so no
  // hx-vals "js:")
  document.body.addEventListener("htmx:configRequest", (e) => {
    if (root.contains(e.detail.elt) && e.detail.elt.matches("[data-hint]")) e.detail.parameters.tiles = mine.join(" ");
  });

  async function names() {
    const r = await fetch(`/ui/settings?game=${gameName}&tiles=${encodeURIComponent(mine.join(" "))}`);
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
    const f = data.settings.find((s) => s.forced);
    forced = f ? [f.front.tiles, f.back.tiles] : null;
    q("[data-forced-box]").hidden = !f;
    q("[data-forced]").textContent = f
      ? `${say("forced")} (TW-6b): ${say("front")} ${f.front.tiles.join(" ")} · ${say("back")} ${f.back.tiles.join(" ")}`
      : "";
  }

  // --- the woodpile -------------------------------------------------------------------------

  function woodpile(view) {
    const box = q("[data-woodpile]");
    const stacks = view.stack_order || [];
    const may = table.mine().has("rearrange");
    if (!may) { order = null; picked = null; }
    const shown = order || stacks;
    const dealt = (view.dealing_order || []).length > 0 && Object.keys(view.hands || {}).length > 0;
    if (box.children.length !== shown.length) {
      box.replaceChildren(...shown.map((_, i) => {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "stack";
        b.dataset.pos = i;
        b.setAttribute("aria-pressed", "false");
        b.addEventListener("click", () => pick(i));
        return b;
      }));
    }
    shown.forEach((n, i) => {
      const b = box.children[i];
      b.dataset.stack = n;
      b.disabled = !may;
      b.classList.toggle("dealt", dealt);
      b.setAttribute("aria-pressed", picked === i ? "true" : "false");
      b.setAttribute("aria-label", fill("stack_n", { n: n + 1 }));
      if (b.childElementCount !== 3) {
        b.replaceChildren(...[0, 1].map(() => tile(null, "")),
          Object.assign(document.createElement("span"), { className: "stack-n" }));
      }
      b.lastChild.textContent = String(n + 1);
    });
    q("[data-rearrange-note]").hidden = !may;
    const send = q("[data-rearrange]");
    send.hidden = !may;
    send.disabled = !order || order.join() === stacks.join();
  }

  function pick(i) {
    const stacks = (table.state && table.state.view.stack_order) || [];
    order = order || [...stacks];
    if (picked == null) picked = i;
    else {
      [order[picked], order[i]] = [order[i], order[picked]];
      picked = null;
    }
    woodpile(table.state.view);
  }

  // --- the places ------------------------------------------------------------------------

  const placesOf = (view) => (view.rules && view.rules.places) || (gameName === "taiwan" ? 4 : 8);

  function placeNode(s) {
    const li = document.createElement("li");
    li.className = "place";
    li.dataset.seat = s;
    const h = document.createElement("h3");
    const row = document.createElement("div");
    row.className = "place-tiles";
    const spot = document.createElement("button");
    spot.type = "button";
    spot.className = "spot place-spot";
    spot.dataset.spot = `seat:${s}`;
    const name = document.createElement("span");
    name.className = "spot-name";
    name.textContent = fill("bet_on_place", { n: s });
    spot.append(name);
    for (const [cls, attr] of [["spot-chips", "data-chips"], ["spot-amount", "data-amount"], ["spot-others", "data-others"],
      ["spot-limit", "data-limit"], ["spot-result", "data-spot-result"], ["spot-closed", "data-closed"]]) {
      const x = document.createElement("span");
      x.className = cls;
      x.setAttribute(attr, `seat:${s}`);
      if (cls === "spot-chips") x.setAttribute("aria-hidden", "true");
      spot.append(x);
    }
    const sit = document.createElement("button");
    sit.type = "button";
    sit.dataset.sit = s;
    sit.textContent = `${say("op.sit")} ${s}`;
    li.append(h, row, spot, sit);
    return li;
  }

  function places(view, last) {
    const seats = view.seats || {};
    const list = q("[data-places]");
    const n = placesOf(view);
    if (list.children.length !== n) {
      list.replaceChildren(...Array.from({ length: n }, (_, i) => placeNode(i + 1)));
    }
    const shownAtSettle = Object.fromEntries((last && last.hands) || []);
    const setAtSettle = Object.fromEntries(((last && last.settings) || []).map(([s, f, b]) => [s, [f, b]]));
    const lo = view.rules && view.rules.round ? view.rules.round.min_bet : 0;
    const hi = view.rules && view.rules.round ? view.rules.round.max_bet : 0;
    for (const li of list.children) {
      const s = Number(li.dataset.seat);
      const who = seats[String(s)];
      const banker = view.banker_seat === s;
      li.classList.toggle("banker", banker);
      li.classList.toggle("mine", s === mySeat);
      li.querySelector("h3").textContent = `${s}. ${who || say("empty")}${banker ? " · " + say("banker_seat") : ""}`;
      const row = li.querySelector(".place-tiles");
      const own = (view.hands || {})[String(s)];
      const exposed = (view.exposed || {})[String(s)];
      const dealt = (view.dealing_order || []).includes(s) && Object.keys(view.hands || {}).length + Object.keys(view.exposed || {}).length > 0;
      const set = setAtSettle[s];
      let codes = own || exposed || (dealt ? [null, null, null, null] : null);
      row.classList.remove("last", "set");
      row.title = "";
      if (!codes && set) {  // the last round's setting: front and back, as settled
        codes = [...set[0], ...set[1]];
        row.classList.add("last", "set");
        row.title = say("settlement");
      } else if (!codes && shownAtSettle[s]) {
        codes = shownAtSettle[s];
        row.classList.add("last");
        row.title = say("settlement");
      }
      row.replaceChildren(...(codes || []).map((c) => tile(c)));
      const spot = li.querySelector("[data-spot]");
      spot.hidden = banker;  // a bet on the banker's seat is co-banking (PG-3.2): the bar's join_bank
      li.querySelector(`[data-limit="seat:${s}"]`).textContent = lo || hi ? `${money(lo)}–${hi ? money(hi) : "∞"}` : say("no_limits");
      li.querySelector("[data-sit]").hidden = Boolean(who) || Boolean(mySeat);
    }
  }

  // --- the settlement ------------------------------------------------------------------------

  function settlement(view, last) {
    const rows = [];
    const order = (last && last.settlement_order) || view.settlement_order || [];
    const results = [...((last && last.results) || [])];
    results.sort((a, b) => order.indexOf(a.seat) - order.indexOf(b.seat));
    const row = (items) => {
      const tr = document.createElement("tr");
      for (const [text, cls] of items) {
        const td = document.createElement("td");
        td.textContent = text;
        if (cls) td.className = cls;
        tr.append(td);
      }
      return tr;
    };
    // the bank's running balance (PG-8.3: it pays in the settlement order): its capital —
    // what the settlement returns to the bank's account — less each place's net in turn
    const bank = ((last && last.postings) || []).find(([account]) => account.startsWith("bank:"));
    let balance = bank ? -bank[1] : null;
    for (const r of results) {
      if (balance != null) balance -= r.net;
      rows.push(row([[`${r.seat} · ${r.player}`, ""], [`${say(`res.${r.outcome}`)} (${say(`seat.${r.seat_result}`)})`, ""],
        [signed(r.net), "num"], [balance != null ? money(balance) : "—", "num"]]));
    }
    for (const [who, share] of (last && last.bank_shares) || []) {  // the bank's side
      rows.push(row([[who === "house" ? say("who.house") : who, ""], [say("banker_seat"), ""], [signed(share), "num"],
        ["", "num"]]));
    }
    q("[data-settlement]").replaceChildren(...rows);
    const resets = (last && last.resets) || [];
    // TW-6b: the dealer re-set a player's tiles to the forced setting; say what and why
    const setting = (fb) => `${say("front")} ${fb[0].join(" ")} · ${say("back")} ${fb[1].join(" ")}`;
    q("[data-resets]").replaceChildren(...resets.map((x) => {
      const li = document.createElement("li");
      li.dataset.seat = x.seat;
      li.textContent = `${fill("dealer_reset", { seat: x.seat })}: ${setting(x.before)} → ${setting(x.after)} (${say("reset_note")})`;
      return li;
    }));
  }

  function render(view) {
    const seats = view.seats || {};
    q("[data-dice]").replaceChildren(...(view.dice || []).map((n) => die(n)));
    q("[data-count]").textContent = (view.dealing_order || []).join(" → ") || "—";
    // the last round's hands and settlement stay on the table between rounds (the bank's
    // turn, the shuffle), and are cleared when the next round's betting opens
    const between = ["bank", "shuffle"].includes(view.phase);
    const last = between ? view.last_round || null : null;
    mySeat = Number(Object.keys(seats).find((s) => seats[s] === me)) || null;
    woodpile(view);
    places(view, last);
    // the hands I hold and have not set yet (my place's, and an empty place's my bet holds):
    // mine first, then each in turn
    const held = Object.keys(view.hands || {}).map(Number).filter((s) => !(view.set || []).includes(s));
    handSeat = held.includes(mySeat) ? mySeat : held[0] ?? mySeat;
    q("[data-hand-seat]").textContent = handSeat && handSeat !== mySeat ? ` · ${fill("place_n", { n: handSeat })}` : "";
    const hand = handSeat && view.hands ? view.hands[String(handSeat)] : null;
    const tiles = (hand || []).filter(Boolean);
    if (tiles.join() !== mine.join()) { mine = tiles; where = {}; q("[data-hint-out]").replaceChildren(); }
    drawHand();
    const myTotal = (view.bets || []).filter((b) => b.player === me).reduce((n, b) => n + b.amount, 0);
    q("[data-my-total]").textContent = myTotal ? `${say("your_bet")}: ${mop(myTotal)}` : "";
    q("[data-my-total]").dataset.avos = myTotal;
    settlement(view, last);
    rail.redraw();
    rail.refresh();
    actionBar(table);
  }

  wire(table);
  root.addEventListener("click", (e) => {
    const b = e.target.closest(".tile-btn");
    if (b && root.contains(b)) {
      const i = Number(b.dataset.index);
      const now = where[i] || "tray";
      place(i, now !== "tray" ? "tray" : count("front") < 2 ? "front" : "back");
      q(`.tile-btn[data-index="${i}"]`)?.focus();
    }
    const use = e.target.closest("[data-use-setting]");
    if (use && root.contains(use)) apply(use.dataset.front.split(" "), use.dataset.back.split(" "));
    const sit = e.target.closest("[data-sit]");
    if (sit && root.contains(sit)) {  // sit down and buy chips with the amount in the action bar
      const field = q("[data-action-amount]");
      const amount = avos(field.value);
      if (amount == null) { toast(say("bad_amount")); field.focus(); return; }
      table.act("sit", { seat: Number(sit.dataset.sit) })
        .then(() => table.act("buy_in", { amount }))
        .catch(() => {});
    }
  });
  for (const zone of qa("[data-drop], [data-tray]")) {
    zone.addEventListener("dragover", (e) => e.preventDefault());
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      place(Number(e.dataTransfer.getData("text/plain")), zone.dataset.drop || "tray");
    });
  }
  q("[data-use-forced]").addEventListener("click", () => { if (forced) apply(forced[0], forced[1]); });
  q("[data-set]").addEventListener("click", () => {
    const front = mine.filter((_, i) => where[i] === "front");
    table.act("set_tiles", { seat: handSeat, front }).catch(() => {});
  });
  q("[data-rearrange]").addEventListener("click", () => {
    if (!order) return;
    const sent = [...order];
    table.act("rearrange", { order: sent }).then(() => { order = null; picked = null; }).catch(() => {});
  });
  table.connect();
  return table;
}
