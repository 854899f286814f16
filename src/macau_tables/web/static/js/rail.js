// The chip rail and the bets I am making: pick a chip, click (or press) a spot to add it to a
// draft, undo / clear / rebet / double, then confirm — each spot's bet is then sent as one
// operation. The chips and the spots are drawn from what the server says: a chip I cannot
// afford or that no spot can take now (the engine's limits, GET /ui/room) is greyed; a spot
// that takes no bet now is marked, with the engine's reason. My bets are drawn as chips on
// their spots, the other players' as smaller stacks beside them, and my last result on each.
import { PATHS, get, may, money, mop } from "./api.js";
import { toast } from "./session.js";
import { chipFace, chipStack } from "./chips.js";
import { fill, me, resultText, say } from "./live.js";

export class BetRail {
  // game: placed(view) / others(view) -> {spot: avos}; chips(view) -> my chips or null;
  // send(spot, avos) -> Promise; roomKey(spot) -> the room's key; round(view) -> its number
  constructor(table, game) {
    this.table = table;
    this.game = game;
    this.draft = {};
    this.steps = [];     // [spot, avos] in the order added (undo)
    this.room = null;    // GET /ui/room's answer: what the engine accepts now, per spot
    this.shownResult = null;
    table.rail = this;
    const saved = localStorage.getItem(`mt.rebet.${table.tableId}`);
    this.last = saved ? JSON.parse(saved) : { round: null, bets: {} };
    for (const input of table.qa("[data-chip-input]")) {
      const label = table.q(`label[for="${input.id}"]`);
      label.prepend(chipFace(Number(input.value) / 100));
      input.addEventListener("change", () => this.redraw());
    }
    table.root.addEventListener("click", (e) => {
      const spot = e.target.closest("[data-spot]");
      if (spot && table.root.contains(spot) && !spot.disabled) this.add(spot.dataset.spot);
    });
    const on = (sel, fn) => table.q(sel).addEventListener("click", fn);
    on("[data-undo]", () => this.undo());
    on("[data-clear]", () => this.clear());
    on("[data-rebet]", () => this.rebet());
    on("[data-double]", () => this.double());
    on("[data-confirm]", () => this.confirm());
  }

  get view() { return this.table.state ? this.table.state.view : {}; }
  chip() { const c = this.table.q("[data-chip-input]:checked"); return c ? Number(c.value) : 0; }
  chipInputs() { return [...this.table.qa("[data-chip-input]")]; }
  betting() { return this.table.betting(); }

  // my chips at the table (the view's, else the ledger's), less the draft
  afford() {
    const chips = this.game.chips ? this.game.chips(this.view) : null;
    const stack = chips ?? this.table.stack ?? 0;
    return stack - Object.values(this.draft).reduce((n, a) => n + a, 0);
  }

  roomOf(spot) {
    if (!this.room) return null;
    const key = this.game.roomKey ? this.game.roomKey(spot, this.view) : spot;
    return key == null ? { open: false } : this.room.spots[key] ?? null;
  }

  isOpen(spot) {
    if (!this.betting()) return false;
    const r = this.roomOf(spot);
    return r ? r.open : !this.room || !this.room.known;
  }

  // the most this spot takes on top of my draft now (the engine's answer), else no bound
  room_(spot) {
    const r = this.roomOf(spot);
    return r && r.open ? r.max - (this.draft[spot] || 0) : Infinity;
  }

  // what the engine accepts now, per spot: asked again whenever the table moved
  async refresh() {
    if (!may("command") || !this.betting()) { this.room = null; this.redraw(); return; }
    const seq = this.table.state.seq;
    if (this.roomSeq === seq) return;
    this.roomSeq = seq;
    const r = await get(`/ui/room/${encodeURIComponent(this.table.tableId)}`).catch(() => null);
    if (r && (r.seq == null || r.seq >= (this.room && this.room.seq) || !this.room)) this.room = r;
    this.redraw();
  }

