import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "../../test/support/refusal.js";
import type { ToolFailure } from "../errors/tool-failure.js";
import type { ResolvedAddress, Resolver } from "./dns-resolver.js";
import { EgressClient, type EgressClientOptions } from "./egress-client.js";

/** A real HTTP server that records every connection and request it sees. */
interface LocalServer {
  server: Server;
  port: number;
  connections: { remote: string; local: string }[];
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  /** Resolves when the endless body's connection closes. */
  endlessClosed: Promise<void>;
}

async function startServer(host: string, port = 0): Promise<LocalServer> {
  let endlessDone = () => {};
  const local: LocalServer = {
    server: createServer(),
    port: 0,
    connections: [],
    requests: [],
    endlessClosed: new Promise<void>((resolve) => {
      endlessDone = resolve;
    }),
  };
  local.server.on("connection", (socket) => {
    local.connections.push({ remote: socket.remoteAddress ?? "", local: socket.localAddress ?? "" });
  });
  local.server.on("request", (request, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://local");
    local.requests.push({ method: request.method ?? "", path: url.pathname, headers: request.headers });
    const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
    if (hop) {
      const left = Number(hop[1]);
      if (left === 0) response.end("arrived");
      else response.writeHead(302, { location: `/hop/${left - 1}` }).end();
    } else if (url.pathname === "/redirect") {
      response.writeHead(Number(url.searchParams.get("status") ?? 302), {
        location: url.searchParams.get("to") ?? "/",
      });
      response.end();
    } else if (url.pathname === "/endless") {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(16 * 1024, 97);
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on("drain", pump);
      response.on("close", () => endlessDone());
      pump();
    } else if (url.pathname === "/hang") {
      // Never answers.
    } else {
      response.writeHead(200, { "content-type": "text/plain", "x-seen-by": host });
      response.end(`hello from ${host}`);
    }
  });
  local.server.listen(port, host);
  await once(local.server, "listening");
  local.port = (local.server.address() as AddressInfo).port;
  return local;
}

async function stopServer(local: LocalServer | undefined): Promise<void> {
  if (!local) return;
  local.server.closeAllConnections();
  local.server.close();
  await once(local.server, "close");
}

/** A resolver that gives scripted answers in turn (the last one repeats) and counts how often it was asked. */
function scriptedResolver(script: Record<string, string[][]>) {
  const calls: string[] = [];
  const resolver: Resolver = async (hostname) => {
    calls.push(hostname);
    const answers = script[hostname];
    if (!answers) throw Object.assign(new Error(`no such host ${hostname}`), { code: "ENOTFOUND" });
    const asked = calls.filter((name) => name === hostname).length;
    const answer = answers[Math.min(asked, answers.length) - 1] ?? [];
    return answer.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolver, calls };
}

const noDns: Resolver = () => Promise.reject(new Error("this test resolves nothing"));

const clients: EgressClient[] = [];
function client(options: EgressClientOptions): EgressClient {
  const created = new EgressClient(options);
  clients.push(created);
  return created;
}

let v4: LocalServer;
let v6: LocalServer | undefined;
let base: string;

beforeAll(async () => {
  v4 = await startServer("127.0.0.1");
  base = `http://127.0.0.1:${v4.port}`;
  // The same port on ::1, to see whether a connection ever goes there; skipped where it is taken.
  v6 = await startServer("::1", v4.port).catch(() => undefined);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((created) => created.close()));
});
afterAll(async () => {
  await stopServer(v4);
  await stopServer(v6);
});

/** The test server is allowed by exact CIDR: the rest of loopback stays refused. */
const testServerOnly = { allowCidrs: ["127.0.0.1/32"] };

