// The table server's HTTP API, in one place (see docs/server.md). Every request carries the
// bearer token of the session; every money-moving one an Idempotency-Key.

export const PATHS = {
  login: "/auth/login",
  me: "/me",
  tables: "/tables",
  table: (id) => `/tables/${encodeURIComponent(id)}`,
  commands: (id) => `/tables/${encodeURIComponent(id)}/commands`,
  socket: (id) => `/tables/${encodeURIComponent(id)}/ws`,
  deposit: "/cashier/deposit",
  withdraw: "/cashier/withdraw",
  history: "/me/history",
};

export const session = {
  get token() { return localStorage.getItem("mt.token") || ""; },
  get user() { return localStorage.getItem("mt.user") || ""; },
  save(token, user) { localStorage.setItem("mt.token", token); localStorage.setItem("mt.user", user); },
  clear() { localStorage.removeItem("mt.token"); localStorage.removeItem("mt.user"); },
};

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body && (body.error || body.detail || body.message);
    const text = typeof detail === "string" ? detail : JSON.stringify(detail || body);
    super(body && body.rule ? `${text} (${body.rule})` : text);
    this.status = status;
    this.body = body;
  }
}

export async function request(method, path, body, { idempotent = false } = {}) {
  const headers = { Accept: "application/json" };
  if (session.token) headers.Authorization = `Bearer ${session.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotent) headers["Idempotency-Key"] = crypto.randomUUID();
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = r.headers.get("content-type")?.includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new ApiError(r.status, typeof data === "string" ? { error: data } : data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body, opts) => request("POST", path, body, opts);

// One operation at a table: {op, args}, as the engines' contract names them.
export const command = (table, op, args = {}) => post(PATHS.commands(table), { op, args }, { idempotent: true });

// Money as the server sends it (integer minor units) for people: 1234500 -> "12,345.00".
export function money(minor, currency = "") {
  if (minor == null) return "—";
  const v = Number(minor) / 100;
  const s = v.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return currency ? `${s} ${currency}` : s;
}

export function strings() {
  return JSON.parse(document.getElementById("strings").textContent);
}
