// The fields of an operation's arguments, built from the names the server declares for it
// (the dealer's console: `args`, `keyin`; a correction: the engine's CORRECTABLE), so that
// nobody types JSON: dice as numbers 1-6, cards and tiles as their codes ("Td", "6-6"), a
// hand per seat, a tick for a cocked die or a new set of cards, a reason in words. The
// engine checks every value and its refusal is shown as it says it; nothing is decided here.
import { strings } from "./api.js";

const S = strings();
const say = (key) => S[key] ?? key;
let uid = 0;

function label(text, input) {
  const l = document.createElement("label");
  input.id ||= `fld-${++uid}`;
  l.htmlFor = input.id;
  l.textContent = text;
  return l;
}

function input(attrs = {}) {
  const i = document.createElement("input");
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) i.setAttribute(k, v);
  }
  i.autocomplete = "off";
  return i;
}

function pair(text, control) {
  const span = document.createElement("span");
  span.className = "field";
  if (control.type === "checkbox") span.append(control, label(text, control));
  else span.append(label(text, control), control);
  return span;
}

function numbers(count, prefix, values, { min = 1, max = 6 } = {}) {
  const boxes = [];
  for (let i = 0; i < count; i += 1) {
    const box = input({ type: "number", min, max, inputmode: "numeric", required: "", size: 2 });
    box.defaultValue = values?.[i] ?? "";
    box.dataset.die = "";
    boxes.push(pair(`${prefix} ${i + 1}`, box));
  }
  return boxes;
}

const words = (text) => String(text || "").trim().split(/[\s,]+/).filter(Boolean);

class FieldError extends Error {}

