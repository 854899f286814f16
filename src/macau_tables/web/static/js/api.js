// The table server's HTTP API, in one place (docs/server.md). Every request carries the
// session's bearer token; every money-moving one an Idempotency-Key.

export const PATHS = {
  login: "/auth/login",
  logout: "/auth/logout",
  me: "/me",
  wallet: "/wallet",
  tables: "/tables",
  table: (id) => `/tables/${encodeURIComponent(id)}`,
  view: (id) => `/tables/${encodeURIComponent(id)}/view`,
  events: (id, after = -1) => `/tables/${encodeURIComponent(id)}/events?after=${after}&limit=5000`,
  commands: (id) => `/tables/${encodeURIComponent(id)}/commands`,
  socket: (id) => `/tables/${encodeURIComponent(id)}/ws`,
  deposit: "/cashier/deposit",
  withdraw: "/cashier/withdraw",
  meters: "/meters",
  metersClose: "/meters/close",
};

export const session = {
  get token() { return localStorage.getItem("mt.token") || ""; },
  get user() { return localStorage.getItem("mt.user") || ""; },
  get role() { return localStorage.getItem("mt.role") || ""; },
  save(r) {
    localStorage.setItem("mt.token", r.token);
    localStorage.setItem("mt.user", r.name);
    localStorage.setItem("mt.role", r.role);
  },
  clear() { for (const k of ["mt.token", "mt.user", "mt.role"]) localStorage.removeItem(k); },
};

export class ApiError extends Error {
  constructor(status, body) {
    const text = body.message || body.error || body.detail || JSON.stringify(body);
    super(body.rule ? `${text} (${body.rule})` : text);
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
  const data = (r.headers.get("content-type") || "").includes("json") ? await r.json() : { error: await r.text() };
  if (r.status === 401 && session.token) session.clear();  // expired: log in again
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body, opts) => request("POST", path, body, opts);

// One operation at a table: {op, args}, as the engines' contract names them.
export const command = (table, op, args = {}) => post(PATHS.commands(table), { op, args }, { idempotent: true });

// Money as the server sends it (integer avos) for people: 1234500 -> "12,345.00".
export function money(minor) {
  if (minor == null || Number.isNaN(Number(minor))) return "—";
  return (Number(minor) / 100).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function strings() {
  return JSON.parse(document.getElementById("strings").textContent);
}

export function fact(dl, term, value) {
  const d = document.createElement("div");
  const dt = document.createElement("dt");
  const dd = document.createElement("dd");
  dt.textContent = term;
  dd.textContent = value ?? "—";
  d.append(dt, dd);
  dl.append(d);
  return dd;
}
