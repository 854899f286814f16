// The craps table: the Macau layout (every bet of Portaria 97/85/M, from the engine's bet
// kinds), the puck, the dice, the shooter, my bets. The view is games/craps.py's view().
import { money } from "./api.js";
import { LiveTable, actionBar, root, say, me, wire } from "./live.js";
import { die, puck } from "./svg.js";

const q = (sel) => root.querySelector(sel);
const chip = () => Number(root.querySelector('input[name="chip"]:checked').value);
const ODDS_ON = { pass_odds: "pass", come_odds: "come", dont_pass_odds: "dont_pass", dont_come_odds: "dont_come" };

function cells(tr, items) {
  for (const [text, cls] of items) {
    const td = document.createElement("td");
    td.textContent = text;
    if (cls) td.className = cls;
    tr.append(td);
  }
  return tr;
}

function render(view) {
  const ops = table.mine();
  q("[data-puck]").replaceChildren(puck(view.point));
  const last = view.last_roll;
  q("[data-dice]").replaceChildren(...(last ? last.dice.map((n) => die(n)) : []));
  q("[data-dice-total]").textContent = last ? String(last.total) : "";
  q("[data-shooter]").textContent = view.shooter || "—";
  const mine = (view.bets || []).filter((b) => b.player === me);
  const totals = {};
  for (const b of mine) totals[b.bet] = (totals[b.bet] || 0) + b.amount;
  for (const node of root.querySelectorAll("[data-amount]")) {
    node.textContent = totals[node.dataset.amount] ? money(totals[node.dataset.amount]) : "";
  }
  for (const spot of root.querySelectorAll("[data-spot]")) spot.disabled = !ops.has("place_bet");
  q("[data-throw]").disabled = !ops.has("throw");
  q("[data-open-bets]").replaceChildren(...mine.map((b) => cells(document.createElement("tr"), [
    [say("cr." + b.bet), ""],
    [b.point ?? "", ""], [money(b.amount), "num"], [b.working === false ? say("off") : say("working"), ""],
  ])));
  actionBar(table);
}

const table = new LiveTable(render);
wire(table);
root.addEventListener("click", (e) => {
  const spot = e.target.closest("[data-spot]");
  if (!spot || spot.disabled) return;
  const bet = spot.dataset.spot;
  const args = { bet, amount: chip() };
  if (ODDS_ON[bet]) {  // odds lie on one of my flat bets with a point
    const flat = (table.state.view.bets || []).find((b) => b.player === me && b.bet === ODDS_ON[bet] && b.point != null);
    if (flat) args.on = flat.id;
  }
  table.act("place_bet", args).catch(() => {});
});
q("[data-throw]").addEventListener("click", () => table.act("throw").catch(() => {}));
table.connect();
