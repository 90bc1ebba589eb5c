import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import { failure } from "../seam/envelope.js";
import { defineToolkit } from "../tools/toolkit/define-toolkit.js";
import { createToolkitHost } from "../tools/toolkit/toolkit-host.js";
import type { Resolver } from "./dns-resolver.js";
import { EgressClient, type EgressClientOptions, type EgressResponse } from "./egress-client.js";
import { resolveEgressPolicy } from "./egress-policy.js";
import { scrubBodySecrets } from "./query-credential.js";

// Spans are recorded, so a test can read what telemetry was told.
const spans = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));

/** Characters a URL encodes, so every spelling of the key is looked for. */
const SECRET = "0wk3y/s3cr3t+do-not-leak";
const caller = {
  tenantId: "t1",
  principalId: "p1",
  credentials: {
    resolve: async (ref: string) => {
      if (ref !== "vault:weather") throw new Error(`unknown ref ${ref}`);
      return SECRET;
    },
  },
};

/** Every place a leaked secret could show: raw, percent-encoded, form-encoded, decoded. */
function leaks(text: string): boolean {
  const forms = [SECRET, encodeURIComponent(SECRET), encodeURIComponent(SECRET).replace(/%20/g, "+")];
  return forms.some((form) => text.toLowerCase().includes(form.toLowerCase()));
}

/** A response as a tool would report it, everything but the raw socket. */
function reported(response: EgressResponse): string {
  return JSON.stringify({ ...response, body: response.body.toString() });
}

/** A thrown failure as far as anything reads it: the envelope the seam makes, the message, stack and cause. */
async function refusal(promise: Promise<unknown>): Promise<{ error: ToolFailure; shown: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  const envelope = failure(error.envelopeCode, error.message, { details: error.details });
  const cause = error.cause instanceof Error ? `${error.cause.message} ${error.cause.stack}` : "";
  return { error, shown: `${JSON.stringify(envelope)} ${error.stack} ${cause}` };
}

interface Seen {
  host: string;
  url: string;
}

let server: Server;
let port: number;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://local");
    seen.push({ host: request.headers.host ?? "", url: request.url ?? "" });
    if (url.pathname === "/redirect") {
      // Echoes the query it was sent (the key among it), as some servers' redirects do.
      const to = (url.searchParams.get("to") ?? "/").replace("{key}", url.searchParams.get("appid") ?? "");
      response.writeHead(302, { location: to, "x-request-url": request.url ?? "" }).end();
      return;
    }
    if (url.pathname === "/reset") {
      request.socket.destroy();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain", "x-request-url": request.url ?? "" });
    response.end("forecast");
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
  spans.reset();
});

/** `localhost` answers 127.0.0.1 too: a second host, with no credential. */
const resolver: Resolver = async (host) =>
  host === "localhost" ? [{ address: "127.0.0.1", family: 4 }] : Promise.reject(new Error("no such host"));

function client(policy: EgressClientOptions["policy"] = {}): EgressClient {
  const created = new EgressClient({
    resolver,
    policy: {
      allowAddressClasses: ["loopback"],
      credentials: { "127.0.0.1": { query: "appid", credentialRef: "vault:weather" } },
      ...policy,
    },
  });
  clients.push(created);
  return created;
}

