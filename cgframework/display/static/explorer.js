// cgf explore: the page. Everything it shows comes from the JSON API of
// cgframework/display/server.py, or from the same calls answered in the browser (the page at
// try/: window.cgfBackend, cgframework in Pyodide); text goes in with textContent, only the
// back end's SVG pictures with innerHTML.
"use strict";

const $ = (id) => document.getElementById(id);
const OUTCOMES = {
  L: "L (Left wins)",
  R: "R (Right wins)",
  N: "N (the first player wins)",
  P: "P (the second player wins)",
  D: "D (a draw)",
};
const state = { ruleset: "", path: [], picks: [], part: null, seq: 0, node: null };

// The back end: GET /api/NAME?QUERY of cgframework/display/server.py, answered with JSON,
// unless the page brought another one that answers the same calls alike (window.cgfBackend:
// call(name, query, stale) resolves to {status, data}, or null for a call it dropped as
// stale; stop() stops the computation; links "#": the position travels in the address's
// fragment; calculator: it runs cgf calc and cgf solve).
const backend = window.cgfBackend || {
  async call(name, query) {
    const response = await fetch("/api/" + name + "?" + query);
    return { status: response.status, data: await response.json(), text: response.statusText };
  },
  links: "?",
};

// The one place the page talks to its back end. A busy back end (HTTP 202, or 503 with
// status "busy") is asked again until it answers, unless a newer navigation (seq) cancels
// the question: then the answer is null. Any other answer of 400 or more throws its error.
// While a call is out, the page says it is computing.
async function api(name, params, seq) {
  const query = new URLSearchParams(params).toString();
  const stale = () => seq !== undefined && seq !== state.seq;
  working(1);
  try {
    for (;;) {
      const answer = await backend.call(name, query, stale);
      if (answer === null || stale()) return null;
      const { status, data } = answer;
      const busy = (status === 202 || status === 503) && data.status === "busy";
      if (!busy) {
        if (status >= 400) throw new Error(data.error || answer.text || "HTTP " + status);
        return data;
      }
      await new Promise((done) => setTimeout(done, 300));
    }
  } finally {
    working(-1);
  }
}

let calls = 0;
function working(change) {
  calls += change;
  $("busy").hidden = calls === 0;
  $("stop").hidden = calls === 0 || !backend.stop;
}

// A solve: the server waits a second at most for its solver, then the page asks again.
function solved(name, params, seq) {
  return api(name, { ...params, wait: "1" }, seq);
}

function here() { return state.path[state.path.length - 1]; }
function params(step) {
  return { ruleset: state.ruleset, position: step.position, first: step.first || "L" };
}
function say(text) { $("message").textContent = text || ""; }
// A value as cgf solve --json gives it: a number, a text, or a long value's summary; where
// a loopy value cannot be had, why (``value_unknown``), never the outcome in its place.
function valueText(v, unknown) {
  if (v === null || v === undefined) return unknown ? "unknown: " + unknown : "";
  if (typeof v === "object") return (v.elided || "") + " (" + v.characters + " characters)";
  return String(v);
}

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function crumbs() {
  const nav = $("crumbs");
  nav.replaceChildren();
  state.path.forEach((step, i) => {
    if (i) nav.appendChild(element("span", "sep", "\u203a"));
    const last = i === state.path.length - 1;
    const label = i === 0 ? "start" : (step.player === "L" ? "Left " : "Right ") + step.move;
    const item = element(last ? "span" : "a", last ? "here" : "crumb", label);
    item.title = step.position;
    item.dataset.depth = String(i);
    if (!last) item.addEventListener("click", () => { state.path.length = i + 1; show(); });
    nav.appendChild(item);
  });
}

