import { PATHS, post, session } from "./api.js";

const form = document.querySelector("[data-login]");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const data = Object.fromEntries(new FormData(form));
  const err = form.querySelector("[data-error]");
  err.textContent = "";
  try {
    const r = await post(PATHS.login, data);
    session.save(r.token || r.access_token, data.username);
    location.href = new URLSearchParams(location.search).get("next") || "/";
  } catch (x) {
    err.textContent = x.message;
  }
});