describe("egress: URLs refused before any connection", () => {
  it.each([
    ["http://2130706433/", "loopback", "127.0.0.1"],
    ["http://0x7f.1/", "loopback", "127.0.0.1"],
    ["http://017700000001/", "loopback", "127.0.0.1"],
    ["http://127.1/", "loopback", "127.0.0.1"],
    ["http://0/", "unspecified", "0.0.0.0"],
    ["http://[::1]/", "loopback", "::1"],
    ["http://[::ffff:127.0.0.1]/", "loopback", "::ffff:7f00:1"],
    ["http://0xa9fea9fe/latest/meta-data/", "metadata", "169.254.169.254"],
    ["http://[::ffff:a9fe:a9fe]/", "metadata", "::ffff:a9fe:a9fe"],
    ["http://[fd00:ec2::254]/", "metadata", "fd00:ec2::254"],
    ["http://[64:ff9b::10.0.0.1]/", "private", "64:ff9b::a00:1"],
    ["http://[2002:c0a8:101::]/", "private", "2002:c0a8:101::"],
    ["http://100.64.0.1/", "cgnat", "100.64.0.1"],
    ["http://[fe80::1]/", "link-local", "fe80::1"],
    ["http://224.0.0.1/", "multicast", "224.0.0.1"],
    ["http://192.0.2.1/", "documentation", "192.0.2.1"],
  ])("%s is refused by the %s rule", async (url, rule, address) => {
    const failure = await refusal(client({ resolver: noDns }).request(url));
    expect(failure.envelopeCode).toBe("egress_refused");
    expect(failure.details).toMatchObject({ rule, address });
    expect(failure.message).toContain(rule);
  });

  it.each([
    ["file:///etc/passwd", "scheme"],
    ["ftp://example.com/", "scheme"],
    ["gopher://example.com/", "scheme"],
    ["data:text/plain,hello", "scheme"],
    ["http://user:secret@example.com/", "url_credentials"],
  ])("%s is refused by the %s rule", async (url, rule) => {
    const failure = await refusal(client({ resolver: noDns }).request(url));
    expect(failure.details).toMatchObject({ rule });
  });

  it("refuses a name when any of its addresses is refused, not only the first", async () => {
    const { resolver } = scriptedResolver({ "mixed.test": [["127.0.0.1", "10.0.0.1"]] });
    const failure = await refusal(
      client({ resolver, policy: testServerOnly }).request(`http://mixed.test:${v4.port}/`),
    );
    expect(failure.details).toMatchObject({ rule: "private", address: "10.0.0.1" });
  });

  it("applies the deny list before the allow list, and *.suffix to subdomains only", async () => {
    const { resolver } = scriptedResolver({
      "a.example.test": [["127.0.0.1"]],
      "bad.example.test": [["127.0.0.1"]],
    });
    const egress = client({
      resolver,
      policy: { ...testServerOnly, allowHosts: ["*.example.test"], denyHosts: ["bad.example.test"] },
    });
    const allowed = await egress.request(`http://a.example.test:${v4.port}/`);
    expect(allowed).toMatchObject({ status: 200, address: "127.0.0.1" });
    expect((await refusal(egress.request(`http://bad.example.test:${v4.port}/`))).details).toMatchObject({
      rule: "host_denied",
    });
    expect((await refusal(egress.request(`http://example.test:${v4.port}/`))).details).toMatchObject({
      rule: "host_not_allowed",
    });
  });

  it("refuses caller-supplied credential and framing headers, in any case", async () => {
    const egress = client({ resolver: noDns, policy: testServerOnly });
    const before = v4.requests.length;
    for (const name of ["Authorization", "COOKIE", "proxy-authorization"]) {
      const failure = await refusal(egress.request(`${base}/`, { headers: { [name]: "x" } }));
      expect(failure.details).toMatchObject({ rule: "credential_header", header: name.toLowerCase() });
    }
    for (const name of ["Host", "Transfer-Encoding", "accept-encoding"]) {
      const failure = await refusal(egress.request(`${base}/`, { headers: { [name]: "x" } }));
      expect(failure.details).toMatchObject({ rule: "forbidden_header" });
    }
    expect(v4.requests.length).toBe(before);
  });

  it("refuses a request body over its cap before sending anything", async () => {
    const egress = client({ resolver: noDns, policy: { ...testServerOnly, maxRequestBytes: 8 } });
    const before = v4.connections.length;
    const failure = await refusal(egress.request(`${base}/`, { method: "POST", body: "123456789" }));
    expect(failure.details).toMatchObject({ rule: "request_body_size", bytes: 9, limit: 8 });
    expect(v4.connections.length).toBe(before);
  });
});

