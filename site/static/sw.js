// The service worker: the page keeps working with the network gone once it
// was opened (a classroom's shared Wi-Fi), and a new version is fetched in
// the background and offered, never swapped under a running session.
//
// site.Build writes this file with PRECACHE (the pages and every
// content-hashed file of the build) and VERSION (a hash of that list), so
// each build's worker differs and the browser installs it as an update.
//
// - install: precaches into the cache "dsplay-" + VERSION. No skipWaiting:
//   a page running the old version keeps it until the learner reloads
//   through the page's "A new version is ready" offer (boot.js), which
//   posts "skipWaiting".
// - activate: removes the caches of other versions (an old cache never
//   serves a new page) and claims the open pages on a first install.
// - fetch: a page (navigation) from the network, its cached copy when the
//   network fails; a precached file from the cache; anything else (the
//   /api) from the network only.
"use strict";
const VERSION = "__DSPLAY_VERSION__";
const PRECACHE = __DSPLAY_PRECACHE__;
const CACHE = "dsplay-" + VERSION;

self.addEventListener("install", function (ev) {
  // The default cache mode: the hashed files the page has just fetched
  // (immutable) come from the HTTP cache, not over the network again; the
  // pages (no-cache) are revalidated.
  ev.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(PRECACHE); }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) {
      return k.indexOf("dsplay-") === 0 && k !== CACHE;
    }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("message", function (ev) {
  if (ev.data === "skipWaiting") self.skipWaiting();
});

// pageKey is the precached page a navigation to url shows ("index.html"
// for the site's root). A page asked for in embed mode (?embed) is
// embed.html, the same page in embed mode, which the server sends with the
// Content-Security-Policy that lets any site frame it (site/web): the
// cached index.html's would refuse the frame.
function pageKey(url) {
  const scope = new URL(self.registration.scope);
  let p = url.pathname.slice(scope.pathname.length);
  if (p === "" || p.endsWith("/")) p += "index.html";
  if (!/\.[a-z0-9]+$/.test(p)) p += ".html"; // /embed is embed.html (site/web)
  if (url.searchParams.has("embed") && /(^|\/)index\.html$/.test(p)) p = p.replace(/index\.html$/, "embed.html");
  return new URL(p, scope).href;
}

self.addEventListener("fetch", function (ev) {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    // The page of this version: the cached copy, which names this
    // version's wasm, so a page never mixes versions; a page this version
    // did not precache comes from the network.
    ev.respondWith(caches.open(CACHE).then(function (c) {
      return c.match(pageKey(url)).then(function (hit) {
        return hit || fetch(req);
      });
    }));
    return;
  }
  ev.respondWith(caches.open(CACHE).then(function (c) {
    return c.match(req, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(req);
    });
  }));
});