function card(option, side, node) {
  const box = element("div", "card option " + side);
  box.dataset.move = option.move;
  const picture = element("div", "picture");
  picture.innerHTML = option.svg || "";
  box.appendChild(picture);
  const points = option.points ? " (+" + option.points + ")" : "";
  box.appendChild(element("div", "move", option.move + points));
  box.appendChild(element("div", "value computing", "\u2026"));
  box.appendChild(element("div", "badges"));
  box.title = option.position;
  box.addEventListener("click", () => {
    const first = node.first ? (side === "left" ? "R" : "L") : undefined;
    go({ move: option.move, player: side === "left" ? "L" : "R", position: option.position, first });
  });
  return box;
}

function fillCard(box, option) {
  const value = box.querySelector(".value");
  value.className = "value";
  if (!("value" in option)) {
    value.textContent = "";
  } else if (option.status === "limit" || option.status === "error") {
    value.classList.add("limit");
    value.textContent = option.status === "limit" ? "too large (limit)" : "error";
    value.title = option.message || "";
  } else {
    value.textContent = valueText(option.value, option.value_unknown);
    value.title = option.outcome ? OUTCOMES[option.outcome] : "";
  }
  const badges = box.querySelector(".badges");
  badges.replaceChildren();
  for (const flag of ["dominated", "reversible"]) {
    if (option[flag]) {
      box.classList.add(flag);
      badges.appendChild(element("span", "badge " + flag, flag));
    }
  }
}

function pending(id, text) {
  const cell = $(id);
  cell.className = "computing";
  cell.textContent = text;
}

function fact(id, text, className) {
  const cell = $(id);
  cell.className = className || "";
  cell.textContent = text;
}

async function show() {
  const seq = ++state.seq;
  const step = here();
  state.picks = [];
  crumbs();
  say("");
  const url = new URLSearchParams({ ruleset: state.ruleset, position: state.path[0].position });
  history.replaceState(null, "", (backend.links || "?") + url.toString());
  let outline;
  try {
    outline = await api("outline", params(step), seq);
  } catch (error) {
    if (seq === state.seq) say(error.message);
    return;
  }
  if (outline === null || seq !== state.seq) return;
  state.node = outline;
  document.body.classList.toggle("clickable", outline.clickable);
  $("edit-label").style.display = outline.cell_states ? "" : "none";
  if (!outline.cell_states) setEditing(false);
  $("picture").innerHTML = outline.svg;
  if (outline.status === "limit") say(outline.message);
  fact("fact-position", outline.position);
  pending("fact-value", "computing\u2026");
  pending("fact-outcome", "computing\u2026");
  pending("fact-temperature", "");
  $("row-first").style.display = outline.first ? "" : "none";
  fact("fact-first", outline.first === "R" ? "Right" : "Left");
  $("thermograph").replaceChildren();
  for (const side of ["left", "right"]) {
    const list = $(side);
    list.replaceChildren(...outline[side].map((o) => card(o, side, outline)));
    const all = outline["more_" + side + "_exact"];
    if (!outline[side].length && all) list.appendChild(element("span", "none", "(none)"));
    const more = outline["more_" + side];
    if (!all) {
      list.appendChild(element("span", "more", more ? "and at least " + more + " more" : "and more"));
    } else if (more) {
      list.appendChild(element("span", "more", "and " + more + " more"));
    }
  }
  const many = outline.components.length > 1 || outline.position.includes(" + ");
  $("components-section").classList.toggle("shown", many);
  $("components").replaceChildren(...outline.components.map((c) => {
    const box = element("div", "card component");
    const picture = element("div", "picture");
    picture.innerHTML = c.svg || "";
    box.append(picture, element("div", "move", c.position), element("div", "value computing", "\u2026"));
    return box;
  }));
  try {
    const outcome = await solved("outcome", params(step), seq);
    if (outcome === null) return;
    if (outcome.status === "ok") fact("fact-outcome", OUTCOMES[outcome.outcome] || "-");
    else fact("fact-outcome", outcome.status === "limit" ? "too large (limit)" : "error", "limit");
    const node = await solved("node", params(step), seq);
    if (node === null) return;
    showValues(node);
  } catch (error) {
    if (seq !== state.seq) return;
    say(error.message);
    for (const id of ["fact-value", "fact-outcome"]) {
      if ($(id).className === "computing") fact(id, "not answered", "limit");
    }
  }
}