// One argument: its elements and a reader of its value (undefined: leave it out).
function widget(name, ctx) {
  const { game, op, value } = ctx;
  if (name === "dice") {
    const n = game === "craps" ? 2 : 4;  // CR-1: two dice; PG-1.2 / TW-2b: the banker's four
    const els = numbers(n, say("fld.die"), value);
    return {
      els,
      read: () => els.map((e) => {  // (the engine says which die cannot be: CR-1, PG-1.2)
        const v = Number(e.querySelector("input").value);
        if (!Number.isInteger(v)) throw new FieldError(say("fld.bad_die"));
        return v;
      }),
    };
  }
  if (name === "cocked") {
    const n = game === "craps" ? 2 : 1;
    const boxes = [];
    for (let i = 0; i < n; i += 1) {
      const b = input({ type: "checkbox" });
      b.defaultChecked = Array.isArray(value) ? Boolean(value[i]) : Boolean(value);
      boxes.push(pair(n > 1 ? `${say("fld.cocked_die")} ${i + 1}` : say("fld.cocked"), b));
    }
    return {
      els: boxes,
      read: () => {
        const v = boxes.map((e) => e.querySelector("input").checked);
        if (!v.some(Boolean)) return undefined;  // (the rules' default: no die cocked)
        return game === "craps" ? v : v[0];
      },
    };
  }
  if (name === "cards" && op === "deal") {  // BA-7.1: Player, Banker, Player, Banker
    const els = ["p1", "b1", "p2", "b2"].map((slot, i) => {
      const box = input({ size: 3, placeholder: "Td", required: "" });
      box.dataset.card = "";
      box.defaultValue = value?.[i] ?? "";
      return pair(say(`keyin_${slot}`), box);
    });
    return { els, read: () => els.map((e) => e.querySelector("input").value.trim()) };
  }
  if (name === "side") {  // BA-16: the side whose cards are turned over
    const box = document.createElement("select");
    for (const side of ["player", "banker"]) box.append(new Option(S[`ba.${side}`] ?? side, side));
    if (value) box.value = value;
    return { els: [pair(say("fld.side"), box)], read: () => box.value };
  }
  if (name === "front") {  // the two tiles of a hand's front (T-4)
    const box = input({ size: 8, placeholder: "6-6 1-1" });
    box.defaultValue = Array.isArray(value) ? value.join(" ") : "";
    return { els: [pair(S.front, box)], read: () => words(box.value) };
  }
  if (name === "cards" || name === "tiles") {  // a whole shoe's cards; a seat's tiles
    const box = input({ size: 30, placeholder: name === "cards" ? "Td 9h As …" : "6-6 1-1" });
    box.defaultValue = Array.isArray(value) ? value.join(" ") : "";
    return { els: [pair(say(`fld.${name}`), box)], read: () => words(box.value) };
  }
  if (name === "card" || name === "first_card") {
    const box = input({ size: 3, placeholder: "9h" });
    box.dataset.card = "";
    box.defaultValue = value ?? "";
    const required = name === "card" && op === "draw";
    if (required) box.required = true;
    const text = op === "draw" ? say("card") : `${say(`fld.${name}`)} (${say("fld.optional")})`;
    return {
      els: [pair(text, box)],
      read: () => {
        const v = box.value.trim();
        if (!v && required) throw new FieldError(say("fld.need_card"));
        return v || undefined;
      },
    };
  }
  if (name === "hands") {  // PG-1.4: every stack dealt, four tiles a seat
    const seats = ctx.seats?.length ? ctx.seats : [1, 2, 3, 4, 5, 6, 7, 8];
    const els = seats.map((seat) => {
      const box = input({ size: 18, placeholder: "6-6 1-1 4-5 2-3" });
      box.dataset.seat = seat;
      const had = value && (value[seat] ?? value[String(seat)]);
      box.defaultValue = Array.isArray(had) ? had.join(" ") : "";
      return pair(`${say("seat")} ${seat}`, box);
    });
    return {
      els,
      read: () => Object.fromEntries(els.map((e) => {
        const box = e.querySelector("input");
        return [box.dataset.seat, words(box.value)];
      }).filter(([, tiles]) => tiles.length)),
    };
  }
  if (name === "new_set") {
    const b = input({ type: "checkbox" });
    b.defaultChecked = Boolean(value);
    return { els: [pair(say("fld.new_set"), b)], read: () => (b.checked ? true : undefined) };
  }
  if (name === "count" || name === "from_end" || name === "seat") {
    const required = name !== "from_end";
    const box = input({ type: "number", min: name === "from_end" ? 0 : 1, inputmode: "numeric", size: 4 });
    if (required) box.required = true;
    box.defaultValue = value ?? "";
    const text = required ? say(`fld.${name}`) : `${say(`fld.${name}`)} (${say("fld.optional")})`;
    return {
      els: [pair(text, box)],
      read: () => {
        if (box.value.trim() === "") {
          if (required) throw new FieldError(`${say(`fld.${name}`)}?`);
          return undefined;
        }
        const v = Number(box.value);
        if (!Number.isInteger(v)) throw new FieldError(say("fld.bad_number"));
        return v;
      },
    };
  }
  // a reason, a description, or an argument this page has no special field for: words
  const box = input({ size: 30, maxlength: 500 });
  box.defaultValue = value ?? "";
  if (name === "reason" || name === "description") box.required = true;
  return {
    els: [pair(say(`fld.${name}`), box)],
    read: () => {
      const v = box.value.trim();
      if (!v && box.required) throw new FieldError(`${say(`fld.${name}`)}?`);
      return v || undefined;
    },
  };
}

// The form's fields for `names` (the declared arguments) and `read()`, which gives the
// arguments to send (or throws a FieldError with a message for people).
export function argumentFields(names, ctx = {}) {
  const parts = names.map((name) => [name, widget(name, { ...ctx, value: ctx.values?.[name] })]);
  return {
    elements: parts.flatMap(([, w]) => w.els),
    read() {
      const out = {};
      for (const [name, w] of parts) {
        const v = w.read();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
  };
}

export { FieldError };
