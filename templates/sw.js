// The app's service worker: it keeps the static files (by their fingerprinted names) and the offline page, and shows
// that page when a page cannot be reached. It never keeps a page of a game, a live stream or an export: those carry
// a player's secrets (no-store), and go to the network alone.
"use strict";
const CACHE = "scorekeeper-{{ version }}";
const KEPT = {{ kept | tojson }};
const OFFLINE = {{ offline | tojson }};
const STATIC = {{ static | tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...KEPT, OFFLINE])).then(() => self.skipWaiting()));
});

// The files of an earlier version go; this one answers for the pages open now.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page, from the network; while it answers, the offline page is fetched again, in the language the phone
    // reads now. No answer: the offline page.
    event.respondWith(fetch(request).then((response) => {
      event.waitUntil(caches.open(CACHE).then((cache) => cache.add(OFFLINE)).catch(() => {}));
      return response;
    }, () => caches.match(OFFLINE, { ignoreVary: true })));
  } else if (url.pathname.startsWith(STATIC) && url.searchParams.has("v")) {
    // A static file whose address names its content: from the cache, else from the network and kept.
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((kept) => kept || fetch(request)
      .then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      }))));
  }
});
