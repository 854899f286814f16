import { PATHS, post, session } from "./api.js";

const form = document.querySelector("[data-login]");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = form.querySelector("[data-error]");
  err.textContent = "";
  try {
    // the session as an HttpOnly cookie: the answer has no token for this page to keep
    const body = { name: form.username.value, password: form.password.value, session: "cookie" };
    session.save(await post(PATHS.login, body));
    const next = new URLSearchParams(location.search).get("next");
    location.href = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
  } catch (x) {
    err.textContent = x.message;
  }
});
