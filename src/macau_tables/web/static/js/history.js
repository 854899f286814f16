// My history: at every table, the events the server lets me see that name me (my bets,
// their settlements, buy-ins and cash-outs), newest first, with the amounts they carry.
import { PATHS, get, mop, session } from "./api.js";
import { narrate } from "./words.js";

const body = document.querySelector("[data-history] tbody");

function row(cells) {
  const tr = document.createElement("tr");
  cells.forEach((c, i) => {
    const td = document.createElement("td");
    td.textContent = c;
    if (i === 3) td.className = "num";
    tr.append(td);
  });
  return tr;
}

function mentions(data, me) {
  return Object.values(data).some((v) => v === me || (Array.isArray(v) && v.includes(me)));
}

async function load() {
  const me = session.user;
  const rows = [];
  for (const t of await get(PATHS.tables)) {
    for (const e of await get(PATHS.events(t.id))) {
      // an event as GET /tables/{id}/events sends it: {seq, kind, version, data}
      const d = e.data || {};
      if (!mentions(d, me)) continue;
      const amount = d.net ?? d.amount ?? d.paid ?? d.stake ?? d.buy_in;
      rows.push([e.seq, t.id, narrate(e), typeof amount === "number" ? mop(amount) : ""]);
    }
  }
  rows.sort((a, b) => b[0] - a[0] || a[1].localeCompare(b[1]));
  body.replaceChildren(...rows.map(row));
}

if (session.user) load().catch((x) => body.append(row(["", "", x.message, ""])));
