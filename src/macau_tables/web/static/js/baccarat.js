// The baccarat table: bet spots and chips, the hand as the server reveals it, the five roads.
import { money } from "./api.js";
import { LiveTable, actionBar, me, root, say, wire } from "./live.js";
import { beadPlate, bigRoad, card, derivedRoad, mark } from "./svg.js";

const DERIVED = { big_eye_boy: "ring", small_road: "dot", cockroach_pig: "slash" };
let draft = {};      // spot -> minor units, not yet sent
let lastBets = {};   // what was confirmed last hand (rebet)

const q = (sel) => root.querySelector(sel);
const chip = () => Number(root.querySelector('input[name="chip"]:checked').value);

function showDraft(view) {
  const placed = {};
  for (const b of (view && view.bets) || []) {
    if (b.player === me) placed[b.bet || b.kind] = (placed[b.bet || b.kind] || 0) + (b.stake ?? b.amount);
  }
  for (const node of root.querySelectorAll("[data-amount]")) {
    const k = node.dataset.amount;
    const total = (placed[k] || 0) + (draft[k] || 0);
    node.textContent = total ? money(total) : "";
    node.classList.toggle("draft", Boolean(draft[k]));
  }
}

function hand(side, cards) {
  const box = q(`[data-cards="${side}"]`);
  box.replaceChildren(...(cards || []).map((c, i) => card(c, { rotated: i === 2 })));
}

function roads(r) {
  if (!r) return;
  const put = (name, node) => q(`[data-road="${name}"]`).replaceChildren(node);
  put("big_road", bigRoad(r.big_road, say("big_road"), 30));
  put("bead_plate", beadPlate(r.bead_plate, say("bead_plate"), 12));
  for (const [name, style] of Object.entries(DERIVED)) put(name, derivedRoad(r[name], style, say(name), 30));
  for (const o of ["B", "P"]) {
    q(`[data-ask="${o}"]`).replaceChildren(...Object.entries(DERIVED).map(([name, style]) => {
      const wrap = document.createElement("span");
      wrap.className = "ask-cell";
      wrap.title = say(name);
      wrap.append(mark((r.next_hand || {})[name]?.[o], style));
      return wrap;
    }));
  }
  const stats = r.stats || {};
  const dl = q("[data-stats]");
  dl.replaceChildren();
  const rows = [["ba.banker", stats.banker], ["ba.player", stats.player], ["ba.tie", stats.tie],
    ["ba.banker_pair", stats.banker_pairs], ["ba.player_pair", stats.player_pairs]];
  for (const [k, v] of rows) addFact(dl, say(k), v ?? 0);
}

function addFact(dl, term, value) {
  const d = document.createElement("div");
  const dt = document.createElement("dt");
  const dd = document.createElement("dd");
  dt.textContent = term;
  dd.textContent = value;
  d.append(dt, dd);
  dl.append(d);
}

function render(view) {
  actionBar(table);
  const h = view.hand || {};
  hand("player", h.player);
  hand("banker", h.banker);
  for (const side of ["player", "banker"]) {
    const tot = (h.totals || {})[side];
    q(`[data-total="${side}"]`).textContent = tot == null ? "" : String(tot);
  }
  const res = view.last_result || view.result;
  q("[data-result]").textContent = res ? `${say("result")}: ${say("ba." + (res.winner || res.outcome || res))}` : "";
  for (const [k, lim] of Object.entries(view.limits || {})) {
    const n = q(`[data-limit="${k}"]`);
    if (n) n.textContent = `${money(lim.min ?? lim[0])}–${money(lim.max ?? lim[1])}`;
  }
  roads(view.roads);
  const dl = q("[data-stats]");
  if (view.cards_left != null) addFact(dl, say("cards_left"), view.cards_left);
  showDraft(view);
}

const table = new LiveTable(render);
wire(table);
root.addEventListener("click", (e) => {
  const spot = e.target.closest("[data-spot]");
  if (spot) { draft[spot.dataset.spot] = (draft[spot.dataset.spot] || 0) + chip(); showDraft(table.view); }
});
q("[data-clear]").addEventListener("click", () => { draft = {}; showDraft(table.view); });
q("[data-rebet]").addEventListener("click", () => { draft = { ...lastBets }; showDraft(table.view); });
q("[data-confirm]").addEventListener("click", async () => {
  const sent = { ...draft };
  for (const [kind, amount] of Object.entries(sent)) {
    await table.act("place_bet", { kind, amount });
    delete draft[kind];
  }
  if (Object.keys(sent).length) lastBets = sent;
  showDraft(table.view);
});
table.connect();
