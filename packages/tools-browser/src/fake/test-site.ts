/**
 * @module The local pages the browser tests drive: a site on 127.0.0.1 (the one origin the tests' policy
 * allows), and two servers a page must never reach — one on another loopback address at the same port,
 * one on 127.0.0.1 at another port — each counting every connection made to it.
 */
import { createHash } from "node:crypto";
import { createSocket } from "node:dgram";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** The same port on 127.0.0.2: loopback, but outside the tests' allowed 127.0.0.1/32. */
  otherAddress: string;
  /** 127.0.0.1 on a port the tests' policy does not list. */
  otherPort: string;
  /** A UDP port on 127.0.0.2 a STUN request would go to. */
  udpPort: number;
  /** Connections that reached the two forbidden servers, and datagrams that reached the UDP one. */
  forbiddenHits(): number;
  close(): Promise<void>;
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

export async function startTestSite(): Promise<TestSite> {
  let hits = 0;
  const sockets = new Set<Socket>();
  const track = (server: Server, counted: boolean) =>
    server.on("connection", (socket: Socket) => {
      if (counted) hits += 1;
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });

  const site = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const send = (html: string, status = 200) =>
      response.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(html);
    switch (url.pathname) {
      case "/form":
        return send(
          page(
            "Search form",
            `<main><h1>Find a widget</h1><p>Type a name and send it.</p>
             <form action="/result" method="get"><label for="q">Widget name</label><input id="q" name="q">
             <button type="submit">Search</button></form><a href="/other">Another page</a></main>`,
          ),
        );
      case "/result":
        return send(
          page(
            "Result",
            `<main><h1>Result</h1><p>You searched for ${escapeHtml(url.searchParams.get("q") ?? "")}.</p></main>`,
          ),
        );
      case "/other":
        return send(page("Other", `<main><p>Another page.</p><a href="/form">Back</a></main>`));
      case "/login":
        return send(
          page(
            "Sign in",
            `<main><form action="/result"><input name="user" aria-label="User"><input type="password" name="pass" aria-label="Password"></form>
             <input name="secret" autocomplete="current-password" aria-label="Secret"><input type="file" aria-label="Upload">
             <input name="plain" aria-label="Plain"></main>`,
          ),
        );
      case "/spoofed-password":
        // A page that makes its password field look like a text field to any script in its own world.
        return send(
          page(
            "Spoof",
            `<main><form><input type="password" aria-label="Secret"></form><script>
             Object.defineProperty(HTMLInputElement.prototype, "type", { get() { return "text"; } });
             Element.prototype.getAttribute = () => null;
             </script></main>`,
          ),
        );
      case "/formless-login":
        // A sign-in made of fields in no <form>; the second page keeps its password field in a shadow root.
        return send(
          page(
            "Formless",
            `<main><div><input name="user" aria-label="User"><input type="password" aria-label="Pass"></div></main>`,
          ),
        );
      case "/shadow-login":
        return send(
          page(
            "Shadow",
            `<main><input name="user" aria-label="User"><div id="host"></div><script>
             document.getElementById("host").attachShadow({ mode: "open" }).innerHTML = '<input type="password" aria-label="Pass">';
             </script></main>`,
          ),
        );
      case "/overridden":
        // A page that replaces the built-ins a snapshot script would use to stay within its limits.
        return send(
          page(
            "Overridden",
            `<main><p>${"word ".repeat(6_000)}</p><div id="many"></div><script>
             document.getElementById("many").innerHTML = '<button>b</button>'.repeat(400);
             const slice = Array.prototype.slice, cut = String.prototype.slice;
             Array.prototype.slice = function (...rest) { return this.length >= 300 ? slice.call(this) : slice.apply(this, rest); };
             String.prototype.slice = function (...rest) { return this.length >= 20000 ? String(this) : cut.apply(this, rest); };
             </script></main>`,
          ),
        );
      case "/many-refused": {
        // Thirty images on an address the policy refuses, each with a long path.
        const other = url.searchParams.get("other") ?? "";
        const images = Array.from(
          { length: 30 },
          (_, index) => `<img src="${other}/${"x".repeat(300)}${index}.png">`,
        );
        return send(
          page("Many refused", `<main><p>Own text.</p>${images.join("")}<button>Last</button></main>`),
        );
      }
      case "/endless-fetch":
        return send(
          page(
            "Endless",
            // On a click, not on load: a fetch begun while the page loads can pass the cap before navigation ends.
            `<main><button onclick="fetch('/endless').then((r) => r.arrayBuffer())">Fetch</button></main>`,
          ),
        );
      case "/endless": {
        // A body that never ends: written as fast as the reader takes it, until the connection closes.
        response.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(64 * 1024, 120);
        let open = true;
        response.on("close", () => {
          open = false;
        });
        const write = () => {
          while (open && response.write(chunk)) {}
          if (open) response.once("drain", write);
        };
        write();
        return;
      }
      case "/redirect":
        // Location as the test asks: to another loopback address, or to a private one.
        response.writeHead(302, { location: url.searchParams.get("to") ?? "/" }).end();
        return;
      case "/subresources": {
        const [other, port] = [url.searchParams.get("other"), url.searchParams.get("port")];
        return send(
          page(
            "Subresources",
            `<main><h1>Page with subresources</h1><p>Own text loads.</p>
             <img src="${other}/pixel.png"><script src="http://10.11.12.13/x.js"></script>
             <p id="fetched">pending</p>
             <script>fetch("${port}/data").then(() => { document.getElementById("fetched").textContent = "fetched"; },
               () => { document.getElementById("fetched").textContent = "fetch failed"; });</script></main>`,
          ),
        );
      }
      case "/websocket":
        return send(
          page(
            "Socket",
            `<main><p id="state">connecting</p><script>
             const socket = new WebSocket(${JSON.stringify(url.searchParams.get("to") ?? "")});
             socket.onmessage = (event) => { document.getElementById("state").textContent = "message: " + event.data; };
             socket.onerror = () => { document.getElementById("state").textContent = "socket failed"; };
             </script></main>`,
          ),
        );
      case "/downloads":
        return send(page("Downloads", `<main><a href="/report.csv" download>Get the report</a></main>`));
      case "/report.csv":
        response
          .writeHead(200, {
            "content-type": "text/csv",
            "content-disposition": 'attachment; filename="report.csv"',
          })
          .end("name,count\nwidget,3\n");
        return;
      case "/webrtc":
        // ICE gathering sends STUN binding requests over UDP straight to the server named, unless the
        // browser keeps UDP to proxied paths (an HTTP proxy carries none).
        return send(
          page(
            "WebRTC",
            `<main><p id="state">gathering</p><script>
             const connection = new RTCPeerConnection({ iceServers: [{ urls: ${JSON.stringify(`stun:127.0.0.2:${url.searchParams.get("port")}`)} }] });
             const found = [];
             connection.onicecandidate = (event) => { if (event.candidate) found.push(event.candidate.type); };
             connection.onicegatheringstatechange = () => {
               if (connection.iceGatheringState === "complete")
                 document.getElementById("state").textContent = "gathered: " + (found.join(",") || "none");
             };
             connection.createDataChannel("probe");
             connection.createOffer().then((offer) => connection.setLocalDescription(offer));
             </script></main>`,
          ),
        );
      case "/stall":
        // A script that never yields, once the page has loaded.
        return send(
          page(
            "Stall",
            `<main><p>Loaded.</p><script>setTimeout(() => { for (;;) {} }, 1000);</script></main>`,
          ),
        );
      case "/service-worker":
        return send(
          page(
            "Service worker",
            `<main><p id="state">registering</p><script>
             if (!navigator.serviceWorker) document.getElementById("state").textContent = "no service workers";
             else navigator.serviceWorker.register("/sw.js").then(
               () => { document.getElementById("state").textContent = "registered"; },
               (error) => { document.getElementById("state").textContent = "refused: " + error.name; });
             </script></main>`,
          ),
        );
      case "/sw.js":
        response
          .writeHead(200, { "content-type": "text/javascript" })
          .end("self.addEventListener('fetch', () => {});");
        return;
      case "/popup":
        return send(page("Popup", `<main><button onclick="window.open('/other')">Open</button></main>`));
      default:
        return send(page("Not found", "<p>Not found</p>"), 404);
    }
  });
  site.on("upgrade", (request: IncomingMessage, socket: Duplex) => acceptWebSocket(request, socket));
  track(site, false);
  await listen(site, "127.0.0.1", 0);
  const port = (site.address() as AddressInfo).port;

  const forbidden = () =>
    createServer((_request, response) =>
      response.writeHead(200, { "content-type": "text/plain" }).end("reached"),
    );
  const otherAddress = track(forbidden(), true);
  otherAddress.on("upgrade", (request: IncomingMessage, socket: Duplex) => acceptWebSocket(request, socket));
  await listen(otherAddress, "127.0.0.2", port);
  const otherPort = track(forbidden(), true);
  await listen(otherPort, "127.0.0.1", 0);
  const udp = createSocket("udp4");
  udp.on("message", () => {
    hits += 1;
  });
  await new Promise<void>((resolve, reject) => {
    udp.once("error", reject);
    udp.bind(0, "127.0.0.2", () => resolve());
  });

  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    otherAddress: `http://127.0.0.2:${port}`,
    otherPort: `http://127.0.0.1:${(otherPort.address() as AddressInfo).port}`,
    udpPort: udp.address().port,
    forbiddenHits: () => hits,
    async close() {
      for (const socket of sockets) socket.destroy();
      udp.close();
      await Promise.all(
        [site, otherAddress, otherPort].map((server) => new Promise((resolve) => server.close(resolve))),
      );
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
}

/** RFC 6455 §4.2.2's handshake, then one text frame "hello" (§5.2), enough for a page to see it open. */
function acceptWebSocket(request: IncomingMessage, socket: Duplex): void {
  const key = request.headers["sec-websocket-key"];
  if (typeof key !== "string") return void socket.destroy();
  const accept = createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\nsec-websocket-accept: ${accept}\r\n\r\n`,
  );
  socket.write(Buffer.concat([Buffer.from([0x81, 5]), Buffer.from("hello")]));
  socket.on("error", () => {});
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