function showValues(node) {
  if (node.status === "ok" || node.value !== null) {
    fact("fact-value", valueText(node.value, node.value_unknown) || "-");
    fact("fact-outcome", OUTCOMES[node.outcome] || "-");
  } else {
    if (node.outcome) fact("fact-outcome", OUTCOMES[node.outcome] || node.outcome);
    fact("fact-value", node.status === "limit" ? "too large (limit)" : "error", "limit");
    $("fact-value").title = node.message || "";
  }
  if (node.status !== "ok") say(node.message || "");
  $("row-temperature").style.display = node.temperature !== undefined ? "" : "none";
  fact("fact-temperature", valueText(node.temperature));
  if (node.thermograph) $("thermograph").innerHTML = node.thermograph;
  for (const side of ["left", "right"]) {
    const cards = $(side).querySelectorAll(".option");
    node[side].forEach((option, i) => { if (cards[i]) fillCard(cards[i], option); });
  }
  const boxes = $("components").querySelectorAll(".component .value");
  node.components.forEach((c, i) => {
    if (!boxes[i]) return;
    boxes[i].className = "value";
    boxes[i].textContent = "value" in c ? valueText(c.value) : "";
  });
}

function go(step) {
  state.path.push(step);
  show();
}

function start(ruleset, position) {
  state.ruleset = ruleset;
  state.path = [{ position, first: "L" }];
  show();
}

// ---- clicks on the board ---------------------------------------------------------------------
function pickOf(target) {
  const item = target.closest("[data-cell],[data-vertex],[data-edge]");
  if (!item) return null;
  const part = target.closest("[data-part]");
  let pick;
  if (item.dataset.cell !== undefined) pick = "cell:" + item.dataset.cell;
  else if (item.dataset.vertex !== undefined) pick = "vertex:" + item.dataset.vertex;
  else pick = "edge:" + item.dataset.edge;
  return { pick, part: part ? part.dataset.part : null, item };
}

function clearPicks() {
  state.picks = [];
  for (const e of $("picture").querySelectorAll(".picked")) e.classList.remove("picked");
}

async function onBoardClick(event) {
  const found = pickOf(event.target);
  if (!found || !state.node) return;
  const step = here();
  if (document.body.classList.contains("editing")) {
    if (!found.pick.startsWith("cell:")) return;
    const query = { ruleset: state.ruleset, position: step.position, op: "cell", cell: found.pick.slice(5) };
    if (found.part !== null) query.part = found.part;
    return edit(query);
  }
  if (!state.node.clickable) { say("this ruleset takes no clicks on its picture"); return; }
  if (state.picks.length && found.part !== state.part) clearPicks();
  state.part = found.part;
  state.picks.push(found.pick);
  found.item.classList.add("picked");
  const query = { ruleset: state.ruleset, position: step.position, picks: state.picks.join(";") };
  if (found.part !== null) query.part = found.part;
  const player = $("click-player").value;
  if (player) query.player = player;
  try {
    const data = await api("move_at", query);
    if (data.status === "move") {
      const first = state.node.first ? (data.player === "L" ? "R" : "L") : undefined;
      go({ move: data.move, player: data.player, position: data.position, first });
    } else if (data.status === "more") {
      say("picked " + state.picks.join(", ") + ": pick again to finish the move");
    } else {
      clearPicks();
      say("no move there");
    }
  } catch (error) {
    clearPicks();
    say(error.message);
  }
}

async function edit(query) {
  try {
    const data = await api("edit", query);
    $("position").value = data.position;
    start(state.ruleset, data.position);
  } catch (error) {
    say(error.message);
  }
}

function setEditing(on) {
  $("edit").checked = on;
  document.body.classList.toggle("editing", on);
}