describe("egress: redirects", () => {
  const targets = [
    ["http://127.0.0.2/", "loopback"],
    ["http://10.0.0.1/", "private"],
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://[::1]/", "loopback"],
  ] as const;

  it.each(targets)("by default a redirect to %s is reported, not followed", async (to) => {
    const egress = client({ resolver: noDns, policy: testServerOnly });
    const url = `${base}/redirect?to=${encodeURIComponent(to)}`;
    const failure = await refusal(egress.request(url));
    expect(failure.envelopeCode).toBe("egress_refused");
    expect(failure.details).toMatchObject({ rule: "redirect", url: `${base}/redirect?…`, status: 302 });
    expect(String(failure.details?.location)).toContain(new URL(to).host);
    expect(failure.message).toContain("not followed");
  });

  it.each(targets)(
    "with following on, the hop to %s is re-checked and refused by the %s rule",
    async (to, rule) => {
      const egress = client({ resolver: noDns, policy: { ...testServerOnly, followRedirects: true } });
      const v6Before = v6?.connections.length ?? 0;
      const failure = await refusal(
        egress.request(`${base}/redirect?to=${encodeURIComponent(to)}&status=307`),
      );
      expect(failure.details).toMatchObject({ rule, url: new URL(to).href });
      expect(v6?.connections.length ?? 0).toBe(v6Before);
    },
  );

  it("with following on, each hop is re-checked: scheme, host lists and the resolved address", async () => {
    const { resolver } = scriptedResolver({ "inside.test": [["10.0.0.1"]], localhost: [["127.0.0.1"]] });
    const egress = client({
      resolver,
      policy: {
        allowAddressClasses: ["public", "loopback"],
        followRedirects: true,
        denyHosts: ["localhost"],
      },
    });
    const hop = (to: string) => egress.request(`${base}/redirect?to=${encodeURIComponent(to)}`);
    expect((await refusal(hop("file:///etc/passwd"))).details).toMatchObject({ rule: "scheme" });
    expect((await refusal(hop(`http://localhost:${v4.port}/`))).details).toMatchObject({
      rule: "host_denied",
    });
    expect((await refusal(hop(`http://inside.test:${v4.port}/`))).details).toMatchObject({
      rule: "private",
      address: "10.0.0.1",
    });
  });

  it("follows at most five hops, and never a write", async () => {
    const egress = client({
      resolver: noDns,
      policy: { allowAddressClasses: ["public", "loopback"], followRedirects: true },
    });
    const five = await egress.request(`${base}/hop/5`);
    expect(five).toMatchObject({ status: 200, url: `${base}/hop/0` });
    expect(five.redirects).toHaveLength(5);
    expect(five.body.toString()).toBe("arrived");

    const six = await refusal(egress.request(`${base}/hop/6`));
    expect(six.details).toMatchObject({ rule: "redirect_limit", hops: 5, url: `${base}/hop/1` });

    const write = await refusal(egress.request(`${base}/hop/1`, { method: "POST", body: "x" }));
    expect(write.details).toMatchObject({ rule: "redirect_method" });
  });

  it("redirect: manual answers the redirect with its location, whatever the policy, and sends nothing on", async () => {
    for (const followRedirects of [false, true]) {
      const egress = client({ resolver: noDns, policy: { ...testServerOnly, followRedirects } });
      const before = v4.requests.length;
      const url = `${base}/redirect?to=${encodeURIComponent("/elsewhere")}&status=307`;
      const answer = await egress.request(url, { redirect: "manual" });
      expect(answer).toMatchObject({ status: 307, url, redirects: [] });
      expect(answer.headers.location).toBe("/elsewhere");
      expect(v4.requests.slice(before).map((request) => request.path)).toEqual(["/redirect"]);
    }
  });
});

