// Loads main.wasm with WebAssembly.instantiateStreaming, showing progress,
// and starts the Go program. Everything is served from this origin.
"use strict";
(function () {
  const text = document.getElementById("loading-text");
  const bar = document.getElementById("loading-bar");

  function fail(err) {
    text.textContent = "The simulator failed to load: " + err;
    document.getElementById("loading").classList.add("failed");
    console.error(err);
  }

  // Count the bytes as they stream in, without giving up streaming compilation.
  function withProgress(resp) {
    if (!resp.ok) throw new Error("main.wasm: HTTP " + resp.status);
    const total = Number(resp.headers.get("X-Uncompressed-Length") || resp.headers.get("Content-Length") || 0);
    if (!resp.body || !total) return resp;
    let loaded = 0;
    const reader = resp.body.getReader();
    const stream = new ReadableStream({
      async pull(ctrl) {
        const { done, value } = await reader.read();
        if (done) { ctrl.close(); return; }
        loaded += value.byteLength;
        bar.value = Math.min(1, loaded / total);
        text.textContent = "Loading the simulator… " + (loaded / 1048576).toFixed(1) + " MB";
        ctrl.enqueue(value);
      },
    });
    return new Response(stream, { headers: { "Content-Type": "application/wasm" } });
  }

  if (typeof WebAssembly === "undefined" || !WebAssembly.instantiateStreaming) {
    fail("this browser has no WebAssembly.instantiateStreaming");
    return;
  }
  if (typeof Go === "undefined") {
    fail("wasm_exec.js did not load (build the site with go run ./site/cmd/serve)");
    return;
  }
  const go = new Go();
  WebAssembly.instantiateStreaming(fetch("main.wasm").then(withProgress), go.importObject)
    .then((result) => {
      text.textContent = "Starting…";
      bar.removeAttribute("value");
      return go.run(result.instance);
    })
    .then(() => fail("the Go program exited"), fail);
})();