  add(spot) {
    if (!this.isOpen(spot)) return;
    const v = this.chip();
    if (v > this.afford()) { toast(`${fill("chip_value", { v: money(v) })}: ${say("chip_afford")}`); return; }
    const room = this.room_(spot);
    if (v > room) {
      toast(`${say("chip_limit")}: ${fill("up_to", { amount: mop(Math.max(0, room)) })}`);
      return;
    }
    this.draft[spot] = (this.draft[spot] || 0) + v;
    this.steps.push([spot, v]);
    this.shownResult = null;
    this.redraw();
  }

  undo() {
    const step = this.steps.pop();
    if (!step) return;
    const [spot, v] = step;
    this.draft[spot] -= v;
    if (this.draft[spot] <= 0) delete this.draft[spot];
    this.redraw();
  }

  clear() { this.draft = {}; this.steps = []; this.redraw(); }

  // put amounts into the draft, each within what its spot takes and what I can afford
  put(amounts) {
    for (const [spot, want] of Object.entries(amounts)) {
      if (!want || !this.isOpen(spot)) continue;
      const v = Math.min(want, this.room_(spot), this.afford());
      if (v <= 0) continue;
      this.draft[spot] = (this.draft[spot] || 0) + v;
      this.steps.push([spot, v]);
    }
    this.shownResult = null;
    this.redraw();
  }

  // the bets I confirmed last round, again
  rebet() { this.put(this.last.bets || {}); }

  // each bet doubled (the draft's, else what lies on the layout), capped at the maximum
  double() {
    const base = Object.keys(this.draft).length ? { ...this.draft } : this.game.placed(this.view);
    this.put(base);
  }

  async confirm() {
    const sent = {};
    const bets = Object.entries(this.draft);
    for (const [spot, amount] of bets) {
      try {
        await this.game.send(spot, amount);
        sent[spot] = amount;
        delete this.draft[spot];
      } catch { break; }  // (the refusal is said; the rest stays in the draft)
    }
    this.steps = this.steps.filter(([spot]) => spot in this.draft);
    if (Object.keys(sent).length) {
      const round = this.game.round ? this.game.round(this.view) : null;
      const bets_ = this.last.round === round ? { ...this.last.bets } : {};
      for (const [k, v] of Object.entries(sent)) bets_[k] = (bets_[k] || 0) + v;
      this.last = { round, bets: bets_ };
      localStorage.setItem(`mt.rebet.${this.table.tableId}`, JSON.stringify(this.last));
    }
    this.redraw();
  }

  // my last round's result on each spot (until I start the next bets)
  result(round) { this.shownResult = round; this.redraw(); }

