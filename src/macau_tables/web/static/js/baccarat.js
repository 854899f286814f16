// The baccarat table (games/baccarat.py's view): the five spots with chips, limits and my last
// result; the chip rail; the hand as the server reveals it (face-down cards until their
// holder — the seated player with the largest bet on the side, BA-16 — squeezes them: drag
// a card up or press Turn over; when the time is up the dealer turns them, the engine's
// default); the result; the five roads with Ask Banker / Ask Player (the marks the three
// derived roads would get, as games/baccarat_roads.py computed them) and the shoe's
// statistics; the hands played here.
import { fact, money } from "./api.js";
import { LiveTable, actionBar, fill, me, say, wire } from "./live.js";
import { BetRail, bySpot } from "./rail.js";
import { beadPlate, bigRoad, card, derivedRoad, mark } from "./svg.js";

const DERIVED = { big_eye_boy: "ring", small_road: "dot", cockroach_pig: "slash" };
const SIDES = ["player", "banker"];

// A hand's settlement as a round of the history: what each of my bets did (BA-17 payouts,
// BA-18 commission taken from a Banker win; a push stays on the layout, BA-12).
export function handRound(ev) {
  if (ev.kind !== "baccarat.hand_settled") return null;
  const d = ev.data;
  const mine = (d.results || []).filter((r) => r.player === me).map((r) => ({
    spot: r.bet,
    name: say(`ba.${r.bet}`),
    result: r.result,
    stake: r.stake,
    net: r.result === "win" ? r.won - r.commission : r.result === "lose" ? -r.stake : 0,
  }));
  const text = `${say(`outcome.${d.outcome}`)} · ${say("ba.banker")} ${d.banker_total} · ${say("ba.player")} ${d.player_total}`;
  return { n: d.hand, label: fill("hand_n", { n: d.hand }), text, outcome: d.outcome, mine };
}

