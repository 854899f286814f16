// Every page: who is logged in, log out, the toast line.
import { PATHS, post, session } from "./api.js";

const out = document.querySelector('[data-auth="out"]');
const inn = document.querySelector('[data-auth="in"]');
if (session.user) {
  out.hidden = true;
  inn.hidden = false;
  inn.querySelector("[data-who]").textContent = `${session.user} (${session.role})`;
}
document.querySelector("[data-logout]")?.addEventListener("click", async () => {
  try { await post(PATHS.logout); } catch { /* an expired token is logged out anyway */ }
  session.clear();
  location.href = "/login";
});
for (const p of document.querySelectorAll("[data-need-login]")) p.hidden = Boolean(session.user);

export function toast(message) {
  const t = document.querySelector("[data-toast]");
  t.textContent = message;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.textContent = ""; }, 6000);
}
// the links of the roles' own pages: each shown to the roles it names only
for (const li of document.querySelectorAll("[data-roles]")) {
  li.hidden = !session.user || !li.dataset.roles.split(" ").includes(session.role);
}
