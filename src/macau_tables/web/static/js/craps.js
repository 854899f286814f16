// The craps table (games/craps.py's view): the Macau layout — every bet of Portaria 97/85/M,
// from the engine's bet kinds — with chips, limits and my last result on each spot; the
// puck (OFF on a come-out roll, ON on the point's box); Come and Don't Come bets moved to
// their number once they have one, their odds drawn on top; Pass / Don't Pass odds on top of
// the line; each bet working or off, and the spots that take no bet now marked, as the
// server says (GET /ui/room: the engine's own checks); the dice, the shooter; the rolls.
import { money, mop } from "./api.js";
import { LiveTable, actionBar, fill, me, say, wire } from "./live.js";
import { BetRail } from "./rail.js";
import { chipStack } from "./chips.js";
import { die, puck } from "./svg.js";

const ODDS_OF = { pass: "pass_odds", dont_pass: "dont_pass_odds", come: "come_odds", dont_come: "dont_come_odds" };
const FLAT_OF = Object.fromEntries(Object.entries(ODDS_OF).map(([f, o]) => [o, f]));
const MOVES = new Set(["come", "dont_come"]);  // CR-2.3, CR-3.3: moved to their point
const LINE_ODDS = new Set(["pass_odds", "dont_pass_odds"]);

// the spot a bet lies on: a flat bet on its kind (Come / Don't Come, once they have a point,
// on their number: no spot of the rail); odds on the line's odds spot, or on the moved bet
export function spotOf(b) {
  const kind = b.bet ?? b.kind;
  if (b.on != null) return LINE_ODDS.has(kind) ? kind : `${kind}:${b.on}`;
  if (MOVES.has(kind) && b.point != null) return null;
  return kind;
}

