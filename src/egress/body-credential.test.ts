import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { refusal } from "../../test/support/refusal.js";
import { createToolkitHost } from "../tools/toolkit/toolkit-host.js";
import type { Resolver } from "./dns-resolver.js";
import { EgressClient, type EgressRequestInit } from "./egress-client.js";

const SECRET = 'ml-k3y/"quoted"+do-not-leak';
const caller = {
  tenantId: "t1",
  principalId: "p1",
  credentials: {
    resolve: async (ref: string) => {
      if (ref !== "vault:modelslab") throw new Error(`unknown ref ${ref}`);
      return SECRET;
    },
  },
};

interface Seen {
  host: string;
  contentType: string | undefined;
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const clients: EgressClient[] = [];

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    seen.push({ host: request.headers.host ?? "", contentType: request.headers["content-type"], body });
    if (request.url === "/reset") {
      request.socket.destroy();
      return;
    }
    if (request.url === "/echo-body") {
      // An error that quotes the request it was sent, as some vendors' do.
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify({ status: "error", message: `invalid request ${body}` }));
      return;
    }
    if (request.url === "/echo-header") {
      // A server that repeats what it was sent in a header (a debugging proxy): the client must not hand it on.
      const key = (JSON.parse(body) as { key?: string }).key ?? "";
      response.writeHead(200, { "x-echo": `key=${key}` }).end("{}");
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end('{"status":"success"}');
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  seen.length = 0;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  server.closeAllConnections();
  server.close();
});

/** `localhost` answers 127.0.0.1 too: a second host, with no credential. */
const resolver: Resolver = async (host) =>
  host === "localhost" ? [{ address: "127.0.0.1", family: 4 }] : Promise.reject(new Error("no such host"));

function client(): EgressClient {
  const created = new EgressClient({
    resolver,
    policy: {
      allowAddressClasses: ["loopback"],
      credentials: { "127.0.0.1": { bodyField: "key", credentialRef: "vault:modelslab" } },
    },
  });
  clients.push(created);
  return created;
}

const post = (body: string | undefined, init: EgressRequestInit = {}): EgressRequestInit => ({
  method: "POST",
  ...(body === undefined ? {} : { body }),
  caller,
  ...init,
});

