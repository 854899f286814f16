// The cashier: a player sees his wallet and his chips at each table (the ledger's balances);
// the cashier deposits into and withdraws from a player's wallet through the cage.
import { PATHS, fact, get, money, post, session, strings } from "./api.js";

const S = strings();
const form = document.querySelector("[data-cashier]");
const wallet = document.querySelector("[data-wallet]");

async function showWallet() {
  if (!session.user || session.role !== "player") return;
  const w = await get(PATHS.wallet);
  wallet.replaceChildren();
  fact(wallet, S.balance, money(w.wallet)).dataset.balance = w.wallet;
  for (const [account, avos] of Object.entries(w.stacks)) fact(wallet, account.split(":")[1], money(avos));
}

if (session.role === "cashier") {
  form.hidden = false;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = form.querySelector("[data-error]");
    const done = form.querySelector("[data-done]");
    err.textContent = done.textContent = "";
    const op = e.submitter?.value || "deposit";
    const [whole, cents = ""] = form.amount.value.split(".");
    const amount = Number(whole) * 100 + Number((cents + "00").slice(0, 2));
    try {
      const r = await post(op === "deposit" ? PATHS.deposit : PATHS.withdraw,
        { player: form.player.value, amount }, { idempotent: true });
      done.textContent = `${r.account}: ${money(r.balance)}`;
      form.amount.value = "";
    } catch (x) {
      err.textContent = x.message;
    }
  });
}
showWallet().catch((x) => fact(wallet, "error", x.message));
