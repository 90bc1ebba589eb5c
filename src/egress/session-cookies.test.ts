import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import { createToolkitHost } from "../tools/toolkit/toolkit-host.js";
import type { Resolver } from "./dns-resolver.js";
import { EgressClient, type EgressClientOptions } from "./egress-client.js";

interface Seen {
  host: string;
  path: string;
  cookie: string | undefined;
}

let server: Server;
let port: number;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://local");
    seen.push({ host: request.headers.host ?? "", path: url.pathname, cookie: request.headers.cookie });
    // `/set?c=…` sets each `c` as a Set-Cookie line; `&to=…` then redirects there.
    const setCookie = url.searchParams.getAll("c");
    const to = url.searchParams.get("to");
    if (to !== null) {
      response.writeHead(302, { location: to, "set-cookie": setCookie }).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain", "set-cookie": setCookie });
    response.end(request.headers.cookie ?? "");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, "close");
});

const clients: EgressClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((created) => created.close()));
});

/** `localhost` answers 127.0.0.1 too: a second host name for the same server. */
const resolver: Resolver = async (host) =>
  host === "localhost" ? [{ address: "127.0.0.1", family: 4 }] : Promise.reject(new Error("no such host"));

function client(options: Omit<EgressClientOptions, "resolver"> = { sessionCookies: true }): EgressClient {
  const created = new EgressClient({
    resolver,
    ...options,
    policy: { allowAddressClasses: ["loopback"], ...options.policy },
  });
  clients.push(created);
  return created;
}

function setting(...lines: string[]): string {
  return lines.map((line) => `c=${encodeURIComponent(line)}`).join("&");
}

/** The Cookie header the server saw on the last request. */
const lastCookie = () => seen.at(-1)?.cookie;

describe("an egress client with session cookies", () => {
  it("stays bounded: an oversized cookie is dropped, and past 50 set the session starts over", async () => {
    const egress = client();
    await egress.request(`${base}/set?${setting(`big=${"x".repeat(5000)}`, "kept=1")}`);
    expect((await egress.request(`${base}/read`)).body.toString()).toBe("kept=1");
    const many = Array.from({ length: 49 }, (_, index) => `n${index}=1`);
    await egress.request(`${base}/set?${setting(...many)}`);
    expect((await egress.request(`${base}/read`)).body.toString().split("; ")).toHaveLength(50);
    await egress.request(`${base}/set?${setting("fresh=1")}`);
    expect((await egress.request(`${base}/read`)).body.toString()).toBe("fresh=1");
  });

  it("sends back what a server set, to the same host", async () => {
    const egress = client();
    await egress.request(`${base}/set?${setting("A3=d=AQAB; Path=/; HttpOnly", "B=2")}`);
    const response = await egress.request(`${base}/v1/test/getcrumb`);
    expect(response.body.toString()).toBe("A3=d=AQAB; B=2");
    expect(lastCookie()).toBe("A3=d=AQAB; B=2");
  });

  it("keeps what a redirect hop set and sends it on the next hop", async () => {
    const egress = client({ sessionCookies: true, policy: { followRedirects: true } });
    const response = await egress.request(`${base}/set?${setting("session=s1")}&to=/after`);
    expect(response.redirects).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ path: "/after", cookie: "session=s1" });
  });

  it("does not send a host's cookie to another host", async () => {
    const egress = client();
    await egress.request(`${base}/set?${setting("only=here")}`);
    await egress.request(`http://localhost:${port}/other`);
    expect(lastCookie()).toBeUndefined();
  });

  it("respects path and expiry", async () => {
    const egress = client();
    await egress.request(`${base}/set?${setting("scoped=1; Path=/api", "old=1; Max-Age=0", "keep=1")}`);
    await egress.request(`${base}/elsewhere`);
    expect(lastCookie()).toBe("keep=1");
    await egress.request(`${base}/api/x`);
    expect(lastCookie()).toBe("scoped=1; keep=1");
    // A later Max-Age=0 removes what was kept.
    await egress.request(`${base}/set?${setting("keep=1; Max-Age=0")}`);
    await egress.request(`${base}/elsewhere`);
    expect(lastCookie()).toBeUndefined();
  });

  it("never sends a cookie to a host the policy refuses", async () => {
    const egress = client({
      sessionCookies: true,
      policy: { allowHosts: ["127.0.0.1"], followRedirects: true },
    });
    await egress.request(`${base}/set?${setting("A3=x; Domain=127.0.0.1")}`);
    const before = seen.length;
    const refused = await egress.request(`http://localhost:${port}/x`).catch((error: unknown) => error);
    expect(ToolFailure.isInstance(refused) && refused.code).toBe("egress_refused");
    expect(seen.length).toBe(before);
  });

  it("still refuses a caller's Cookie header", async () => {
    const egress = client();
    const refused = await egress
      .request(`${base}/x`, { headers: { Cookie: "A3=mine" } })
      .catch((error: unknown) => error);
    expect(ToolFailure.isInstance(refused) && refused.details).toMatchObject({ rule: "credential_header" });
  });

  it("is not shared between clients", async () => {
    await client().request(`${base}/set?${setting("mine=1")}`);
    await client().request(`${base}/x`);
    expect(lastCookie()).toBeUndefined();
  });
});

describe("an egress client without session cookies", () => {
  it("keeps nothing a server sets", async () => {
    const egress = client({});
    await egress.request(`${base}/set?${setting("A3=x")}`);
    await egress.request(`${base}/x`);
    expect(lastCookie()).toBeUndefined();
  });
});

describe("a toolkit host's egress", () => {
  it("keeps a jar per binding when asked, and none otherwise", async () => {
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    try {
      const withJar = host.egress({ hosts: ["127.0.0.1"], sessionCookies: true });
      await withJar.request(`${base}/set?${setting("A3=y")}`);
      await withJar.request(`${base}/x`);
      expect(lastCookie()).toBe("A3=y");
      const without = host.egress({ hosts: ["127.0.0.1"] });
      await without.request(`${base}/set?${setting("A3=z")}`);
      await without.request(`${base}/x`);
      expect(lastCookie()).toBeUndefined();
    } finally {
      await host.close();
    }
  });
});
