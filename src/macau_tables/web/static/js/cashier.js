import { PATHS, get, money, post, session } from "./api.js";

const form = document.querySelector("[data-cashier]");
const err = form.querySelector("[data-error]");
const shown = document.querySelector("[data-balance]");

async function refresh() {
  if (!session.token) return;
  const me = await get(PATHS.me);
  shown.textContent = money(me.balance, me.currency);
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  err.textContent = "";
  const op = e.submitter?.value || "deposit";
  const amount = Math.round(Number(form.amount.value) * 100);
  try {
    await post(op === "deposit" ? PATHS.deposit : PATHS.withdraw, { amount }, { idempotent: true });
    form.reset();
    await refresh();
  } catch (x) {
    err.textContent = x.message;
  }
});
refresh().catch((x) => { err.textContent = x.message; });