describe("egress: pinning and rebinding", () => {
  it("a name that answers public-allowed and then private never gets a socket to the private address", async () => {
    const { resolver, calls } = scriptedResolver({ "rebind.test": [["127.0.0.1"], ["10.0.0.1"]] });
    const egress = client({ resolver, policy: testServerOnly });
    const connectionsBefore = v4.connections.length;

    const first = await egress.request(`http://rebind.test:${v4.port}/`);
    expect(first).toMatchObject({ status: 200, address: "127.0.0.1" });
    expect(first.body.toString()).toBe("hello from 127.0.0.1");
    // One resolution for the check and none by the connection: the pinned lookup answered it.
    expect(calls).toEqual(["rebind.test"]);

    const second = await refusal(egress.request(`http://rebind.test:${v4.port}/`));
    expect(second.details).toMatchObject({ rule: "private", address: "10.0.0.1" });
    expect(calls).toEqual(["rebind.test", "rebind.test"]);
    const made = v4.connections.slice(connectionsBefore);
    expect(made).toEqual([{ remote: "127.0.0.1", local: "127.0.0.1" }]);
  });

  it("reuses a keep-alive connection for the same address, never for a changed one", async (context) => {
    if (!v6) context.skip();
    const { resolver } = scriptedResolver({ "flip.test": [["127.0.0.1"], ["127.0.0.1"], ["::1"]] });
    const egress = client({ resolver, policy: { allowAddressClasses: ["loopback"] } });
    const v4Before = v4.connections.length;
    const v6Before = v6?.connections.length ?? 0;
    const url = `http://flip.test:${v4.port}/`;

    // A connection returns to its pool a tick after its response ends.
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    expect((await egress.request(url)).address).toBe("127.0.0.1");
    await settle();
    expect((await egress.request(url)).address).toBe("127.0.0.1");
    await settle();
    expect(v4.connections.length - v4Before).toBe(1);

    const moved = await egress.request(url);
    expect(moved).toMatchObject({ address: "::1", headers: { "x-seen-by": "::1" } });
    expect(v4.connections.length - v4Before).toBe(1);
    expect(v6?.connections.slice(v6Before)).toEqual([{ remote: "::1", local: "::1" }]);
  });
});

