// My history: every round I played, newest first, ten at a time (GET /ui/history, which the
// server sums up from its recall of each round: web/history.py) — my stake on each spot, its
// result and what it paid, the time, the round's cards, dice or tiles — with my wallet, my
// chips and my session's win or loss; and for each round the table's journal as I may export
// it, saved as a file that `macau-tables verify` checks. Staff (supervisors, auditors) read a
// player's history with ?player=NAME. Nothing is computed here but the words.
import { dateText, get, mop, session, strings } from "./api.js";
import { card, die, tile } from "./svg.js";

const S = strings();
const say = (key) => S[key] ?? key;
const $ = (sel) => document.querySelector(sel);
const enc = encodeURIComponent;
const params = new URLSearchParams(location.search);
const staff = ["supervisor", "auditor"].includes(session.role);
const player = staff ? params.get("player") || "" : session.user;
let older = null;

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text != null) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function fact(dl, term, value, data = {}) {
  const d = el("div");
  const dd = el("dd", value);
  Object.assign(dd.dataset, data);
  d.append(el("dt", term), dd);
  dl.append(d);
}

// won / lost / even, with the sign said in words and shown
function signed(avos) {
  if (avos > 0) return `${say("hi.won")} ${mop(avos)}`;
  if (avos < 0) return `${say("hi.lost")} ${mop(-avos)}`;
  return say("hi.even");
}

function account(m) {
  const dl = $("[data-account]");
  dl.replaceChildren();
  const chips = Object.values(m.stacks).reduce((a, b) => a + b, 0);
  fact(dl, S.wallet, mop(m.wallet), { wallet: m.wallet });
  for (const [table, avos] of Object.entries(m.stacks)) {
    fact(dl, `${S.stack}: ${table}`, mop(avos), { stack: table });
  }
  fact(dl, say("hi.balance"), mop(m.wallet + chips), { balance: m.wallet + chips });
  if (m.session_net != null) {
    const since = dateText(m.session_since, { time: true });
    fact(dl, `${say("hi.session")} (${say("hi.since")} ${since})`, signed(m.session_net), { session: m.session_net });
  }
}

const betName = (b) => {
  if (b.bet === "place") return say("hi.place_bet");
  if (b.bet === "bank") return say("banker_seat");
  return S[`ba.${b.bet}`] ?? S[`cr.${b.bet}`] ?? b.label ?? String(b.bet).replaceAll("_", " ");
};

function spotText(r, b) {
  if (b.spot == null) return "—";
  if (r.game === "baccarat") return `${say("hi.spot")} ${b.spot}`;
  if (r.game === "craps") return `${say("point")} ${b.spot}`;
  return `${say("seat")} ${b.spot}`;
}