  redraw() {
    const view = this.view;
    const betting = this.betting();
    if (!betting && Object.keys(this.draft).length) this.clear();  // betting closed: nothing to send
    const placed = this.game.placed(view);
    const others = this.game.others ? this.game.others(view) : {};
    // my result per spot: of the last round settled, if I played in it (until I bet again)
    const results = {};
    const latest = this.table.rounds[0];
    const shown = this.shownResult && latest && this.shownResult.seq >= latest.seq ? this.shownResult : null;
    for (const x of (shown && shown.mine) || []) (results[x.spot] ||= []).push(x);
    for (const spot of this.table.qa("[data-spot]")) {
      const key = spot.dataset.spot;
      const mine = placed[key] || 0;
      const draft = this.draft[key] || 0;
      const open = this.isOpen(key);
      spot.disabled = !open;
      const closed = betting && !open;
      spot.classList.toggle("closed", closed);
      const r = this.roomOf(key);
      spot.title = closed && r && r.why ? r.why : "";
      const shut = this.table.q(`[data-closed="${key}"]`);
      if (shut) shut.textContent = closed ? say("closed_now") : "";
      const amount = this.table.q(`[data-amount="${key}"]`);
      if (amount) {
        amount.textContent = mine + draft ? money(mine + draft) : "";
        amount.classList.toggle("draft", draft > 0);
        amount.dataset.avos = mine;
      }
      const pile = this.table.q(`[data-chips="${key}"]`);
      if (pile) {
        const stacks = [];
        if (mine) stacks.push(chipStack(mine, { kind: "mine" }));
        if (draft) stacks.push(chipStack(draft, { kind: "draft" }));
        if (others[key]) stacks.push(chipStack(others[key], { kind: "others", size: 18 }));
        pile.replaceChildren(...stacks);
      }
      const theirs = this.table.q(`[data-others="${key}"]`);
      if (theirs) theirs.textContent = others[key] ? `${say("others_bet")} ${money(others[key])}` : "";
      const res = this.table.q(`[data-spot-result="${key}"]`);
      if (res) {
        const xs = results[key] || [];
        res.textContent = xs.map((x) => resultText({ ...x, name: "" })).join(" · ");
        const net = xs.reduce((n, x) => n + x.net, 0);
        res.className = `spot-result ${xs.length ? (net > 0 ? "won" : net < 0 ? "lost" : "even") : ""}`;
        res.dataset.myResult = xs.map((x) => x.result).join(" ");
      }
    }
    // the chips: greyed when I cannot afford one, or when no open spot can take it now
    const afford = this.afford();
    const spots = [...this.table.qa("[data-spot]")].map((s) => s.dataset.spot).filter((k) => this.isOpen(k));
    for (const input of this.chipInputs()) {
      const v = Number(input.value);
      const poor = v > afford && (this.game.chips ? this.game.chips(view) != null : this.table.stack != null);
      const over = betting && !poor && spots.length > 0 && spots.every((k) => v > this.room_(k));
      input.disabled = poor || over;
      const label = this.table.q(`label[for="${input.id}"]`);
      label.classList.toggle("greyed", poor || over);
      label.querySelector("[data-chip-note]").textContent = poor ? ` (${say("chip_afford")})` : over ? ` (${say("chip_limit")})` : "";
    }
    const checked = this.table.q("[data-chip-input]:checked");
    if (!checked || checked.disabled) {
      const ok = this.chipInputs().filter((i) => !i.disabled);
      const below = ok.filter((i) => !checked || Number(i.value) <= Number(checked.value));
      const pick = below[below.length - 1] || ok[0];
      if (pick) pick.checked = true;
    }
    const q = (s) => this.table.q(s);
    const drafted = Object.keys(this.draft).length > 0;
    q("[data-confirm]").disabled = !betting || !drafted;
    q("[data-undo]").disabled = !this.steps.length;
    q("[data-clear]").disabled = !drafted;
    q("[data-rebet]").disabled = !betting || !Object.keys(this.last.bets || {}).length;
    q("[data-double]").disabled = !betting || !(drafted || Object.values(placed).some(Boolean));
    const total = Object.values(this.draft).reduce((n, a) => n + a, 0);
    const note = q("[data-draft-note]");
    note.textContent = drafted ? `${say("draft_note")} · ${mop(total)}` : "";
    note.dataset.avos = total;
  }

  // 1–9 pick a chip; U (or Backspace) undo; Esc clear; R rebet; D double; C confirm
  key(e) {
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (/^[1-9]$/.test(k)) {
      const input = this.chipInputs()[Number(k) - 1];
      if (!input || input.disabled) return false;
      input.checked = true;
      input.focus();
      this.redraw();
      return true;
    }
    const act = { u: "undo", Backspace: "undo", Escape: "clear", r: "rebet", d: "double", c: "confirm" }[k];
    if (!act) return false;
    const button = this.table.q(`[data-${act}]`);
    if (button.disabled) return false;
    this[act]();
    return true;
  }
}

// the amounts of a list of bets, added up by spot: {spot: avos}
export function bySpot(bets, spotOf, amountOf, keep = () => true) {
  const out = {};
  for (const b of bets || []) {
    if (!keep(b)) continue;
    const k = spotOf(b);
    if (k != null) out[k] = (out[k] || 0) + amountOf(b);
  }
  return out;
}

export { me };
