// The Worker's entry module (wrangler.toml `main`, workerd.capnp's first
// module): syumai/workers' generated glue (worker.mjs, which runs the Go
// program app.wasm once per request) with one fix.
//
// The Go handler sends pre-compressed files (main.<hash>.wasm.br, .gz) with
// Content-Encoding set. The Workers runtime treats Content-Encoding on a
// Response as an instruction to compress the body itself (encodeBody
// "automatic", the default), which would compress the compressed bytes again
// and break the wasm. syumai/workers v0.33.0 builds its Response without
// encodeBody, so this module rebuilds an encoded response with
// encodeBody: "manual": the bytes go out as they are. (For a client that did
// not ask for the encoding, Cloudflare's edge decompresses; the handler only
// picks an encoding the request accepts anyway.)
import glue from "./worker.mjs";

async function fetch(req, env, ctx) {
  const res = await glue.fetch(req, env, ctx);
  if (res.body === null || !res.headers.has("Content-Encoding")) {
    return res;
  }
  return new Response(res.body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
    encodeBody: "manual",
  });
}

export default { fetch };