// The position a link names: ?ruleset=R&position=P, or #ruleset=R&position=P on a page whose
// links carry it in the fragment (a static page: try/#ruleset=domineering&position=..|..).
function linked() {
  const hash = location.hash.slice(1);
  const query = new URLSearchParams(hash.includes("=") ? hash : location.search);
  return { ruleset: query.get("ruleset"), position: query.get("position") || "" };
}

// ---- the calculator (back ends that run cgf calc and cgf solve) -------------------------------
async function runCommand(args) {
  $("calc-command").textContent = "";
  $("calc-error").textContent = "";
  $("calc-output").className = "computing";
  $("calc-output").textContent = "computing\u2026";
  delete $("calc-output").dataset.exit;
  try {
    const data = await api("cgf", { args: JSON.stringify(args) });
    $("calc-command").textContent = "$ " + data.command;
    $("calc-output").className = "";
    $("calc-output").textContent = data.stdout;
    $("calc-error").textContent = data.stderr.trim();
    $("calc-output").dataset.exit = String(data.exit);
  } catch (error) {
    $("calc-output").className = "";
    $("calc-output").textContent = "";
    $("calc-error").textContent = error.message;
    $("calc-output").dataset.exit = "";
  }
}

function setUpCalculator(rulesets) {
  $("calculator").hidden = false;
  for (const r of rulesets) {
    const option = element("option", "", r.name);
    option.value = r.name;
    if (r.examples.length) option.dataset.example = r.examples[0];
    $("solve-ruleset").appendChild(option);
  }
  const example = () => {
    const chosen = $("solve-ruleset").selectedOptions[0];
    $("solve-position").value = (chosen && chosen.dataset.example) || "";
  };
  $("solve-ruleset").value = "domineering";
  example();
  $("solve-ruleset").addEventListener("change", example);
  $("calc-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runCommand(["calc", $("calc-expression").value]);
  });
  $("solve-form").addEventListener("submit", (event) => {
    event.preventDefault();
    runCommand(["solve", $("solve-ruleset").value, $("solve-position").value]);
  });
}

async function init() {
  let { ruleset, position } = linked();
  ruleset = ruleset || "domineering";
  $("position").value = position;
  $("picture").addEventListener("click", onBoardClick);
  $("edit").addEventListener("change", () => setEditing($("edit").checked));
  for (const button of document.querySelectorAll("#edit-buttons button")) {
    button.addEventListener("click", () => edit({
      ruleset: state.ruleset, position: here().position, op: button.dataset.op,
    }));
  }
  $("go-form").addEventListener("submit", (event) => {
    event.preventDefault();
    start($("ruleset").value, $("position").value);
  });
  $("ruleset").addEventListener("change", () => {
    const chosen = $("ruleset").selectedOptions[0];
    if (chosen && chosen.dataset.example) $("position").value = chosen.dataset.example;
  });
  $("stop").addEventListener("click", () => backend.stop());
  if (backend.onstatus) {
    // the back end's own news (Python loading...): "" takes back its last one, if still shown
    backend.onstatus((text, before) => {
      if (text || $("message").textContent === before) say(text);
    });
  }
  try {
    const data = await api("rulesets", {});
    for (const r of data) {
      const option = element("option", "", r.name);
      option.value = r.name;
      option.title = r.syntax;
      if (r.examples.length) option.dataset.example = r.examples[0];
      $("ruleset").appendChild(option);
    }
    if (backend.calculator) setUpCalculator(data);
  } catch (error) {
    say(error.message);
  }
  $("ruleset").value = ruleset;
  if (position) start(ruleset, position);
  if (backend.links === "#") {
    window.addEventListener("hashchange", () => {
      const link = linked();
      if (!link.ruleset) return;
      $("ruleset").value = link.ruleset;
      $("position").value = link.position;
      start(link.ruleset, link.position);
    });
  }
}

document.addEventListener("DOMContentLoaded", init);
