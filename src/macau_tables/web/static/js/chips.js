// Chips drawn as a casino stacks them: an amount (avos) broken into the house's chip values,
// largest first, drawn as a stack of discs coloured by value (mine, the draft not yet
// placed — dashed —, and the other players' bets on a spot, smaller and grey-edged).
import { el } from "./svg.js";

// the chip values, in MOP, and their colours (as Macau's plaques and chips run)
export const VALUES = [10000, 5000, 1000, 500, 100, 50, 25, 10, 5, 1];
const COLOUR = {
  1: "#f4f1e8", 5: "#b3121b", 10: "#0b4fa8", 25: "#1d7a46", 50: "#c25e00",
  100: "#1b1b1b", 500: "#5b2d82", 1000: "#d4a017", 5000: "#7a4a1e", 10000: "#2f5d73",
};

export function colourOf(mop) {
  return COLOUR[mop] || "#444";
}

// An amount broken into chips (MOP values), largest first; the remainder under MOP 1 (avos)
// left out of the drawing (the amount's words say it).
export function breakdown(avos) {
  let left = Math.floor(Number(avos) / 100);
  const out = [];
  for (const v of VALUES) {
    while (left >= v && out.length < 40) { out.push(v); left -= v; }
  }
  return out;
}

const MAX_DRAWN = 6;

// A stack of chips for an amount: at most MAX_DRAWN discs (the largest values), bottom up.
export function chipStack(avos, { kind = "mine", size = 26 } = {}) {
  const chips = breakdown(avos).slice(0, MAX_DRAWN).reverse();
  const r = size / 2;
  const step = Math.max(3, Math.round(size / 7));
  const h = size * 0.62 + step * Math.max(0, chips.length - 1) + 2;
  const s = el("svg", { viewBox: `0 0 ${size + 2} ${h}`, width: size + 2, height: h, "aria-hidden": "true",
    focusable: "false", class: `chip-stack ${kind}` });
  chips.forEach((v, i) => {
    const cy = h - size * 0.31 - 1 - i * step;
    const g = el("g", {});
    g.append(el("ellipse", { cx: r + 1, cy: cy + 1.5, rx: r, ry: size * 0.3, class: "chip-edge" }));
    g.append(el("ellipse", { cx: r + 1, cy, rx: r, ry: size * 0.3, fill: colourOf(v), class: "chip-top" }));
    g.append(el("ellipse", { cx: r + 1, cy, rx: r * 0.62, ry: size * 0.18, class: "chip-inlay" }));
    s.append(g);
  });
  return s;
}

// One chip of the rail (its face, with its value).
export function chipFace(mop, size = 44) {
  const r = size / 2;
  const s = el("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true",
    focusable: "false", class: "chip-face" });
  s.append(el("circle", { cx: r, cy: r, r: r - 1, fill: colourOf(mop), class: "chip-rim" }));
  for (let i = 0; i < 8; i += 1) {
    const a = (i * Math.PI) / 4;
    s.append(el("rect", { x: r - 2.5, y: 1, width: 5, height: 7, class: "chip-notch",
      transform: `rotate(${(a * 180) / Math.PI} ${r} ${r})` }));
  }
  s.append(el("circle", { cx: r, cy: r, r: r * 0.66, class: "chip-centre" }));
  return s;
}
