// A table of a game with no page of its own (a new engine, the server's test double): the
// view as the server sends it, and the action bar.
import { fact } from "./api.js";
import { LiveTable, actionBar, root, wire } from "./live.js";

const table = new LiveTable((view) => {
  const dl = root.querySelector("[data-view]");
  dl.replaceChildren();
  for (const [k, v] of Object.entries(view)) {
    fact(dl, k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)).dataset.key = k;
  }
  actionBar(table);
});
wire(table);
table.connect();
