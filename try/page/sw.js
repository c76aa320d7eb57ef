// The page at try/ offline: once Python has started (pyodide-backend.js registers this
// service worker then, when the files are in the browser's cache already), every file of
// this build is kept in the Cache Storage under the build's name, and served from there:
// the page reloads, and Python starts again after Stop, with the network gone. A new build
// has another name (try/build.py writes BUILD and FILES): its files replace these.
"use strict";

const BUILD = "@BUILD@";
const FILES = "@FILES@";
const CACHE = "cgframework-try-" + BUILD;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((n) => n.startsWith("cgframework-try-") && n !== CACHE).map((n) => caches.delete(n)),
      ))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(event.request, { ignoreSearch: true }))
      .then((found) => found || fetch(event.request)),
  );
});
