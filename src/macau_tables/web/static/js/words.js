// The words of the live pages: an operation's name, and what an event says, as a croupier
// would say it — each event kind's sentence in the page's language (i18n "ev.<kind>"), the
// amounts as money, no seeds or account names. "[ … {x} …]" is said only when the event
// has x.
import { mop, strings } from "./api.js";

const S = strings();
const say = (key) => S[key] ?? key;

// An operation's name for people (every engine operation has one in each language).
export function opName(op) {
  const key = `op.${op}`;
  return key in S ? S[key] : String(op).replaceAll("_", " ");
}

const AMOUNT_KEYS = ["amount", "stake", "capital", "buy_in"];

function person(who) {
  if (who == null) return null;
  const name = String(who).replace(/^player:/, "");
  return name === "house" || name === "dealer" || name === "system" ? say(`who.${name}`) : name;
}

function betName(bet) {
  for (const prefix of ["ba.", "cr."]) if (`${prefix}${bet}` in S) return S[`${prefix}${bet}`];
  return String(bet).replaceAll("_", " ");
}

export function narrate(ev) {
  const d = ev.data || {};
  const kind = String(ev.kind || "");
  const tail = kind.slice(kind.indexOf(".") + 1);
  const amount = AMOUNT_KEYS.map((k) => d[k]).find((v) => typeof v === "number");
  const dice = Array.isArray(d.dice) ? d.dice.join(" · ") : null;
  const fill = {
    who: person(d.player ?? d.to ?? d.holder ?? d.banker ?? d.actor ?? null),
    op: d.op == null ? null : opName(d.op),
    amount: amount == null ? null : mop(amount),
    bet: d.bet == null ? null : betName(d.bet),
    seat: typeof d.seat === "number" || typeof d.seat === "string" ? d.seat : null,
    dice,
    total: typeof d.total === "number" ? d.total : null,
  };
  let text = S[`ev.${tail}`];
  if (text == null) return tail.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
  text = text.replace(/\[([^\]]*)\]/g, (_, part) => {
    const names = [...part.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    return names.every((n) => fill[n] != null) ? part : "";
  });
  return text.replace(/\{(\w+)\}/g, (_, n) => (fill[n] == null ? "" : String(fill[n])));
}