export function mount(root) {
  const q = (sel) => root.querySelector(sel);
  const qa = (sel) => root.querySelectorAll(sel);
  const game = {
    myBets: (view) => bySpot(view.bets, (b) => b.bet, (b) => b.stake, (b) => b.player === me),
    round: handRound,
    render,
    keys(e) {
      const spot = { p: "player", b: "banker", t: "tie" }[e.key.toLowerCase()];
      if (spot) {
        const b = q(`[data-spot="${spot}"]`);
        if (b.disabled) return false;
        rail.add(spot);
        return true;
      }
      if (e.key.toLowerCase() === "s") {
        const b = q("[data-reveal]:not([hidden]):enabled");
        if (!b) return false;
        b.click();
        return true;
      }
      return false;
    },
    onResult: (round) => rail.result(round),
  };
  const table = new LiveTable(root, game);
  const rail = new BetRail(table, {
    placed: game.myBets,
    others: (view) => bySpot(view.bets, (b) => b.bet, (b) => b.stake, (b) => b.player !== me),
    chips: (view) => ((view.players || []).find((p) => p.player === me) || {}).chips ?? null,
    send: (bet, amount) => table.act("place_bet", { bet, amount }),
    round: (view) => (view.hand ? view.hand.number : (view.last_hand ? view.last_hand.hand : 0) + 1),
  });

  function hand(view) {
    const h = view.hand;
    const last = view.last_hand;
    // the hand on the table, or the last one; once settled, its result and totals
    const done = last && last.player && (!h || last.hand === h.number) ? last : null;
    const shown = h || done;
    let squeezing = null;
    for (const side of SIDES) {
      const cards = shown ? shown[side] : [];
      const holder = h && h.holders ? h.holders[side] : null;
      const mine = holder === me && !done && cards.some((c) => c === null);
      const box = q(`[data-cards="${side}"]`);
      box.replaceChildren(...cards.map((c, i) => {
        const node = card(c, { rotated: i === 2 });
        if (c === null && mine) peelable(node, side);
        return node;
      }));
      // who squeezes (BA-16): another holder by name; mine, the squeeze box says
      q(`[data-holder="${side}"]`).textContent = holder && holder !== me && !done && cards.some((c) => c === null)
        ? fill("squeeze_by", { who: holder, side: say(`ba.${side}`) }) : "";
      const b = q(`[data-reveal="${side}"]`);
      b.hidden = !mine;
      b.disabled = !(mine && table.mine().has("reveal"));
      if (mine) squeezing = squeezing || side;
      q(`[data-total="${side}"]`).textContent = done ? String(done[`${side}_total`]) : "";
    }
    const sq = q("[data-squeeze]");
    sq.hidden = !squeezing;
    q("[data-squeeze-title]").textContent = squeezing ? fill("squeeze_yours", { side: say(`ba.${squeezing}`) }) : "";
    const r = q("[data-result]");
    r.textContent = done ? `${say("result")}: ${say(`outcome.${done.outcome}`)}` : "";
    r.dataset.outcome = done ? done.outcome : "";
    r.dataset.hand = done ? done.hand : "";
  }

  // the squeeze (BA-16): the holder drags a face-down card up to peel it; far enough, the
  // cards of the side are turned over (the reveal operation; the server then shows them)
  function peelable(node, side) {
    node.classList.add("peel");
    node.setAttribute("aria-hidden", "true");
    let y0 = null;
    node.addEventListener("pointerdown", (e) => { y0 = e.clientY; node.setPointerCapture(e.pointerId); });
    node.addEventListener("pointermove", (e) => {
      if (y0 == null) return;
      const dy = Math.max(0, Math.min(60, y0 - e.clientY));
      node.style.transform = `perspective(200px) rotateX(${dy}deg) translateY(${-dy / 3}px)`;
    });
    const up = (e) => {
      if (y0 == null) return;
      const dy = y0 - e.clientY;
      y0 = null;
      node.style.transform = "";
      const b = q(`[data-reveal="${side}"]`);
      if (dy > 40 && !b.disabled) b.click();
    };
    node.addEventListener("pointerup", up);
    node.addEventListener("pointercancel", () => { y0 = null; node.style.transform = ""; });
  }

  function roads(r) {
    const put = (name, node) => { const at = q(`[data-road="${name}"]`); if (at) at.replaceChildren(node); };
    const compact = root.classList.contains("compact");
    put("big_road", bigRoad(r.big_road, say("big_road"), compact ? 20 : 30));
    put("bead_plate", beadPlate(r.bead_plate, say("bead_plate"), 12));
    for (const [name, style] of Object.entries(DERIVED)) put(name, derivedRoad(r[name], style, say(name), 30));
    for (const o of ["B", "P"]) {
      q(`[data-ask="${o}"]`).replaceChildren(...Object.entries(DERIVED).map(([name, style]) => {
        const wrap = document.createElement("span");
        wrap.className = "ask-cell";
        wrap.title = say(name);
        wrap.dataset.road = name;
        wrap.dataset.mark = r.next_hand[name][o] || "";
        wrap.append(mark(r.next_hand[name][o], style));
        const label = document.createElement("span");
        label.className = "sr-only";
        label.textContent = say(name);
        wrap.append(label);
        return wrap;
      }));
    }
  }

  function stats(view) {
    const dl = q("[data-stats]");
    if (!dl) return;
    const s = view.roads.stats;
    dl.replaceChildren();
    for (const [k, v] of [["ba.banker", s.banker], ["ba.player", s.player], ["ba.tie", s.tie],
      ["ba.banker_pair", s.banker_pairs], ["ba.player_pair", s.player_pairs]]) fact(dl, say(k), v);
    fact(dl, say("cards_left"), view.shoe.cards - view.shoe.dealt).dataset.cardsLeft = "";
  }

  function seats(view) {
    // the seats taken (BA-16: only a seated player squeezes); standing spots are unlimited
    const taken = new Set((view.players || []).map((p) => String(p.seat)));
    const select = q("[data-join-seat]");
    for (const o of select.options) o.disabled = o.value !== "" && taken.has(o.value);
  }

  function render(view) {
    seats(view);
    q("[data-squeeze-rule]").hidden = Boolean(view.rules.squeeze);  // BA-16: the casino's choice
    for (const [k, [lo, hi]] of Object.entries(view.rules.limits || {})) {
      const n = q(`[data-limit="${k}"]`);
      if (n) n.textContent = `${money(lo)}–${money(hi)}`;
    }
    hand(view);
    roads(view.roads);
    stats(view);
    rail.redraw();
    rail.refresh();
    actionBar(table);
  }

  wire(table);
  for (const b of qa("[data-reveal]")) {
    b.addEventListener("click", () => { if (!b.disabled) table.act("reveal", { side: b.dataset.reveal }).catch(() => {}); });
  }
  table.connect();
  return table;
}
