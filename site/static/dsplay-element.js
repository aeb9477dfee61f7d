// <dsplay-playground>: the playground in one tag, for tutorial authors.
//
//   <script src="https://PLAYGROUND/dsplay-element.js"></script>
//   <dsplay-playground panes="cluster,console" example="none" height="420"></dsplay-playground>
//
// It wraps the embed (embed.html, docs/embedding.md) in an iframe served
// from where this script came from (or the src attribute), allows this
// page's origin to drive it (origin=), and forwards the postMessage API:
//
// - attributes: panes, lesson, exercise, example, yaml, readonly, reset,
//   paused, start (visible, click, auto), height (pixels; the frame grows
//   with its content above it), src (the playground's base URL);
// - events, dispatched on the element with the message as detail:
//   "dsplay:ready", "dsplay:decisions", "dsplay:resize", "dsplay:error";
// - methods returning a Promise of the reply (rejected with a dsplay:error
//   reply): apply(yaml), run(command), step(seconds), reset(), state(),
//   play(), pause(), send(type, fields) for any other message; ready is a
//   Promise of the dsplay:ready message. A call before the playground
//   started (start=visible or click) starts it.
//
// The served file keeps this name (no content hash), so a tutorial can
// name it; no network is needed beyond the playground's own files.
"use strict";
(function () {
  if (typeof customElements === "undefined" || customElements.get("dsplay-playground")) return;
  const here = document.currentScript && document.currentScript.src ? new URL(".", document.currentScript.src).href : "";
  const params = ["panes", "lesson", "exercise", "example", "yaml", "start"];
  const flags = ["readonly", "reset", "paused"];

  class DsplayPlayground extends HTMLElement {
    constructor() {
      super();
      this._pending = new Map();
      this._nextId = 1;
      this._onMessage = this._onMessage.bind(this);
      this.ready = new Promise((resolve) => (this._ready = resolve));
    }

    connectedCallback() {
      if (this._frame) return;
      const base = new URL(this.getAttribute("src") || here || ".", location.href);
      const q = new URLSearchParams();
      for (const p of params) {
        if (this.hasAttribute(p)) q.set(p, this.getAttribute(p));
      }
      for (const f of flags) {
        if (this.hasAttribute(f)) q.set(f, "");
      }
      q.set("origin", location.origin === "null" ? "*" : location.origin);
      this._origin = base.origin;
      const frame = document.createElement("iframe");
      frame.title = this.getAttribute("title") || "DaemonSet Playground";
      frame.src = new URL("embed.html?" + q.toString(), base).href;
      frame.style.border = "0";
      frame.style.width = "100%";
      this._minHeight = parseInt(this.getAttribute("height") || "420", 10) || 420;
      frame.style.height = this._minHeight + "px";
      frame.setAttribute("allow", "clipboard-write");
      this.style.display = this.style.display || "block";
      this._loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
      this.attachShadow({ mode: "open" }).appendChild(frame);
      this._frame = frame;
      window.addEventListener("message", this._onMessage);
    }

    disconnectedCallback() {
      window.removeEventListener("message", this._onMessage);
    }

    _onMessage(ev) {
      if (!this._frame || ev.source !== this._frame.contentWindow) return;
      if (this._origin !== "null" && ev.origin !== this._origin) return;
      const m = ev.data;
      if (!m || typeof m.type !== "string" || m.type.indexOf("dsplay:") !== 0) return;
      if (m.type === "dsplay:ready") this._ready(m);
      if (m.type === "dsplay:resize" && typeof m.height === "number") {
        this._frame.style.height = Math.max(this._minHeight, Math.ceil(m.height)) + "px";
      }
      const p = m.id !== undefined && this._pending.get(m.id);
      if (p) {
        this._pending.delete(m.id);
        if (m.type === "dsplay:error") p.reject(m);
        else p.resolve(m);
      }
      this.dispatchEvent(new CustomEvent(m.type, { detail: m }));
    }

    // send posts a message of the given type (with fields) once the frame
    // has loaded (the embed queues it until the playground runs, and a
    // message starts a lazily started embed) and returns a Promise of its
    // reply.
    send(type, fields) {
      if (!this._loaded) return Promise.reject({ type: "dsplay:error", error: "the element is not in the document" });
      return this._loaded.then(() => new Promise((resolve, reject) => {
        const id = "el" + this._nextId++;
        this._pending.set(id, { resolve, reject });
        this._frame.contentWindow.postMessage(Object.assign({ type: type, id: id }, fields || {}), this._origin === "null" ? "*" : this._origin);
      }));
    }

    apply(yaml) { return this.send("dsplay:apply", { yaml: yaml }); }
    run(command) { return this.send("dsplay:run", { command: command }); }
    step(seconds) { return this.send("dsplay:step", { seconds: seconds }); }
    reset() { return this.send("dsplay:reset"); }
    state() { return this.send("dsplay:state"); }
    play() { return this.send("dsplay:play"); }
    pause() { return this.send("dsplay:pause"); }
  }

  customElements.define("dsplay-playground", DsplayPlayground);
})();
