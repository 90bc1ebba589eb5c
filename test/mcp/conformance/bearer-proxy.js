/**
 * @module A pass-through HTTP proxy on 127.0.0.1 that adds an API key to every request, for a client that
 * cannot send headers of its own (the MCP conformance suite). Everything else passes as it came, the Host
 * and Origin headers included, so the server's own checks see what the client sent; SSE streams through.
 *
 * Usage: TOOLREG_KEY=trk_… node bearer-proxy.js http://127.0.0.1:PORT
 * Prints `proxy on http://127.0.0.1:PORT` once listening; stops on SIGTERM or SIGINT.
 */
import { createServer, request as forward } from "node:http";

const upstream = new URL(process.argv[2] ?? "");
const key = process.env.TOOLREG_KEY;
if (!key) throw new Error("set TOOLREG_KEY to the API key to send");

const proxy = createServer((incoming, outgoing) => {
  const relay = forward(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, authorization: `Bearer ${key}` },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      // An event stream may say nothing for a while: the client must see its headers now.
      outgoing.flushHeaders();
      answer.pipe(outgoing);
    },
  );
  relay.on("error", (error) => {
    if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
    outgoing.end(`proxy: ${error.message}`);
  });
  // A client that goes away ends its request upstream too (an abandoned event stream, above all).
  outgoing.on("close", () => relay.destroy());
  incoming.pipe(relay);
});

proxy.listen(0, "127.0.0.1", () => {
  const { port } = /** @type {import("node:net").AddressInfo} */ (proxy.address());
  process.stdout.write(`proxy on http://127.0.0.1:${port}\n`);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    proxy.closeAllConnections();
    proxy.close(() => process.exit(0));
  });
}
