// The entry of the table pages: each live table of the page (one, or several side by side)
// is mounted by its game's module (baccarat, craps, tiles, or the generic page).
const MODULES = { baccarat: "./baccarat.js", craps: "./craps.js", tiles: "./tiles.js", generic: "./generic.js" };
const roots = [...document.querySelectorAll("[data-table]")];

// the side-by-side view: the page's title counts the tables that need me
const needs = new Map();
const title = document.title;
document.addEventListener("macau:needs", (e) => {
  needs.set(e.detail.table, e.detail.needs);
  if (roots.length < 2) return;
  const n = [...needs.values()].filter(Boolean).length;
  document.title = n ? `(${n}) ${title}` : title;
});

for (const root of roots) {
  const mod = await import(MODULES[root.dataset.page] || MODULES.generic);
  mod.mount(root);
}
