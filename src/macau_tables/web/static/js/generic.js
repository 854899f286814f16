// A table of a game with no page of its own (a new engine, the server's test double): the
// view as the server sends it, and the action bar.
import { fact } from "./api.js";
import { LiveTable, actionBar, wire } from "./live.js";

export function mount(root) {
  const game = {
    render(view) {
      const dl = root.querySelector("[data-view]");
      dl.replaceChildren();
      for (const [k, v] of Object.entries(view)) {
        fact(dl, k, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)).dataset.key = k;
      }
      actionBar(table);
    },
  };
  const table = new LiveTable(root, game);
  wire(table);
  table.connect();
  return table;
}
