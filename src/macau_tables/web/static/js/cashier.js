// The cashier: a player sees his wallet and his chips at each table (the ledger's balances);
// the cashier deposits into and withdraws from a player's wallet through the cage.
import { PATHS, amountOf, fact, get, mop, post, session, strings } from "./api.js";

const S = strings();
const form = document.querySelector("[data-cashier]");
const wallet = document.querySelector("[data-wallet]");

async function showWallet() {
  if (!session.user || session.role !== "player") return;
  const w = await get(PATHS.wallet);
  wallet.replaceChildren();
  fact(wallet, S.wallet, mop(w.wallet)).dataset.balance = w.wallet;
  // my chips at each table: the ledger's stack:TABLE:NAME, said as the table's name
  for (const [account, avos] of Object.entries(w.stacks)) {
    fact(wallet, `${S.stack}: ${account.split(":")[1]}`, mop(avos)).dataset.stack = account.split(":")[1];
  }
}

if (session.role === "cashier") {
  form.hidden = false;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const err = form.querySelector("[data-error]");
    const done = form.querySelector("[data-done]");
    err.textContent = done.textContent = "";
    const op = e.submitter?.value || "deposit";
    const amount = amountOf(form.amount.value);
    if (amount == null) { err.textContent = S.bad_amount; form.amount.focus(); return; }
    try {
      const r = await post(op === "deposit" ? PATHS.deposit : PATHS.withdraw,
        { player: form.player.value, amount }, { idempotent: true });
      // (the ledger's account "player:NAME" is the player's wallet: his name is said)
      done.textContent = `${form.player.value} · ${S.balance}: ${mop(r.balance)}`;
      done.dataset.balance = r.balance;
      form.amount.value = "";
    } catch (x) {
      err.textContent = x.message;
    }
  });
}
if (session.role === "player") showWallet().catch((x) => fact(wallet, S.balance, x.message));
else wallet.closest("section").hidden = true;  // (only a player has a wallet)