describe("a credential placed in the query", () => {
  it("is appended on the wire only; the caller's query keeps its encoding; nothing reported holds it", async () => {
    const egress = client();
    const response = await egress.request(`${base}/data/2.5/forecast?q=S%C3%A3o%20Paulo&units=metric`, {
      caller,
    });
    expect(response.status).toBe(200);
    const sent = new URL(seen.at(-1)?.url ?? "", "http://local");
    expect(sent.searchParams.getAll("appid")).toEqual([SECRET]);
    expect(seen.at(-1)?.url).toMatch(/^\/data\/2\.5\/forecast\?q=S%C3%A3o%20Paulo&units=metric&appid=/);
    expect(response.url).toBe(`${base}/data/2.5/forecast?q=S%C3%A3o%20Paulo&units=metric`);
    // The server echoed the request line in a header: it is redacted there too.
    expect(response.headers["x-request-url"]).toContain("appid=REDACTED");
    expect(leaks(reported(response))).toBe(false);
  });

  it("tells telemetry the URL without it", async () => {
    const egress = client();
    await egress.request(`${base}/data/2.5/forecast?lat=1&lon=2`, { caller });
    const [span] = spans.getFinishedSpans();
    expect(span?.attributes["url.full"]).toBe(`${base}/data/2.5/forecast?…`);
    expect(leaks(JSON.stringify(spans.getFinishedSpans().map((finished) => finished.attributes)))).toBe(
      false,
    );
  });

  it("refuses a caller-given parameter of that name, in any case or encoding, before resolving anything", async () => {
    const egress = client();
    const before = seen.length;
    for (const given of ["appid=mine", "APPID=mine", "%61ppid=mine", "q=x&appid"]) {
      const { error, shown } = await refusal(egress.request(`${base}/data?${given}`, { caller }));
      expect(error.details).toMatchObject({ rule: "credential_query", parameter: "appid" });
      expect(error.message).toContain("the appid query parameter carries the deployment's credential");
      expect(leaks(shown)).toBe(false);
    }
    expect(seen.length).toBe(before);
    // A host without the query credential takes the parameter as any other.
    const other = await egress.request(`http://localhost:${port}/data?appid=theirs`, { caller });
    expect(other.status).toBe(200);
    expect(seen.at(-1)?.url).toBe("/data?appid=theirs");
  });

  it("on a followed redirect that echoes it back, sets it afresh and reports the hop without it", async () => {
    const egress = client({ followRedirects: true });
    const to = encodeURIComponent("/data/2.5/forecast?appid={key}&id=1");
    const response = await egress.request(`${base}/redirect?to=${to}`, { caller });
    expect(response.status).toBe(200);
    const last = new URL(seen.at(-1)?.url ?? "", "http://local");
    expect(last.pathname).toBe("/data/2.5/forecast");
    expect(last.searchParams.getAll("appid")).toEqual([SECRET]);
    expect(response.url).toBe(`${base}/data/2.5/forecast?id=1`);
    expect(response.redirects).toEqual([`${base}/redirect?to=${to}`]);
    expect(leaks(reported(response))).toBe(false);
  });

  it("refuses to follow a redirect that would carry it to another host, or keep it in the path", async () => {
    const egress = client({ followRedirects: true });
    const before = seen.length;
    for (const to of [`http://localhost:${port}/x?appid={key}`, "/keys/{key}/forecast"]) {
      const { error, shown } = await refusal(
        egress.request(`${base}/redirect?to=${encodeURIComponent(to)}`, { caller }),
      );
      expect(error.details).toMatchObject({ rule: "redirect_credential" });
      expect(leaks(shown)).toBe(false);
    }
    // Only the two redirects themselves were asked; neither location was.
    expect(seen.slice(before).map((request) => new URL(request.url, "http://local").pathname)).toEqual([
      "/redirect",
      "/redirect",
    ]);
  });

  it("keeps it out of a redirect that is not followed, and out of a manual redirect's location", async () => {
    const refused = await refusal(
      client().request(`${base}/redirect?to=${encodeURIComponent("/keys/{key}/x?appid={key}")}`, { caller }),
    );
    expect(refused.error.details).toMatchObject({ rule: "redirect", location: `${base}/…` });
    expect(leaks(refused.shown)).toBe(false);

    const manual = await client().request(`${base}/redirect?to=${encodeURIComponent("/next?appid={key}")}`, {
      caller,
      redirect: "manual",
    });
    expect(manual.status).toBe(302);
    expect(manual.headers.location).toBe("/next?appid=REDACTED");
    expect(leaks(reported(manual))).toBe(false);
  });

  it("keeps it out of a failed request's error", async () => {
    const { error, shown } = await refusal(client().request(`${base}/reset?q=1`, { caller }));
    expect(error.envelopeCode).toBe("upstream_error");
    expect(error.details).toMatchObject({ url: `${base}/reset?…` });
    expect(leaks(shown)).toBe(false);
  });

  it("comes through a toolkit host as { query }", async () => {
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    const egress = host.egress({
      hosts: ["127.0.0.1"],
      credential: { query: "api_key", credentialRef: "vault:weather" },
    });
    await egress.request(`${base}/esearch.fcgi?db=pubmed`, { caller });
    expect(new URL(seen.at(-1)?.url ?? "", "http://local").searchParams.get("api_key")).toBe(SECRET);
    await host.close();
  });
});