function betsTable(r) {
  const table = el("table", null, "grid bets-table");
  table.append(el("caption", `${say("hi.my_bets")} · ${say("round")} ${r.round}`, "sr-only"));
  const head = el("tr");
  for (const [h, num] of [[say("hi.spot"), false], [S.bet, false], [S.staked, true], [S.result, false], [say("hi.paid"), true]]) {
    const th = el("th", h, num ? "num" : null);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  for (const b of r.bets) {
    const tr = el("tr");
    tr.dataset.result = b.result;
    const open = b.result === "in_play" || b.result === "stands";  // (nothing paid yet)
    const paid = open ? "—" : b.returned == null ? signed(b.net ?? 0) : mop(b.returned);
    tr.append(el("td", spotText(r, b)), el("td", betName(b)), el("td", b.stake == null ? "—" : mop(b.stake), "num"),
      el("td", S[`hres.${b.result}`] ?? b.result), el("td", paid, "num"));
    body.append(tr);
  }
  table.append(thead, body);
  return table;
}

function pieces(codes, draw, label) {
  const span = el("span", null, "pieces");
  span.setAttribute("role", "group");
  span.setAttribute("aria-label", label);
  for (const c of codes) span.append(draw(c));
  return span;
}

function outcome(r) {
  const o = r.outcome || {};
  const box = el("div", null, "outcome");
  if (o.kind === "cards" && o.hand != null) {
    for (const side of ["player", "banker"]) {
      const p = el("p", null, "hand");
      const name = `${S[`ba.${side}`]} ${o[`${side}_total`]}`;
      p.append(el("span", name, "hand-name"), pieces(o[side], (c) => card(c), `${name}: ${o[side].join(" ")}`));
      box.append(p);
    }
    const winner = { P: S["ba.player"], B: S["ba.banker"], T: S["ba.tie"] }[o.winner] ?? o.winner;
    box.append(el("p", `${say("hi.winner")}: ${winner}`));
  } else if (o.kind === "dice") {
    for (const t of o.throws) {
      const p = el("p", null, "hand");
      p.append(pieces(t.dice, (n) => die(n), `${S.dice}: ${t.dice.join(" · ")}`), el("span", ` = ${t.total}`));
      box.append(p);
    }
    const point = o.point_after ? `${S.point} ${o.point_after}` : say("dl.point_off");
    box.append(el("p", point));
  } else if (o.kind === "tiles") {
    if (o.dice?.length) {
      const p = el("p", null, "hand");
      p.append(el("span", `${S.dice}: `), pieces(o.dice, (n) => die(n), `${S.dice}: ${o.dice.join(" · ")}`));
      box.append(p);
    }
    for (const h of o.hands.filter((x) => x.mine || x.banker)) {
      const p = el("p", null, "hand");
      const who = [h.banker ? say("banker_seat") : null, h.mine ? say("hi.yours") : null].filter(Boolean).join(", ");
      const name = `${S.seat} ${h.seat} (${who})`;
      const tiles = (codes) => codes.map((c) => `${S[`tile.${c}`] ?? c} ${c}`).join(", ");
      p.append(el("span", name, "hand-name"),
        pieces(h.front, (c) => tile(c, S[`tile.${c}`] ?? c), `${S.front}: ${tiles(h.front)}`),
        pieces(h.back, (c) => tile(c, S[`tile.${c}`] ?? c), `${S.back}: ${tiles(h.back)}`));
      box.append(p);
    }
  }
  return box;
}

// The table's journal as I may export it (GET /tables/{id}/export: every entry of its chain,
// what I may not see as its hash only), saved as a file; the command that checks it, with the
// head the file's chain ends at.
async function exportRound(r, out) {
  const data = await get(`/tables/${enc(r.table_id)}/export`);
  const name = `${r.table_id}-round-${r.round}.json`;
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const a = el("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  const head = data.entries.length ? data.entries[data.entries.length - 1].hash : "";
  out.replaceChildren(
    el("span", `${say("hi.saved")} ${name}. ${say("hi.run")} `),
    el("code", `macau-tables verify ${name} --head ${head.slice(0, 16)}`),
    el("span", ` · ${say("hi.entries")} ${r.first_seq}–${r.last_seq}`),
  );
  out.querySelector("code").dataset.verifyCommand = "";
}

function roundArticle(r) {
  const a = el("article", null, "card history-round");
  a.dataset.round = `${r.table_id}:${r.round}`;
  a.dataset.status = r.status;
  a.dataset.net = r.net;
  const game = S[`game.${r.game}`] ?? r.game;
  a.append(el("h3", `${game} · ${r.table_id} · ${S.round} ${r.round}`));
  const when = `${dateText(r.started_at)} – ${dateText(r.ended_at, { time: true })}`;
  const state = S[`hi.status.${r.status.replace(" ", "_")}`] ?? r.status;
  a.append(el("p", `${when} · ${state}`, "muted"));
  a.append(outcome(r));
  if (r.bets.length) a.append(betsTable(r));
  const sum = el("p", r.status === "under way"
    ? `${S.staked} ${mop(r.staked)} · ${say("hres.in_play")}`
    : `${S.staked} ${mop(r.staked)} · ${say("hi.paid")} ${mop(r.returned)} · ${signed(r.net)}`, "round-net");
  a.append(sum);
  const verify = el("div", null, "row verify");
  const b = el("button", say("hi.export"));
  b.type = "button";
  b.dataset.export = `${r.table_id}:${r.round}`;
  const out = el("p", null, "muted");
  out.setAttribute("role", "status");
  b.addEventListener("click", () => exportRound(r, out).catch((x) => { out.textContent = x.message; }));
  verify.append(b, out);
  a.append(verify);
  return a;
}

async function load(before = null) {
  const query = new URLSearchParams();
  if (staff) query.set("player", player);
  if (before) query.set("before", before);
  const page = await get(query.size ? `/ui/history?${query}` : "/ui/history");
  if (!before) {
    account(page.money);
    $("[data-rounds]").replaceChildren();
  }
  $("[data-rounds]").append(...page.rounds.map(roundArticle));
  $("[data-rounds-count]").textContent = `${say("hi.count")}: ${page.total}`;
  $("[data-no-rounds]").hidden = page.total > 0;
  older = page.older;
  $("[data-older]").hidden = !older;
}

$("[data-older]").addEventListener("click", () => {
  load(older).catch((x) => { $("[data-error]").textContent = x.message; });
});

if (session.user) {
  if (session.role === "player" || (staff && player)) {
    $("[data-history]").hidden = false;
    if (staff) $("[data-history-title]").textContent = say("hi.of").replace("{who}", player);
    load().catch((x) => { $("[data-error]").textContent = x.message; });
  } else {
    $("[data-need-player]").hidden = false;
  }
}
