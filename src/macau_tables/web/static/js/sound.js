// The table's sounds: a short chime when betting opens and a double one when it is my turn
// (WebAudio: no sound file). Muted or not is remembered in this browser (localStorage).
// Browsers start audio only after a gesture on the page: the first click or key opens it.
const KEY = "mt.mute";
let ctx = null;

export const muted = () => localStorage.getItem(KEY) === "1";

// the audio context, made at the page's first gesture (made before, the browser keeps it
// suspended and warns)
function audio() {
  if (ctx) return ctx;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  try { ctx = new Ctx(); } catch { ctx = null; }
  return ctx;
}

for (const ev of ["pointerdown", "keydown"]) {
  document.addEventListener(ev, () => { const a = audio(); if (a && a.state === "suspended") a.resume().catch(() => {}); },
    { capture: true });
}

// the sounds played, for the page's tests and a screen reader's user (a silent page
// still says so in its log)
export const played = [];

// "open": betting opens (one rising note); "turn": the rules wait for me (two notes)
export function beep(kind = "open") {
  if (muted()) return false;
  played.push(kind);
  const a = ctx;  // (none before a gesture: nothing is heard then)
  if (!a || a.state !== "running") return false;
  const notes = kind === "turn" ? [660, 880] : [523, 784];
  const t0 = a.currentTime + 0.02;
  notes.forEach((f, i) => {
    const osc = a.createOscillator();
    const gain = a.createGain();
    osc.type = "sine";
    osc.frequency.value = f;
    const at = t0 + i * 0.16;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    osc.connect(gain).connect(a.destination);
    osc.start(at);
    osc.stop(at + 0.15);
  });
  return true;
}

// a speaker, with its waves when the sound is on
function icon(on) {
  const NS = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(NS, "svg");
  s.setAttribute("viewBox", "0 0 20 20");
  s.setAttribute("width", "18");
  s.setAttribute("height", "18");
  s.setAttribute("aria-hidden", "true");
  s.setAttribute("focusable", "false");
  const path = (d, cls) => {
    const p = document.createElementNS(NS, "path");
    p.setAttribute("d", d);
    p.setAttribute("class", cls);
    s.append(p);
  };
  path("M3 7h3l4-4v14l-4-4H3z", "spk");
  if (on) path("M13 6.5a5 5 0 0 1 0 7M15.5 4a8.5 8.5 0 0 1 0 12", "wave");
  else path("M13 7l5 6M18 7l-5 6", "wave");
  return s;
}

function show(button) {
  button.setAttribute("aria-pressed", muted() ? "false" : "true");
  button.classList.toggle("off", muted());
  button.querySelector("svg")?.remove();
  button.prepend(icon(!muted()));
}

// the sound switch: a toggle button (aria-pressed: the sound is on)
export function soundButton(button) {
  if (!button) return;
  show(button);
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, muted() ? "0" : "1");
    for (const b of document.querySelectorAll("[data-mute]")) show(b);
    if (!muted()) beep("open");
  });
}