describe("a credential placement is checked", () => {
  const policy = (credential: unknown) => () =>
    resolveEgressPolicy({ credentials: { "api.example.com": credential as never } });

  it("takes one of a header, a query parameter or a body field, each name of unreserved characters", () => {
    expect(policy({ query: "appid", credentialRef: "r" })).not.toThrow();
    expect(policy({ header: "x-api-key", credentialRef: "r" })).not.toThrow();
    expect(policy({ bodyField: "key", credentialRef: "r" })).not.toThrow();
    const one = "needs one place for the credential";
    expect(policy({ header: "x-api-key", query: "appid", credentialRef: "r" })).toThrow(one);
    expect(policy({ query: "appid", bodyField: "key", credentialRef: "r" })).toThrow(one);
    expect(policy({ header: "x-api-key", bodyField: "key", credentialRef: "r" })).toThrow(one);
    expect(policy({ credentialRef: "r" })).toThrow(one);
    for (const name of ["", "app id", "appid&x=1", "a=b", "%61ppid", "x".repeat(65)]) {
      expect(policy({ query: name, credentialRef: "r" })).toThrow("the query parameter must be a name");
      expect(policy({ bodyField: name, credentialRef: "r" })).toThrow("the body field must be a name");
    }
    expect(policy({ query: "appid", scheme: "Bearer", credentialRef: "r" })).toThrow("takes no scheme");
    expect(policy({ bodyField: "key", scheme: "Bearer", credentialRef: "r" })).toThrow("takes no scheme");
    expect(policy({ query: "appid" })).toThrow("needs a credentialRef");
  });

  it("in a toolkit's auth model, when it is defined", () => {
    const define = (auth: unknown) => () =>
      defineToolkit({
        id: "probe",
        version: "1.0.0",
        package: "toolreg",
        description: "a probe",
        config: { safeParse: () => ({ success: true, data: {} }) } as never,
        auth: auth as never,
        tools: [],
        bind: () => ({}),
      });
    expect(define({ kind: "api-key", header: "x-api-key", query: "appid" })).toThrow(/auth.*one place/);
    // A body field passes the auth check and the definition goes on to the next (it has no tools).
    expect(define({ kind: "api-key", bodyField: "key" })).toThrow(/declares no tool/);
  });
});

describe("a secret echoed in a response body", () => {
  const key = 'k3y/"x"+1';
  const scrub = (text: string | Buffer) =>
    scrubBodySecrets(Buffer.isBuffer(text) ? text : Buffer.from(text), [key]).toString("latin1");

  it("is redacted as sent, JSON-escaped once or twice, PHP's escaped slash, or percent-encoded", () => {
    for (const echoed of [
      key,
      JSON.stringify(key).slice(1, -1),
      JSON.stringify(JSON.stringify(key).slice(1, -1)).slice(1, -1),
      'k3y\\/\\"x\\"+1',
      encodeURIComponent(key),
      encodeURIComponent(key).replace(/%2F/g, "%2f"),
    ]) {
      expect(scrub(`before ${echoed} after`), echoed).toBe("before REDACTED after");
    }
  });

  it("leaves everything else byte for byte, binary included", () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x2f, 0x22]);
    expect(scrubBodySecrets(binary, [key]).equals(binary)).toBe(true);
    expect(scrub('k3y/x+1 and K3Y/"x"+1')).toBe('k3y/x+1 and K3Y/"x"+1');
  });
});
