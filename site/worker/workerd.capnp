# workerd config: the Worker as `make worker` builds it, with ASSETS bound to
# a disk service over the built web root (the same fetch interface as
# Workers Static Assets). Used by the Worker test (site/worker/workertest)
# and for a quick local run:
#
#   make worker
#   cd site/worker && npx workerd serve workerd.capnp --socket-addr http=127.0.0.1:8787 \
#     --directory-path assets=build/assets
#
# Paths of `embed` are relative to this file; the disk path is relative to
# the current directory (override it with --directory-path assets=DIR).
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .dsplayWorker),
    (name = "assets", disk = (path = "build/assets", writable = false)),
  ],
  sockets = [
    (name = "http", address = "127.0.0.1:8787", http = (), service = "main"),
  ],
);

const dsplayWorker :Workerd.Worker = (
  modules = [
    (name = "entry.mjs", esModule = embed "build/worker/entry.mjs"),
    (name = "worker.mjs", esModule = embed "build/worker/worker.mjs"),
    (name = "runtime.mjs", esModule = embed "build/worker/runtime.mjs"),
    (name = "wasm_exec.js", esModule = embed "build/worker/wasm_exec.js"),
    (name = "app.wasm", wasm = embed "build/worker/app.wasm"),
  ],
  compatibilityDate = "2026-04-01",
  bindings = [
    (name = "ASSETS", service = "assets"),
    # Adds X-Dsplay-Asset-Fetches to every response (the test reads it).
    (name = "DSPLAY_DEBUG", text = "1"),
  ],
);