describe("egress: bounds", () => {
  it("cuts an endless body at the cap while it streams, says so, and closes the connection", async () => {
    const egress = client({ resolver: noDns, policy: { ...testServerOnly, maxResponseBytes: 64 * 1024 } });
    const started = Date.now();
    const response = await egress.request(`${base}/endless`);
    expect(response).toMatchObject({ status: 200, truncated: true, bytesRead: 64 * 1024 });
    expect(response.body.length).toBe(64 * 1024);
    await v4.endlessClosed;
    expect(Date.now() - started).toBeLessThan(5_000);

    const smaller = await egress.request(`${base}/`, { maxResponseBytes: 5 });
    expect(smaller).toMatchObject({ truncated: true, bytesRead: 5 });
    expect(smaller.body.toString()).toBe("hello");
    const whole = await egress.request(`${base}/`);
    expect(whole).toMatchObject({ truncated: false, bytesRead: "hello from 127.0.0.1".length });
  });

  it("ends a request to a server that never answers as a timeout, within bounds", async () => {
    const egress = client({ resolver: noDns, policy: { ...testServerOnly, totalTimeoutMs: 300 } });
    const started = Date.now();
    const failure = await refusal(egress.request(`${base}/hang`));
    expect(failure.envelopeCode).toBe("timeout");
    expect(failure.retryable).toBe(true);
    expect(failure.details).toMatchObject({ url: `${base}/hang`, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("stops when the call's signal aborts", async () => {
    const egress = client({ resolver: noDns, policy: testServerOnly });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const failure = await refusal(egress.request(`${base}/hang`, { signal: controller.signal }));
    expect(failure).toMatchObject({ envelopeCode: "timeout", details: { aborted: true } });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("reports a refused connection as a retryable upstream error", async () => {
    const closed = await startServer("127.0.0.1");
    const port = closed.port;
    await stopServer(closed);
    const egress = client({ resolver: noDns, policy: testServerOnly });
    const failure = await refusal(egress.request(`http://127.0.0.1:${port}/`));
    expect(failure).toMatchObject({ envelopeCode: "upstream_error", retryable: true });
  });
});

describe("egress: a URL's query stays out of failures", () => {
  // A signed URL's signature, or an API key some providers take in the query.
  const SECRET = "sig=s3cr3t-signature&api_key=k3y";
  const shown = (failure: ToolFailure) => `${failure.message} ${JSON.stringify(failure.details)}`;

  it("names the URL by origin and path on a timeout", async () => {
    const egress = client({ resolver: noDns, policy: { ...testServerOnly, totalTimeoutMs: 300 } });
    const failure = await refusal(egress.request(`${base}/hang?${SECRET}#part`));
    expect(failure.envelopeCode).toBe("timeout");
    expect(failure.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hang\?… timed out while/);
    expect(failure.details).toMatchObject({ url: `${base}/hang?…` });
    expect(shown(failure)).not.toMatch(/s3cr3t|k3y|#part/);
  });

  it("names the URL by origin and path when the connection is refused", async () => {
    const closed = await startServer("127.0.0.1");
    await stopServer(closed);
    const egress = client({ resolver: noDns, policy: testServerOnly });
    const failure = await refusal(egress.request(`http://127.0.0.1:${closed.port}/v1/items?${SECRET}`));
    expect(failure.envelopeCode).toBe("upstream_error");
    expect(failure.message).toContain(`the request to http://127.0.0.1:${closed.port}/v1/items?… failed`);
    expect(shown(failure)).not.toMatch(/s3cr3t|k3y/);
  });

  it("names both ends of a refused redirect without their query", async () => {
    const egress = client({ resolver: noDns, policy: testServerOnly });
    const signed = `http://10.0.0.1/logs.txt?${SECRET}`;
    const failure = await refusal(egress.request(`${base}/redirect?to=${encodeURIComponent(signed)}`));
    expect(failure.details).toMatchObject({
      rule: "redirect",
      url: `${base}/redirect?…`,
      location: "http://10.0.0.1/logs.txt?…",
    });
    expect(shown(failure)).not.toMatch(/s3cr3t|k3y/);
  });
});

describe("egress: credentials", () => {
  const secret = "s3cr3t-token-do-not-leak";
  const caller = {
    tenantId: "t1",
    principalId: "p1",
    credentials: {
      resolve: async (ref: string) => {
        if (ref !== "vault:demo") throw new Error(`unknown ref ${ref}, secret ${secret}`);
        return secret;
      },
    },
  };

  it("injects the host's credential, which the server sees and the result never contains", async () => {
    const { resolver } = scriptedResolver({ localhost: [["127.0.0.1"]] });
    const egress = client({
      resolver,
      policy: {
        allowAddressClasses: ["loopback"],
        followRedirects: true,
        credentials: {
          "127.0.0.1": { header: "Authorization", credentialRef: "vault:demo", scheme: "Bearer" },
        },
      },
    });
    const before = v4.requests.length;
    const response = await egress.request(`${base}/`, { caller });
    expect(v4.requests.at(-1)?.headers.authorization).toBe(`Bearer ${secret}`);
    expect(JSON.stringify({ ...response, body: response.body.toString() })).not.toContain(secret);

    // A redirect to another host does not carry the first host's credential.
    await egress.request(`${base}/redirect?to=${encodeURIComponent(`http://localhost:${v4.port}/`)}`, {
      caller,
    });
    const [toFirst, toSecond] = v4.requests.slice(before + 1);
    expect(toFirst?.headers.authorization).toBe(`Bearer ${secret}`);
    expect(toSecond?.headers.authorization).toBeUndefined();
  });

  it("refuses when the credential cannot be resolved, without repeating the resolver's message", async () => {
    const egress = client({
      resolver: noDns,
      policy: {
        ...testServerOnly,
        credentials: { "127.0.0.1": { header: "x-api-key", credentialRef: "vault:gone" } },
      },
    });
    const failure = await refusal(egress.request(`${base}/`, { caller }));
    expect(failure.details).toMatchObject({ rule: "credential_unavailable" });
    expect(failure.message).not.toContain(secret);
    const missing = await refusal(egress.request(`${base}/`));
    expect(missing.details).toMatchObject({ rule: "credential_unavailable" });
    const shadowed = await refusal(egress.request(`${base}/`, { caller, headers: { "X-Api-Key": "mine" } }));
    expect(shadowed.details).toMatchObject({ rule: "credential_header" });
  });
});

describe("checkTarget, for a caller that connects itself", () => {
  const scripted =
    (answers: Record<string, string[]>): Resolver =>
    async (host) =>
      (answers[host] ?? []).map(
        (address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }),
      );

  it("answers the one address to connect to, checked as a request would be", async () => {
    const egress = new EgressClient({
      resolver: scripted({
        "pages.example": ["93.184.216.34"],
        "rebind.example": ["93.184.216.34", "10.0.0.7"],
      }),
    });
    await expect(egress.checkTarget("https://pages.example/a")).resolves.toMatchObject({
      host: "pages.example",
      address: "93.184.216.34",
      family: 4,
    });
    // Every answer is judged, not only the one pinned; a literal and a scheme are judged as request does.
    await expect(egress.checkTarget("https://rebind.example/")).rejects.toMatchObject({
      details: { rule: "private" },
    });
    await expect(egress.checkTarget("http://127.0.0.1:8080/")).rejects.toMatchObject({
      details: { rule: "loopback" },
    });
    await expect(egress.checkTarget("ftp://pages.example/")).rejects.toMatchObject({
      details: { rule: "scheme" },
    });
    await egress.close();
  });
});
