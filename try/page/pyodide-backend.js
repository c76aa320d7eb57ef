// The explorer's back end on the page at try/ (window.cgfBackend, read by explorer.js): the
// calls cgf explore's page makes to its server, answered by cgframework's Python running in
// a Web Worker (worker.js), so that the page stays responsive while it computes.
//
// One call at a time, in order; a call its page no longer wants (stale) is dropped before it
// starts. As cgf explore's server does with its worker processes, a call that runs past its
// limit (the node's deadline plus a grace, or the calculator's --timeout) has its worker
// stopped and another one started: the answer says which limit stopped it. Stop does the
// same for the call at work and drops the waiting ones.
"use strict";

(function () {
  let worker = null;
  let ready = false;
  let about = null;
  let waiting = []; // calls not yet sent: {id, name, query, stale, done}
  let current = null; // the call the worker has
  let timer = null;
  let nextId = 1;
  let report = () => {};
  let everReady = false;
  let failed = null;
  let said = "";

  // What the page's status line says about Python (starting, stopped, failed); "" takes
  // back what was said, unless the page has said something else since.
  function status(text) {
    report(text, said);
    said = text;
  }

  function start() {
    ready = false;
    failed = null;
    document.documentElement.dataset.python = "loading";
    worker = new Worker("worker.js");
    worker.onmessage = (event) => receive(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      fail("Python stopped: " + (event.message || "its worker failed"));
    };
  }

  // Python did not start (a file missing, a browser without WebAssembly): every call fails
  // with the reason (the page says it).
  function fail(text) {
    document.documentElement.dataset.python = "failed";
    failed = new Error(text);
    status(text);
    const calls = waiting.splice(0);
    if (current) calls.unshift(current);
    finish();
    for (const call of calls) call.fail(failed);
  }

  function receive(message) {
    if (message.kind === "progress") {
      if (!everReady) status(message.text);
    } else if (message.kind === "failed") {
      fail(message.text);
    } else if (message.kind === "ready") {
      ready = true;
      if (!everReady) {
        document.documentElement.dataset.readyMs = String(Math.round(performance.now()));
        document.documentElement.dataset.phases = JSON.stringify(message.phases);
        keepOffline();
      }
      everReady = true;
      about = message.about;
      document.documentElement.dataset.python = "ready";
      document.documentElement.dataset.bootSeconds = message.seconds.toFixed(2);
      status("");
      next();
    } else if (message.kind === "started" && current && current.id === message.id) {
      current.began = performance.now();
      current.limits = message.limits;
      if (message.limits.deadline !== undefined && message.limits.deadline !== null) {
        timer = setTimeout(pastDeadline, message.limits.deadline * 1000);
      }
    } else if (message.kind === "answer" && current && current.id === message.id) {
      const call = current;
      finish();
      call.done({ status: message.status, data: JSON.parse(message.body) });
      next();
    }
  }

  function finish() {
    clearTimeout(timer);
    timer = null;
    current = null;
  }

  function next() {
    if (!ready || current) return;
    while (waiting.length) {
      const call = waiting.shift();
      if (call.stale && call.stale()) {
        call.done(null);
        continue;
      }
      current = call;
      worker.postMessage({ id: call.id, name: call.name, query: call.query });
      return;
    }
  }

  // Once Python has started (its files are in the browser's cache by then), the service
  // worker keeps them for a reload or a restart without the network (sw.js). A page served
  // over plain HTTP from another host than this machine has none: it works while it is open.
  function keepOffline() {
    if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register("sw.js")
      .then(() => navigator.serviceWorker.ready)
      .then(() => { document.documentElement.dataset.offline = "ready"; })
      .catch(() => {});
  }

  // Stop the worker (it cannot be interrupted: Pyodide's interrupt buffer needs a
  // SharedArrayBuffer, which a plain static host does not allow) and start another one.
  function restart() {
    finish();
    worker.terminate();
    start();
  }

  // A call past its limit: the answer cgf explore's server gives when it kills its worker.
  function pastDeadline() {
    const call = current;
    const spent = ((performance.now() - call.began) / 1000).toFixed(1);
    const limit = call.limits.timeout;
    const why = "stopped after " + spent + " s: past the " + limit + " s limit (--timeout)";
    restart();
    if (call.name === "cgf") {
      const command = call.limits.command || "cgf";
      call.done({ status: 200, data: { command, exit: 3, stdout: "", stderr: "cgf: error: " + why } });
    } else {
      call.done({ status: 503, data: { error: why, status: "limit" } });
    }
  }

  window.cgfBackend = {
    links: "#",
    calculator: true,
    call(name, query, stale) {
      return new Promise((done, fail) => {
        if (failed) return fail(failed);
        waiting.push({ id: nextId++, name, query, stale, done, fail });
        next();
      });
    },
    stop() {
      const stopped = new Error("stopped: Python starts again");
      const calls = waiting.splice(0);
      if (current) calls.unshift(current);
      if (current || !ready) restart();
      for (const call of calls) call.fail(stopped);
      status("Stopped. Python starts again\u2026");
    },
    onstatus(callback) {
      report = callback;
    },
    about: () => about,
  };
  start();
})();
