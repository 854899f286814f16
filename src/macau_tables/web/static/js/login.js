import { PATHS, post, session } from "./api.js";

const form = document.querySelector("[data-login]");
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const err = form.querySelector("[data-error]");
  err.textContent = "";
  try {
    session.save(await post(PATHS.login, { name: form.username.value, password: form.password.value }));
    const next = new URLSearchParams(location.search).get("next");
    location.href = next && next.startsWith("/") ? next : "/";
  } catch (x) {
    err.textContent = x.message;
  }
});
