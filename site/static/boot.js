// The loader: fetches the wasm named by this script's data-wasm attribute
// (site.Build writes main.<hash>.wasm there), compiles it while it streams
// in with WebAssembly.instantiateStreaming, showing progress, and starts
// the Go program. Everything comes from this origin; no inline script.
//
// - A server that sends the wasm with another MIME type than
//   application/wasm (some static hosts): WebAssembly.instantiate on the
//   whole ArrayBuffer instead.
// - The one-file bundle (make bundle): the wasm is inline, base64 of its
//   gzip, in <script type="application/octet-stream" id="dsplay-wasm">;
//   it is decoded with DecompressionStream, no fetch (file:// cannot).
// - Embed mode (<html data-mode="embed"> or ?embed) starts lazily, by the
//   start= parameter: visible (default: when the frame scrolls into
//   view, IntersectionObserver), click (a "Start the playground" button
//   over a light placeholder) or auto (at once). A tutorial with five
//   embeds runs one Go runtime per embed the reader looks at.
// - The service worker (sw.js) is registered on http(s) pages (not with
//   ?nosw): offline after the first visit, updates offered (#sw-update).
// - window.__dsplayBoot = {queue, handler, started, start(), memoryBytes()}
//   (CONTRACTS.md; memoryBytes once the module runs: its memory's size):
//   messages posted to the page are queued until the Go program sets
//   handler (it then drains queue); a dsplay:* message arriving before
//   the start starts the runtime.
"use strict";
(function () {
  const root = document.documentElement;
  const script = document.currentScript;
  const wasmURL = (script && script.dataset.wasm) || "main.wasm";
  const params = new URLSearchParams(location.search);
  const embed = root.dataset.mode === "embed" || params.has("embed");
  const loading = document.getElementById("loading");
  const text = document.getElementById("loading-text");
  const bar = document.getElementById("loading-bar");
  const spinner = loading && loading.querySelector(".spinner");

  let stopWaiting = null; // undoes the lazy-start placeholder or observer

  const boot = {
    queue: [],
    handler: null,
    started: false,
    start: start,
  };
  window.__dsplayBoot = boot;
  window.addEventListener("message", function (ev) {
    if (boot.handler) {
      boot.handler(ev);
      return;
    }
    boot.queue.push(ev);
    const d = ev.data;
    if (!boot.started && d && typeof d === "object" && typeof d.type === "string" && d.type.indexOf("dsplay:") === 0) {
      start();
    }
  });

  function fail(err) {
    text.textContent = "The simulator failed to load: " + (err && err.message ? err.message : err);
    loading.classList.add("failed");
    root.dataset.state = "failed";
    console.error(err);
  }

  // progress shows how much of the wasm has arrived.
  function progress(loaded, total) {
    if (total) bar.value = Math.min(1, loaded / total);
    text.textContent = "Loading the simulator… " + (loaded / 1048576).toFixed(1) + " MB";
  }

  // counted returns the response's body as a stream that reports progress.
  function counted(resp) {
    // The body arrives decoded: Content-Length counts the encoded bytes, so
    // it is the total only without a Content-Encoding.
    const h = resp.headers;
    const total = Number(h.get("X-Uncompressed-Length") || (h.get("Content-Encoding") ? 0 : h.get("Content-Length")) || 0);
    if (!resp.body) return null;
    let loaded = 0;
    const reader = resp.body.getReader();
    return new ReadableStream({
      async pull(ctrl) {
        const { done, value } = await reader.read();
        if (done) {
          ctrl.close();
          return;
        }
        loaded += value.byteLength;
        progress(loaded, total);
        ctrl.enqueue(value);
      },
    });
  }

  // fromURL fetches and compiles the wasm at url.
  function fromURL(url, go) {
    return fetch(url).then(function (resp) {
      if (!resp.ok) throw new Error(url + ": HTTP " + resp.status);
      const type = (resp.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
      const body = counted(resp);
      if (type === "application/wasm" && WebAssembly.instantiateStreaming && body) {
        const wasm = new Response(body, { headers: { "Content-Type": "application/wasm" } });
        return WebAssembly.instantiateStreaming(wasm, go.importObject);
      }
      // Served as something else (instantiateStreaming would refuse it):
      // compile the whole buffer.
      return (body ? new Response(body) : resp).arrayBuffer().then(function (buf) {
        return WebAssembly.instantiate(buf, go.importObject);
      });
    });
  }

  // fromInline decodes the bundle's inline wasm: base64 of its gzip.
  function fromInline(el, go) {
    text.textContent = "Unpacking the simulator…";
    const b64 = el.textContent.replace(/\s+/g, "");
    let bytes;
    if (typeof Uint8Array.fromBase64 === "function") {
      bytes = Uint8Array.fromBase64(b64);
    } else {
      const bin = atob(b64);
      bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    }
    el.textContent = ""; // free the 4 MB string
    let stream = new Blob([bytes]).stream();
    if (el.dataset.encoding === "gzip") {
      if (typeof DecompressionStream === "undefined") {
        return Promise.reject(new Error("this browser has no DecompressionStream (use a current Chrome, Firefox or Safari)"));
      }
      stream = stream.pipeThrough(new DecompressionStream("gzip"));
    }
    const wasm = new Response(stream, { headers: { "Content-Type": "application/wasm" } });
    if (WebAssembly.instantiateStreaming) return WebAssembly.instantiateStreaming(wasm, go.importObject);
    return wasm.arrayBuffer().then(function (buf) {
      return WebAssembly.instantiate(buf, go.importObject);
    });
  }

  function run() {
    if (typeof WebAssembly === "undefined") {
      fail("this browser has no WebAssembly");
      return;
    }
    if (typeof Go === "undefined") {
      fail("wasm_exec.js did not load (build the site with go run ./site/cmd/serve)");
      return;
    }
    const go = new Go();
    const inline = document.getElementById("dsplay-wasm");
    let compiled;
    try {
      compiled = inline ? fromInline(inline, go) : fromURL(wasmURL, go);
    } catch (err) {
      compiled = Promise.reject(err);
    }
    compiled
      .then(function (result) {
        // after the wasm arrived: the worker's precache then finds it in
        // the HTTP cache instead of downloading it a second time
        registerWorker();
        const mem = result.instance.exports.mem;
        // the WebAssembly memory's size in bytes (dsplay.memory(): soak tests)
        boot.memoryBytes = function () { return mem ? mem.buffer.byteLength : 0; };
        text.textContent = "Starting…";
        bar.removeAttribute("value");
        return go.run(result.instance);
      })
      .then(function () {
        fail("the Go program exited");
      }, fail);
  }

  // start loads and runs the simulator, once.
  function start() {
    if (boot.started) return;
    boot.started = true;
    if (stopWaiting) stopWaiting();
    stopWaiting = null;
    root.dataset.state = "loading";
    text.textContent = "Loading the simulator…";
    run();
  }

  // waitForClick shows a light placeholder with a start button.
  function waitForClick() {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.id = "start-playground";
    btn.className = "primary";
    btn.textContent = "▶ Start the playground";
    if (spinner) spinner.hidden = true;
    bar.hidden = true;
    text.textContent = "DaemonSet Playground: a simulated Kubernetes cluster runs in this page.";
    loading.appendChild(btn);
    btn.addEventListener("click", start);
    stopWaiting = function () {
      btn.remove();
      if (spinner) spinner.hidden = false;
      bar.hidden = false;
    };
  }

  // waitForView starts once any part of the page is in the viewport (of
  // the top-level page, for an iframe).
  function waitForView() {
    if (typeof IntersectionObserver === "undefined") {
      start();
      return;
    }
    if (spinner) spinner.hidden = true;
    bar.hidden = true;
    text.textContent = "DaemonSet Playground";
    const io = new IntersectionObserver(function (entries) {
      for (const e of entries) {
        if (e.isIntersecting) {
          start();
          return;
        }
      }
    });
    io.observe(root);
    stopWaiting = function () {
      io.disconnect();
      if (spinner) spinner.hidden = false;
      bar.hidden = false;
    };
  }

  // registerWorker registers the service worker (sw.js, which site.Build
  // writes: the page works offline after its first visit), once the wasm
  // is compiled. A new version
  // installs in the background and waits; the page offers it ("A new
  // version is ready", #sw-update), and only the learner's click swaps it
  // in (skipWaiting, then a reload once it controls the page). A first
  // install (no controller yet) offers nothing.
  function registerWorker() {
    if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol) || params.has("nosw")) return;
    let updating = false;
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      if (updating) location.reload();
    });
    navigator.serviceWorker.register("sw.js", { updateViaCache: "none" }).then(function (reg) {
      function offer(w) {
        const box = document.getElementById("sw-update");
        const btn = document.getElementById("sw-reload");
        if (!w || !navigator.serviceWorker.controller || !box || !btn || embed) return;
        box.hidden = false;
        btn.addEventListener("click", function () {
          btn.disabled = true;
          updating = true;
          w.postMessage("skipWaiting");
        });
      }
      if (reg.waiting) offer(reg.waiting);
      reg.addEventListener("updatefound", function () {
        const w = reg.installing;
        if (!w) return;
        w.addEventListener("statechange", function () {
          if (w.state === "installed") offer(w);
        });
      });
    }, function (err) {
      console.warn("DaemonSet Playground: no offline copy (service worker: " + (err && err.message ? err.message : err) + ")");
    });
  }

  if (!embed) {
    start();
    return;
  }
  root.dataset.state = "waiting";
  switch (params.get("start")) {
    case "auto":
      start();
      break;
    case "click":
      waitForClick();
      break;
    default:
      waitForView();
  }
})();
