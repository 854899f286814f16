// The baccarat table (games/baccarat.py's view): bet spots with chips and limits, confirm /
// rebet / clear, the hand as the server reveals it (face-down cards until the holder — the
// largest bet on each side, BA-16 — turns them over), the result, the five roads with the
// ask-Banker / ask-Player cells and the shoe's statistics (games/baccarat_roads.py).
import { fact, money } from "./api.js";
import { LiveTable, actionBar, me, root, say, wire } from "./live.js";
import { beadPlate, bigRoad, card, derivedRoad, mark } from "./svg.js";

const DERIVED = { big_eye_boy: "ring", small_road: "dot", cockroach_pig: "slash" };
const OUTCOME = { B: "ba.banker", P: "ba.player", T: "ba.tie" };
let draft = {};      // spot -> avos chosen, not yet sent
let lastBets = {};   // what I confirmed last (rebet)

const q = (sel) => root.querySelector(sel);
const chip = () => Number(root.querySelector('input[name="chip"]:checked').value);

function showBets(view) {
  const placed = {};
  for (const b of (view && view.bets) || []) {
    if (b.player === me) placed[b.bet] = (placed[b.bet] || 0) + b.stake;
  }
  for (const node of root.querySelectorAll("[data-amount]")) {
    const k = node.dataset.amount;
    const total = (placed[k] || 0) + (draft[k] || 0);
    node.textContent = total ? money(total) : "";
    node.classList.toggle("draft", Boolean(draft[k]));
    node.dataset.avos = placed[k] || 0;
  }
}

function hand(view) {
  const h = view.hand;
  const last = view.last_hand;
  // the hand on the table, or the last one; once settled, its result and totals
  const done = last && last.player && (!h || last.hand === h.number) ? last : null;
  const shown = h || done;
  for (const side of ["player", "banker"]) {
    const cards = shown ? shown[side] : [];
    q(`[data-cards="${side}"]`).replaceChildren(...cards.map((c, i) => card(c, { rotated: i === 2 })));
    const holder = h && h.holders ? h.holders[side] : null;
    q(`[data-holder="${side}"]`).textContent = holder && !done ? `${say("squeeze")}: ${holder}` : "";
    const mine = holder === me && !done && cards.some((c) => c === null);
    const b = q(`[data-reveal="${side}"]`);
    b.hidden = !mine;
    b.disabled = !(mine && table.mine().has("reveal"));
    q(`[data-total="${side}"]`).textContent = done ? String(done[`${side}_total`]) : "";
  }
  const r = q("[data-result]");
  r.textContent = done ? `${say("result")}: ${say(OUTCOME[done.outcome])}` : "";
  r.dataset.outcome = done ? done.outcome : "";
  r.dataset.hand = done ? done.hand : "";
}

function roads(r) {
  const put = (name, node) => q(`[data-road="${name}"]`).replaceChildren(node);
  put("big_road", bigRoad(r.big_road, say("big_road"), 30));
  put("bead_plate", beadPlate(r.bead_plate, say("bead_plate"), 12));
  for (const [name, style] of Object.entries(DERIVED)) put(name, derivedRoad(r[name], style, say(name), 30));
  for (const o of ["B", "P"]) {
    q(`[data-ask="${o}"]`).replaceChildren(...Object.entries(DERIVED).map(([name, style]) => {
      const wrap = document.createElement("span");
      wrap.className = "ask-cell";
      wrap.title = say(name);
      wrap.append(mark(r.next_hand[name][o], style));
      return wrap;
    }));
  }
}

function stats(view) {
  const s = view.roads.stats;
  const dl = q("[data-stats]");
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
  for (const [k, [lo, hi]] of Object.entries(view.rules.limits || {})) {
    const n = q(`[data-limit="${k}"]`);
    if (n) n.textContent = `${money(lo)}–${money(hi)}`;
  }
  const betting = table.mine().has("place_bet");
  for (const b of root.querySelectorAll("[data-spot], [data-confirm], [data-rebet]")) b.disabled = !betting;
  hand(view);
  roads(view.roads);
  stats(view);
  showBets(view);
  actionBar(table);
}

const table = new LiveTable(render);
wire(table);
root.addEventListener("click", (e) => {
  const spot = e.target.closest("[data-spot]");
  if (spot && !spot.disabled) {
    draft[spot.dataset.spot] = (draft[spot.dataset.spot] || 0) + chip();
    showBets(table.state && table.state.view);
  }
  const reveal = e.target.closest("[data-reveal]");
  if (reveal && !reveal.disabled) table.act("reveal", { side: reveal.dataset.reveal }).catch(() => {});
});
q("[data-clear]").addEventListener("click", () => { draft = {}; showBets(table.state && table.state.view); });
q("[data-rebet]").addEventListener("click", () => { draft = { ...lastBets }; showBets(table.state && table.state.view); });
q("[data-confirm]").addEventListener("click", async () => {
  const sent = { ...draft };
  draft = {};
  for (const [bet, amount] of Object.entries(sent)) await table.act("place_bet", { bet, amount }).catch(() => {});
  if (Object.keys(sent).length) lastBets = sent;
  showBets(table.state && table.state.view);
});
table.connect();