export function mount(root) {
  const q = (sel) => root.querySelector(sel);
  const qa = (sel) => root.querySelectorAll(sel);
  const known = new Map();   // bet id -> {kind, on} (from the views and bet_placed events)
  const diceOf = new Map();  // roll -> dice
  const kindName = (kind) => say(`cr.${kind}`);

  const mineOf = (view) => (view.bets || []).filter((b) => b.player === me);
  const sum = (bets, keep) => {
    const out = {};
    for (const b of bets) {
      const k = keep(b);
      if (k != null) out[k] = (out[k] || 0) + b.amount;
    }
    return out;
  };
  const myPass = (view, kind) => mineOf(view).find((b) => b.bet === kind && b.on == null && b.point != null);

  const game = {
    myBets: (view) => sum(mineOf(view), (b) => String(b.id)),
    round(ev) {
      const d = ev.data || {};
      if (ev.kind === "craps.bet_placed") known.set(d.bet_id, { kind: d.bet, on: d.on });
      if (ev.kind === "craps.dice_thrown") diceOf.set(d.roll, d.dice);
      if (ev.kind !== "craps.roll_settled") return null;
      const dice = diceOf.get(d.roll);
      let words = "";
      if (d.point_before == null && d.point_after != null) words = fill("point_set", { n: d.point_after });
      else if (d.point_before != null && d.point_after == null) {
        words = d.total === 7 ? say("seven_out") : fill("point_made", { n: d.point_before });
      }
      const text = [`${d.total}${dice ? ` (${dice.join(" + ")})` : ""}`, words].filter(Boolean).join(" · ");
      const mine = (d.results || []).filter((r) => r.player === me).map((r) => {
        const k = known.get(r.bet) || {};
        const point = (/\s(\d+)$/.exec(r.name) || [])[1];
        const kind = k.kind;
        return {
          spot: kind ? (FLAT_OF[kind] || kind) : null,
          name: kind ? `${kindName(kind)}${point ? " " + point : ""}` : r.name,
          result: r.result,
          stake: r.stake,
          net: r.result === "win" ? r.won : r.result === "lose" ? -r.stake : 0,
        };
      });
      return { n: d.roll, label: fill("roll_n", { n: d.roll }), text, mine };
    },
    render,
    keys(e) {
      const active = document.activeElement;
      const onControl = active && active.closest && active.closest("button, a, summary, input, select, [tabindex]");
      if ((e.key === " " && !onControl) || e.key.toLowerCase() === "x") {
        const b = q("[data-throw]");
        if (b.disabled) return false;
        b.click();
        return true;
      }
      return false;
    },
    onResult: (round) => rail.result(round),
  };
  const table = new LiveTable(root, game);
  const rail = new BetRail(table, {
    placed: (view) => sum(mineOf(view), (b) => spotOf(b)),
    others: (view) => sum((view.bets || []).filter((b) => b.player !== me && b.on == null), (b) => spotOf(b)),
    chips: (view) => (view.you ? view.you.stack : null),
    roomKey(spot, view) {
      if (LINE_ODDS.has(spot)) {
        const flat = myPass(view, FLAT_OF[spot]);
        return flat ? `odds:${flat.id}` : null;
      }
      const [kind, on] = spot.split(":");
      return on != null && FLAT_OF[kind] ? `odds:${on}` : spot;
    },
    send(spot, amount) {
      const view = table.state.view;
      const args = { amount };
      if (LINE_ODDS.has(spot)) {  // odds lie on my flat bet with a point (CR-2.2, CR-3.2)
        args.bet = spot;
        const flat = myPass(view, FLAT_OF[spot]);
        if (flat) args.on = flat.id;
      } else if (spot.includes(":")) {
        const [kind, on] = spot.split(":");
        Object.assign(args, { bet: kind, on: Number(on) });
      } else args.bet = spot;
      return table.act("place_bet", args);
    },
    round: (view) => view.rolls,
  });
  table.onMoney = () => rail.redraw();

  const working = (b) => {
    const w = rail.room && rail.room.working ? rail.room.working[String(b.id)] : undefined;
    return w !== false;  // CR-R8: every bet works on every roll unless the engine says it is off
  };

  function cells(tr, items) {
    for (const [text, cls] of items) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  }

  // a moved Come / Don't Come bet on its number: its chips, and its odds spot on top
  function movedBet(b, view) {
    const odds = ODDS_OF[b.bet];
    const key = `${odds}:${b.id}`;
    let wrap = q(`[data-moved="${b.id}"]`);
    if (!wrap) {
      wrap = document.createElement("div");
      wrap.className = "moved";
      wrap.dataset.moved = b.id;
      const flat = document.createElement("span");
      flat.className = "moved-flat";
      flat.dataset.flat = "";
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = "spot odds-spot";
      btn.dataset.spot = key;
      for (const [cls, attr] of [["spot-name", null], ["spot-chips", "data-chips"], ["spot-amount", "data-amount"],
        ["spot-limit", "data-limit"], ["spot-result", "data-spot-result"], ["spot-closed", "data-closed"]]) {
        const s = document.createElement("span");
        s.className = cls;
        if (attr) s.setAttribute(attr, key);
        if (cls === "spot-chips") s.setAttribute("aria-hidden", "true");
        btn.append(s);
      }
      wrap.append(btn, flat);
    }
    const flat = wrap.querySelector("[data-flat]");
    flat.replaceChildren(chipStack(b.amount, { kind: "mine" }));
    const label = document.createElement("span");
    label.className = "moved-words";
    label.textContent = `${kindName(b.bet)} ${b.point} · ${money(b.amount)}`;
    flat.append(label);
    const oddsBet = (view.bets || []).find((x) => x.on === b.id);
    const btn = wrap.querySelector("button");
    btn.querySelector(".spot-name").textContent = fill("odds_on", { bet: `${kindName(b.bet)} ${b.point}` });
    btn.classList.toggle("off", Boolean(oddsBet) && !working(oddsBet));
    btn.querySelector("[data-limit]").textContent = oddsBet && !working(oddsBet) ? say("off") : "";
    return wrap;
  }

  function boxes(view) {
    const mine = mineOf(view);
    for (const box of qa("[data-box]")) {
      const n = Number(box.dataset.box);
      box.classList.toggle("point", view.point === n);
      box.querySelector("[data-box-puck]").replaceChildren(...(view.point === n ? [puck(n)] : []));
      const list = box.querySelector("[data-box-bets]");
      const moved = mine.filter((b) => MOVES.has(b.bet) && b.on == null && b.point === n);
      const keep = moved.map((b) => movedBet(b, view));
      for (const old of [...list.querySelectorAll("[data-moved]")]) if (!keep.includes(old)) old.remove();
      for (const node of keep) if (node.parentNode !== list) list.append(node);
      // the other players' moved bets on this number, as a small stack
      const others = (view.bets || []).filter((b) => b.player !== me && MOVES.has(b.bet) && b.point === n && b.on == null);
      let theirs = list.querySelector("[data-box-others]");
      if (others.length) {
        if (!theirs) {
          theirs = document.createElement("span");
          theirs.className = "box-others";
          theirs.dataset.boxOthers = "";
          list.append(theirs);
        }
        const total = others.reduce((t, b) => t + b.amount, 0);
        theirs.replaceChildren(chipStack(total, { kind: "others", size: 18 }),
          Object.assign(document.createElement("span"), { textContent: `${say("others_bet")} ${money(total)}` }));
      } else if (theirs) theirs.remove();
    }
  }

  function limits(view) {
    const r = view.rules || {};
    const spot = r.spot_limits || {};
    for (const n of qa("[data-spot]")) {
      const k = n.dataset.spot;
      if (k.includes("odds")) continue;
      const [lo, hi] = spot[k] || [r.min_bet, r.max_bet];
      const at = n.querySelector(`[data-limit="${k}"]`);
      if (at && lo != null) at.textContent = `${money(lo)}–${money(hi)}`;
    }
    for (const spot of ["pass_odds", "dont_pass_odds"]) {  // the odds: only the cap (CR-2.2)
      const btn = q(`[data-spot="${spot}"]`);
      const flat = myPass(view, FLAT_OF[spot]);
      btn.hidden = !flat;
      const room = rail.roomOf(spot);
      const at = btn.querySelector(`[data-limit="${spot}"]`);
      at.textContent = room && room.open ? fill("up_to", { amount: mop(room.max) }) : "";
    }
    for (const btn of qa(".moved .odds-spot")) {
      const room = rail.roomOf(btn.dataset.spot);
      const at = btn.querySelector("[data-limit]");
      if (room && room.open && !btn.classList.contains("off")) at.textContent = fill("up_to", { amount: mop(room.max) });
    }
  }

  function render(view) {
    const ops = table.mine();
    for (const b of view.bets || []) known.set(b.id, { kind: b.bet, on: b.on });
    q("[data-puck]").replaceChildren(puck(view.point));
    q("[data-puck-words]").textContent = view.point == null ? say("puck_off") : fill("puck_on", { n: view.point });
    const last = view.last_roll;
    q("[data-dice]").replaceChildren(...(last ? last.dice.map((n) => die(n)) : []));
    q("[data-dice-total]").textContent = last ? String(last.total) : "";
    q("[data-shooter]").textContent = view.shooter || "—";
    q("[data-you-shoot]").hidden = view.shooter !== me;
    q("[data-throw]").disabled = !ops.has("throw");
    boxes(view);
    const mine = mineOf(view);
    q("[data-open-bets]").replaceChildren(...mine.map((b) => cells(document.createElement("tr"), [
      [kindName(b.bet), ""],
      [b.point ?? "", ""], [money(b.amount), "num"], [working(b) ? say("working") : say("off"), ""],
    ])));
    rail.redraw();
    limits(view);
    rail.refresh().then(() => { limits(view); boxes(view); });
    actionBar(table);
  }

  wire(table);
  q("[data-throw]").addEventListener("click", () => table.act("throw").catch(() => {}));
  table.connect();
  return table;
}