describe("a credential placed in the JSON body", () => {
  it("is set as the field on the wire, beside the caller's fields, as JSON", async () => {
    const response = await client().request(
      `${base}/api/v6/images/text2img`,
      post(
        JSON.stringify({
          model_id: "flux",
          prompt: "a lighthouse",
          nested: { key: "inner is the caller's" },
        }),
      ),
    );
    expect(response.status).toBe(200);
    const [sent] = seen;
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      model_id: "flux",
      prompt: "a lighthouse",
      nested: { key: "inner is the caller's" },
      key: SECRET,
    });
    expect(sent?.contentType).toBe("application/json");
  });

  it("adds the field to the caller's bytes as written: big numbers, -0 and spacing reach the vendor unchanged", async () => {
    const body = '{ "seed": 12345678901234567891, "scale": 1e400, "zero": -0 ,\n "empty": {} }\n';
    await client().request(`${base}/x`, post(body));
    expect(seen[0]?.body).toBe(
      `{ "seed": 12345678901234567891, "scale": 1e400, "zero": -0 ,\n "empty": {} ,"key":${JSON.stringify(SECRET)}}\n`,
    );
    await client().request(`${base}/x`, post("{ \n }"));
    expect(JSON.parse(seen[1]?.body ?? "")).toEqual({ key: SECRET });
  });

  it("keeps a JSON content type the caller set, and refuses any other or an encoded body", async () => {
    await client().request(
      `${base}/x`,
      post("{}", { headers: { "content-type": "application/json; charset=utf-8" } }),
    );
    expect(seen[0]?.contentType).toBe("application/json; charset=utf-8");
    const refused: Record<string, string>[] = [
      { "content-type": "application/x-www-form-urlencoded" },
      { "content-type": "multipart/form-data; boundary=x" },
      { "content-type": "text/plain" },
      { "content-type": "application/json; charset=latin1" },
      { "content-encoding": "gzip" },
    ];
    for (const headers of refused) {
      const error = await refusal(client().request(`${base}/x`, post('{"prompt":"x"}', { headers })));
      expect(error.details, JSON.stringify(headers)).toMatchObject({ rule: "credential_body" });
    }
    expect(seen).toHaveLength(1);
  });

  it("is refused when the URL carries a query parameter of the field's name, which a server may read first", async () => {
    for (const query of ["?key=mine", "?KEY=mine", "?%6Bey=mine"]) {
      const error = await refusal(client().request(`${base}/x${query}`, post('{"prompt":"x"}')));
      expect(error.details, query).toMatchObject({ rule: "credential_body" });
    }
    expect(seen).toHaveLength(0);
  });

  it("checks the body before the secret is resolved", async () => {
    let resolved = 0;
    const counting = {
      ...caller,
      credentials: {
        resolve: async () => {
          resolved += 1;
          return SECRET;
        },
      },
    };
    await refusal(client().request(`${base}/x`, post("[]", { caller: counting })));
    expect(resolved).toBe(0);
  });

  it("is refused, with nothing sent, when the request has no JSON object body to carry it", async () => {
    const cases: [string, EgressRequestInit, RegExp][] = [
      ["a GET", { method: "GET", caller }, /has no body/],
      ["a POST without a body", post(undefined), /has no body/],
      ["an empty body", post(""), /has no body/],
      ["text", post("key=value"), /is not JSON/],
      [
        "bytes that are not UTF-8",
        post(undefined, { body: new Uint8Array([0x7b, 0xff, 0x7d]) }),
        /is not JSON/,
      ],
      ["an array", post("[1,2]"), /is not a JSON object/],
      ["null", post("null"), /is not a JSON object/],
      ["a string", post('"key"'), /is not a JSON object/],
    ];
    for (const [what, init, reason] of cases) {
      const error = await refusal(client().request(`${base}/x`, init));
      expect(error.envelopeCode, what).toBe("egress_refused");
      expect(error.details, what).toMatchObject({ rule: "credential_body", field: "key" });
      expect(error.message, what).toMatch(reason);
    }
    expect(seen).toHaveLength(0);
  });

  it("is refused when the caller set the field, in any case or twice", async () => {
    for (const body of ['{"key":"mine"}', '{"KEY":"mine"}', '{"prompt":"x","key":"a","key":"b"}']) {
      const error = await refusal(client().request(`${base}/x`, post(body)));
      expect(error.details, body).toMatchObject({ rule: "credential_body" });
      expect(error.message, body).toMatch(/the caller may not set it/);
    }
    expect(seen).toHaveLength(0);
  });

  it("goes to no other host: a host without the credential gets the caller's body as written", async () => {
    const body = '{"prompt":"x", "spaced":  true}';
    await client().request(`${base.replace("127.0.0.1", "localhost")}/x`, post(body));
    expect(seen[0]).toMatchObject({ host: expect.stringMatching(/^localhost:/), body });
  });

  it("never shows in what the client reports: a failure's message, an echoed header", async () => {
    const reset = await refusal(client().request(`${base}/reset`, post("{}")));
    expect(JSON.stringify({ message: reset.message, details: reset.details })).not.toContain(SECRET);
    const echoed = await client().request(`${base}/echo-header`, post("{}"));
    expect(JSON.parse(seen.at(-1)?.body ?? "").key).toBe(SECRET);
    expect(echoed.headers["x-echo"]).toBe("key=REDACTED");
    // Echoed in the answer's JSON, the key's quotes are escaped there: that spelling is found too.
    const quoted = await client().request(`${base}/echo-body`, post('{"prompt":"x"}'));
    const text = quoted.body.toString("utf8");
    expect(JSON.parse(text).message).toBe('invalid request {"prompt":"x","key":"REDACTED"}');
    expect(text).not.toContain("do-not-leak");
  });

  it("counts toward the request cap once the key is in it", async () => {
    const capped = new EgressClient({
      resolver,
      policy: {
        allowAddressClasses: ["loopback"],
        maxRequestBytes: 20,
        credentials: { "127.0.0.1": { bodyField: "key", credentialRef: "vault:modelslab" } },
      },
    });
    clients.push(capped);
    const error = await refusal(capped.request(`${base}/x`, post('{"prompt":"abc"}')));
    expect(error.details).toMatchObject({ rule: "request_body_size", limit: 20 });
    expect(seen).toHaveLength(0);
  });

  it("is placed by a toolkit host's egress for the hosts its credential is bound to", async () => {
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    try {
      const egress = host.egress({
        hosts: ["127.0.0.1"],
        credential: { bodyField: "key", credentialRef: "vault:modelslab" },
      });
      await egress.request(`${base}/x`, post('{"prompt":"x"}'));
      expect(JSON.parse(seen[0]?.body ?? "")).toEqual({ prompt: "x", key: SECRET });
    } finally {
      await host.close();
    }
  });
});
