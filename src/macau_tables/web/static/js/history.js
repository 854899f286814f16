import { PATHS, get, money, session } from "./api.js";

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

if (session.token) {
  get(PATHS.history).then((items) => {
    for (const h of items.items || items) {
      body.append(row([h.at || h.time || "", h.table || "", h.memo || h.kind || "", money(h.net ?? h.amount)]));
    }
  }).catch((x) => body.append(row(["", "", x.message, ""])));
}
