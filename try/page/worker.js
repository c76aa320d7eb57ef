// cgframework's Python, in a Web Worker of the page at try/ (pyodide-backend.js starts it):
// Pyodide from ./pyodide/, the wheels listed in ./wheels/index.json unpacked into its
// site-packages (cgframework and its runtime dependencies, pure Python), then each message
// {id, name, query} answered as cgf explore's server would answer GET /api/NAME?QUERY, by
// cgframework.cli.browser.call: {kind: "answer", id, status, body}. Before it computes,
// the worker says what limit the call runs under ({kind: "started", id, limits}): the page
// stops a worker that runs past it. Everything comes from this site: no other host is asked.
"use strict";

importScripts("pyodide/pyodide.js");

let browser = null;

function post(message) {
  self.postMessage(message);
}

// Pyodide (0.29) reports a WebAssembly module it cannot load (missing, cut short, out of
// memory) on the console only, and its loadPyodide() then never settles: say it, with the
// reason it warns next.
const warn = console.warn.bind(console);
let wasmFailed = false;
let wasmReason = "";
console.warn = (...args) => {
  warn(...args);
  if (wasmFailed && !wasmReason) {
    wasmReason = String(args[0]);
  } else if (String(args[0]).startsWith("wasm instantiation failed")) {
    wasmFailed = true;
    setTimeout(() => {
      const why = wasmReason || "its WebAssembly module could not be loaded";
      post({ kind: "failed", text: "Python did not start: " + why });
    }, 0);
  }
};

async function fetched(path) {
  const response = await fetch(path);
  if (!response.ok) throw new Error("cannot load " + path + ": HTTP " + response.status);
  return response;
}

async function boot() {
  const began = performance.now();
  const phases = {};
  const lap = (name) => { phases[name] = (performance.now() - began) / 1000; };
  post({ kind: "progress", text: "Loading Python (Pyodide)\u2026" });
  // the wheels download while Pyodide loads and starts (its WebAssembly compiled, Python up)
  const wheelsFetched = fetched("wheels/index.json")
    .then((r) => r.json())
    .then((names) => Promise.all(
      names.map(async (name) => new Uint8Array(await (await fetched("wheels/" + name)).arrayBuffer())),
    ));
  wheelsFetched.catch(() => {}); // (awaited below: a failure is reported there)
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", self.location.href).href,
    stdout: () => {},
    stderr: () => {},
  });
  lap("pyodide");
  post({ kind: "progress", text: "Installing cgframework\u2026" });
  for (const bytes of await wheelsFetched) pyodide.unpackArchive(bytes, "wheel");
  pyodide.runPython("import importlib; importlib.invalidate_caches()");
  lap("wheels");
  browser = pyodide.pyimport("cgframework.cli.browser");
  const about = browser.limits().toJs({ dict_converter: Object.fromEntries });
  lap("import");
  post({ kind: "ready", about, seconds: (performance.now() - began) / 1000, phases });
}

const booted = boot().catch((error) => {
  post({ kind: "failed", text: "Python did not start: " + error.message });
  throw error;
});

self.onmessage = async (event) => {
  const { id, name, query } = event.data;
  await booted;
  const limits = browser.limits_of(name, query).toJs({ dict_converter: Object.fromEntries });
  post({ kind: "started", id, limits });
  let status, body;
  try {
    const answer = browser.call(name, query);
    [status, body] = answer.toJs();
    answer.destroy();
  } catch (error) {  // a bug of the bridge: still one line
    status = 500;
    body = JSON.stringify({ error: "internal error: " + String(error.message).split("\n").slice(-2).join(" ") });
  }
  post({ kind: "answer", id, status, body });
};
