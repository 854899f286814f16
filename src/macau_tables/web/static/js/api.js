// The table server's HTTP API, in one place (docs/server.md). The session is the server's
// HttpOnly cookie, set at login (this script never sees the token); every request but a
// GET sends the CSRF cookie's value back in X-CSRF-Token; every money-moving one an
// Idempotency-Key. Only who is logged in (name, role) is kept here, for the pages.

export const PATHS = {
  login: "/auth/login",
  logout: "/auth/logout",
  me: "/me",
  wallet: "/wallet",
  tables: "/tables",
  board: "/ui/tables",  // the lobby's public board (logged out)
  table: (id) => `/tables/${encodeURIComponent(id)}`,
  view: (id) => `/tables/${encodeURIComponent(id)}/view`,
  events: (id, after = -1) => `/tables/${encodeURIComponent(id)}/events?after=${after}&limit=5000`,
  commands: (id) => `/tables/${encodeURIComponent(id)}/commands`,
  socket: (id, lastSeq) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = lastSeq == null ? "" : `?last_seq=${lastSeq}`;
    return `${scheme}://${location.host}/tables/${encodeURIComponent(id)}/ws${query}`;
  },
  deposit: "/cashier/deposit",
  withdraw: "/cashier/withdraw",
  meters: "/meters",
  metersClose: "/meters/close",
};

export const session = {
  get user() { return localStorage.getItem("mt.user") || ""; },
  get role() { return localStorage.getItem("mt.role") || ""; },
  save(r) {  // (the login's answer: its token stays in the HttpOnly cookie, not here)
    localStorage.setItem("mt.user", r.name);
    localStorage.setItem("mt.role", r.role);
  },
  clear() { for (const k of ["mt.token", "mt.user", "mt.role"]) localStorage.removeItem(k); },
};

// What each role may call, as the server's permissions say (server/auth.py, PERMISSIONS):
// a page calls only what its user's role may, so that no request is refused with a 403.
const MAY = {
  wallet: ["player"],                              // wallet.read
  command: ["player", "dealer", "supervisor"],     // tables.command
  dealerConsole: ["dealer", "supervisor"],         // dealer.console
  recallPlayer: ["player", "supervisor", "auditor"],  // recall.player
  recallTable: ["dealer", "supervisor", "auditor"],   // recall.table
  meters: ["supervisor", "auditor"],
  supervise: ["supervisor"],
  readSupervisor: ["supervisor", "auditor"],
  cashier: ["cashier"],
};
export const may = (what) => Boolean(session.user) && (MAY[what] || []).includes(session.role);

function cookie(name) {
  const found = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

export class ApiError extends Error {
  constructor(status, body) {
    const detail = Array.isArray(body.detail) ? body.detail.map((d) => d.msg).join("; ") : body.detail;
    const said = body.message || body.error || detail;
    const text = plainMessage(typeof said === "string" ? said : strings().refused);
    super(body.rule ? `${text} (${body.rule})` : text);
    this.status = status;
    this.body = body;
  }
}

export async function request(method, path, body, { idempotent = false } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRF-Token"] = cookie("mt_csrf");
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (idempotent) headers["Idempotency-Key"] = crypto.randomUUID();
  const r = await fetch(path, {
    method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (r.headers.get("content-type") || "").includes("json") ? await r.json() : { error: await r.text() };
  if (r.status === 401 && session.user) session.clear();  // expired: log in again
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body, opts) => request("POST", path, body, opts);

// One operation at a table: {op, args}, as the engines' contract names them.
export const command = (table, op, args = {}) => post(PATHS.commands(table), { op, args }, { idempotent: true });

// The page's language: "en", "zh" or "pt" (from <html lang>: en, zh-Hant, pt-PT).
export function pageLang() {
  const l = document.documentElement.lang;
  return l.startsWith("zh") ? "zh" : l.startsWith("pt") ? "pt" : "en";
}

// A number written the English way ("1,234.50", "-1.0579%") as the page's language writes
// it: Portuguese (pt-PT) groups with a dot and has a decimal comma ("1.234,50"). (Swapped by
// hand, not Intl.NumberFormat("pt-PT"), which does not group four-digit numbers: "1234,50".)
export function decimal(text) {
  if (text == null) return text;
  const s = String(text);
  return pageLang() === "pt" ? s.replace(/[.,]/g, (c) => (c === "." ? "," : ".")) : s;
}

// Money as the server sends it (integer avos) for people: 1234500 -> "12,345.00" (English
// and Chinese), "12.345,00" (Portuguese).
export function money(minor) {
  if (minor == null || Number.isNaN(Number(minor))) return "—";
  return decimal((Number(minor) / 100).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
}

// A date and time from the server (ISO text or epoch ms) as the page's language writes them.
export function dateText(at, { time = false } = {}) {
  const d = new Date(at);
  const locale = document.documentElement.lang || "en";
  return time ? d.toLocaleTimeString(locale) : d.toLocaleString(locale);
}

// An amount typed in MOP ("100", "25.5", "1,000.00"; in Portuguese also "25,50",
// "1.000,00") in avos; null if it is not one (the page says so and sends nothing).
export function amountOf(text) {
  let t = String(text ?? "").trim();
  if (pageLang() === "pt" && /,\d{1,2}$/.test(t)) t = t.replaceAll(".", "").replace(",", ".");
  t = t.replaceAll(",", "");
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(t)) return null;
  const [whole, cents = ""] = t.split(".");
  const n = Number(whole) * 100 + Number((cents + "00").slice(0, 2));
  return n > 0 ? n : null;
}

// Money with its currency, one way in each language: "MOP 1,234.50" / "澳門元 1,234.50" /
// "MOP 1.234,50".
export function mop(minor) {
  if (minor == null || Number.isNaN(Number(minor))) return "—";
  return `${pageLang() === "zh" ? "澳門元" : "MOP"} ${money(minor)}`;
}

// A server's message for people: its amounts in the page's one money format ("MOP
// 20000.00", "MOP$5,000.00" -> "MOP 20,000.00"), and no ledger account names: my own
// wallet and chips are "your wallet" / "your chips", another's wallet its owner's name.
export function plainMessage(text) {
  const S = strings();
  const me = session.user;
  return String(text)
    .replace(/MOP\$?\s?(-?[\d,]+(?:\.\d{1,2})?)/g, (_, n) => mop(Math.round(Number(n.replaceAll(",", "")) * 100)))
    .replace(/\bstack:[^\s:]+:([^\s,;.)]+)/g, (_, who) => (who === me ? S.your_chips : who))
    .replace(/\bplayer:([^\s,;.)]+)/g, (_, who) => (who === me ? S.your_wallet : who));
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
