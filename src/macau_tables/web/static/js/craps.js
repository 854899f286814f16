// The craps table: the Macau layout (every bet of Portaria 97/85/M), puck, dice, shooter.
import { money } from "./api.js";
import { LiveTable, enable, me, root, say, wireOps } from "./live.js";
import { die, puck } from "./svg.js";

const q = (sel) => root.querySelector(sel);
const chip = () => Number(root.querySelector('input[name="chip"]:checked').value);

function render(view) {
  const ops = enable(view);
  const point = view.point ?? null;
  q("[data-puck]").replaceChildren(puck(point));
  const d = view.dice || view.last_dice;
  q("[data-dice]").replaceChildren(...(d ? (d.dice || d).map((n) => die(n)) : []));
  q("[data-shooter]").textContent = view.shooter || "—";
  const open = (view.bets || []).filter((b) => !b.player || b.player === me);
  const totals = {};
  for (const b of open) totals[b.kind || b.bet] = (totals[b.kind || b.bet] || 0) + (b.amount ?? b.stake);
  for (const node of root.querySelectorAll("[data-amount]")) {
    node.textContent = totals[node.dataset.amount] ? money(totals[node.dataset.amount]) : "";
  }
  for (const spot of root.querySelectorAll("[data-spot]")) spot.disabled = !ops.has("place_bet");
  q("[data-open-bets]").replaceChildren(...open.map((b) => {
    const tr = document.createElement("tr");
    const name = b.kind || b.bet;
    for (const [text, cls] of [[say("cr." + name), ""], [b.point ?? "", ""],
      [money(b.amount ?? b.stake), "num"], [b.working === false ? say("off") : say("on"), ""]]) {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    return tr;
  }));
  q("[data-my-seat]").textContent = (view.players || []).includes(me) ? me : "—";
}

const table = new LiveTable(render);
wireOps(table);
root.addEventListener("click", (e) => {
  const spot = e.target.closest("[data-spot]");
  if (spot && !spot.disabled) table.act("place_bet", { kind: spot.dataset.spot, amount: chip() }).catch(() => {});
});
table.connect();
