// SVG pictures of the game pieces: cards, the 32 Chinese dominoes, dice, road maps.
// Pure functions from the server's notation ("Th", "6-6", 5, Roads.to_json()) to elements.
// Nothing here decides a game: the roads are drawn from the cells Python computed.

const NS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function svg(w, h, label, ...children) {
  const attrs = { viewBox: `0 0 ${w} ${h}`, width: w, height: h, focusable: "false" };
  if (label) Object.assign(attrs, { role: "img", "aria-label": label });
  else attrs["aria-hidden"] = "true";
  return el("svg", attrs, ...children);
}

function text(x, y, s, attrs = {}) {
  const t = el("text", { x, y, ...attrs });
  t.textContent = s;
  return t;
}

// --- cards: "As" … "Kc"; null is a card face down -------------------------------------------

const SUIT = { c: ["♣", "black"], d: ["♦", "red"], h: ["♥", "red"], s: ["♠", "black"] };
const RANK_NAME = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };

export function card(code, { rotated = false } = {}) {
  if (!code) {
    return svg(60, 84, "face-down card",
      el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }),
      el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "card-back-inner" }));
  }
  const [sym, colour] = SUIT[code[1]] || ["?", "black"];
  const rank = RANK_NAME[code[0]] || code[0];
  const s = svg(60, 84, `${rank}${sym}`,
    el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-face" }),
    text(6, 20, rank, { class: `card-rank ${colour}` }),
    text(30, 56, sym, { class: `card-suit ${colour}`, "text-anchor": "middle" }));
  if (rotated) s.classList.add("rotated");  // a third card is dealt sideways
  return s;
}

// --- tiles: "6-6"; null is a tile face down --------------------------------------------------
// Pips as on real Chinese dominoes: the 1 and the 4 are red, 6-6 has red centre rows… kept simple:
// 1s and 4s red, others white, as the common sets paint them.

const PIP_POS = {
  1: [[1, 1]],
  2: [[0, 0], [2, 2]],
  3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]],
  5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

function half(n, y0) {
  const red = n === 1 || n === 4;
  return PIP_POS[n].map(([cx, cy]) => el("circle", {
    cx: 10 + cx * 10, cy: y0 + 8 + cy * 10, r: n === 1 ? 5 : 3.6,
    class: red ? "pip red" : "pip",
  }));
}

export function tile(code, label) {
  if (!code) {
    return svg(40, 80, label || "face-down tile",
      el("rect", { x: 1, y: 1, width: 38, height: 78, rx: 5, class: "tile-back" }));
  }
  const [lo, hi] = code.split("-").map(Number);
  // the higher number on top, as the tiles are stood up
  return svg(40, 80, label || code,
    el("rect", { x: 1, y: 1, width: 38, height: 78, rx: 5, class: "tile-face" }),
    el("line", { x1: 5, y1: 40, x2: 35, y2: 40, class: "tile-line" }),
    ...half(hi, 2), ...half(lo, 42));
}

// --- dice -------------------------------------------------------------------------------------

export function die(n, label) {
  const pos = PIP_POS[n] || [];
  return svg(44, 44, label || `die ${n}`,
    el("rect", { x: 1, y: 1, width: 42, height: 42, rx: 7, class: "die" }),
    ...pos.map(([cx, cy]) => el("circle", {
      cx: 10 + cx * 12, cy: 10 + cy * 12, r: 4, class: n === 1 || n === 4 ? "pip red" : "pip dark",
    })));
}

// --- road maps (from games/baccarat/roads.py Roads.to_json) -----------------------------------

const CELL = 18;

function grid(cols, label, children) {
  const w = Math.max(cols, 12) * CELL;
  const s = svg(w, 6 * CELL, label, el("rect", { width: w, height: 6 * CELL, class: "road-bg" }),
    ...children);
  s.classList.add("road");
  return s;
}

function lastCols(cells, width) {
  const n = cells.reduce((m, c) => Math.max(m, c.col + 1), 0);
  const first = width ? Math.max(0, n - width) : 0;
  return [cells.filter((c) => c.col >= first).map((c) => ({ ...c, col: c.col - first })), n - first];
}

export function beadPlate(cells, label, width = 0) {
  const [cs, n] = lastCols(cells, width);
  return grid(n, label, cs.map((c) => {
    const o = c.mark[0];
    const g = el("g", {});
    g.append(el("circle", { cx: c.col * CELL + 9, cy: c.row * CELL + 9, r: 8, class: `bead ${o}` }));
    g.append(text(c.col * CELL + 9, c.row * CELL + 13, { B: "莊", P: "閒", T: "和" }[o] || o,
      { class: "bead-text", "text-anchor": "middle" }));
    return g;
  }));
}

export function bigRoad(big, label, width = 0) {
  const [cs, n] = lastCols(big.cells, width);
  return grid(n, label, cs.map((c) => {
    const x = c.col * CELL + 9, y = c.row * CELL + 9;
    const g = el("g", {}, el("circle", { cx: x, cy: y, r: 7, class: `ring ${c.outcome}` }));
    if (c.ties) {
      g.append(el("line", { x1: x - 6, y1: y + 6, x2: x + 6, y2: y - 6, class: "tie-slash" }));
      if (c.ties > 1) g.append(text(x, y + 4, String(c.ties), { class: "tie-n", "text-anchor": "middle" }));
    }
    if (c.banker_pair) g.append(el("circle", { cx: x - 5, cy: y - 5, r: 2.5, class: "pair B" }));
    if (c.player_pair) g.append(el("circle", { cx: x + 5, cy: y + 5, r: 2.5, class: "pair P" }));
    return g;
  }));
}

// Big Eye Boy: hollow rings; Small Road: solid dots; Cockroach Pig: slashes. R red, B blue.
export function derivedRoad(cells, style, label, width = 0) {
  const [cs, n] = lastCols(cells, width);
  return grid(n, label, cs.map((c) => {
    const x = c.col * CELL + 9, y = c.row * CELL + 9, cls = c.mark === "R" ? "red" : "blue";
    if (style === "ring") return el("circle", { cx: x, cy: y, r: 6, class: `ring-d ${cls}` });
    if (style === "dot") return el("circle", { cx: x, cy: y, r: 6, class: `dot ${cls}` });
    return el("line", { x1: x - 6, y1: y + 6, x2: x + 6, y2: y - 6, class: `slash ${cls}` });
  }));
}

export function mark(colour, style) {
  // the ask-Banker / ask-Player preview: one cell of a derived road
  if (!colour) return svg(18, 18, "—");
  const cls = colour === "R" ? "red" : "blue";
  const shape = style === "ring" ? el("circle", { cx: 9, cy: 9, r: 6, class: `ring-d ${cls}` })
    : style === "dot" ? el("circle", { cx: 9, cy: 9, r: 6, class: `dot ${cls}` })
      : el("line", { x1: 3, y1: 15, x2: 15, y2: 3, class: `slash ${cls}` });
  return svg(18, 18, colour === "R" ? "red" : "blue", shape);
}

// --- the craps point puck ---------------------------------------------------------------------

export function puck(point) {
  const on = point != null;
  return svg(48, 48, on ? `ON ${point}` : "OFF",
    el("circle", { cx: 24, cy: 24, r: 22, class: on ? "puck on" : "puck off" }),
    text(24, 29, on ? "ON" : "OFF", { "text-anchor": "middle", class: "puck-text" }));
}
