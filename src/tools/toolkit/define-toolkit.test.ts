import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { credentialNeedOf } from "../../seam/consent/credential-need.js";
import { createTestHarness } from "../../test/test-harness.js";
import { defineToolkit, toolFor } from "./define-toolkit.js";
import { createToolkitHost } from "./toolkit-host.js";

interface Env {
  greeting: string;
  loud?: boolean;
}
const tool = toolFor<Env>();
let binds = 0;

const hello = tool({
  name: "say_hello",
  description: "Greets someone by name.",
  category: "general",
  effect: "read",
  input: z.object({ name: z.string().max(20) }),
  run: ({ name }, _context, { greeting }) => `${greeting}, ${name}`,
});
const shout = tool({
  name: "shout_hello",
  description: "Greets someone loudly.",
  category: "general",
  effect: "read",
  available: (env) => env.loud === true,
  input: z.object({ name: z.string().max(20) }),
  run: ({ name }, _context, { greeting }) => `${greeting.toUpperCase()}, ${name.toUpperCase()}!`,
});

const greetings = defineToolkit({
  id: "greetings",
  version: "1.0.0",
  package: "greetings-toolkit",
  description: "Greets people.",
  config: z.strictObject({ greeting: z.string().min(1).optional(), loud: z.boolean().optional() }),
  auth: { kind: "none" },
  tools: [hello, shout],
  bind: ({ greeting, loud }) => {
    binds++;
    return greeting === undefined ? undefined : { greeting, loud };
  },
});

describe("defineToolkit", () => {
  it("declares its tools as data, without binding, and refuses to run them unbound", async () => {
    const before = binds;
    const declared = greetings.declarations();
    expect(declared.map((t) => t.name)).toEqual(["say_hello", "shout_hello"]);
    expect(declared[0]?.provenance).toBe("package:greetings-toolkit");
    expect(binds).toBe(before);
    const { seam, context } = createTestHarness(declared, { clock: Date.now });
    expect(await seam.call(context(), "say_hello", { name: "Ada" })).toMatchObject({
      ok: false,
      error: {
        code: "precondition_failed",
        message: expect.stringContaining("greetings toolkit is declared here but not configured"),
      },
    });
  });

  it("builds the tools the bound environment supports, with the same declarations", async () => {
    const host = createToolkitHost();
    const quiet = await greetings.build({ greeting: "Hello" }, host);
    expect(quiet.map((t) => t.name)).toEqual(["say_hello"]);
    expect(quiet[0]?.hash).toBe(greetings.declarations()[0]?.hash);
    const loud = await greetings.build({ greeting: "Hello", loud: true }, host);
    const { seam, context } = createTestHarness(loud, { clock: Date.now });
    expect(await seam.call(context(), "shout_hello", { name: "Ada" })).toMatchObject({
      ok: true,
      content: "HELLO, ADA!",
    });
    expect(await greetings.build({}, host)).toEqual([]);
  });

  it("narrows by include and exclude, and names a tool it does not have", async () => {
    const host = createToolkitHost();
    const config = { greeting: "Hi", loud: true };
    expect((await greetings.build(config, host, { exclude: ["say_hello"] })).map((t) => t.name)).toEqual([
      "shout_hello",
    ]);
    expect((await greetings.build(config, host, { include: ["say_hello"] })).map((t) => t.name)).toEqual([
      "say_hello",
    ]);
    await expect(greetings.build(config, host, { include: ["wave"] })).rejects.toThrow(
      "toolkit greetings: it has no tool named wave",
    );
  });

  it("refuses a configuration its schema refuses, naming each field", async () => {
    await expect(greetings.build({ greeting: "", loud: "yes" }, createToolkitHost())).rejects.toThrow(
      /toolkit greetings: greeting: .*; loud: /,
    );
  });

  it("refuses a bad toolkit when it is defined: no tools, a name declared twice, a bad tool", () => {
    const base = {
      version: "1.0.0",
      package: "p",
      description: "d",
      config: z.strictObject({}),
      auth: { kind: "none" } as const,
      bind: () => ({ greeting: "x" }),
    };
    expect(() => defineToolkit({ ...base, id: "empty", tools: [] })).toThrow(/declares no tool/);
    expect(() => defineToolkit({ ...base, id: "twice", tools: [hello, hello] })).toThrow(
      /declares say_hello twice/,
    );
    expect(() => defineToolkit({ ...base, id: "Bad-Id", tools: [hello] })).toThrow(/snake_case/);
    expect(() =>
      defineToolkit({ ...base, id: "badtool", tools: [{ ...hello, effect: "launch" as never }] }),
    ).toThrow(/effect/);
  });

  it("takes the declarations of a bound environment from toolsFor, and refuses one it did not declare", () => {
    const variant = (greeting: string) =>
      tool({ ...hello, description: `Greets someone with "${greeting}".` });
    const varying = defineToolkit({
      id: "varying",
      version: "1.0.0",
      package: "p",
      description: "d",
      config: z.strictObject({}),
      auth: { kind: "none" },
      tools: [variant("Hello")],
      toolsFor: ({ greeting }: Env) => [
        greeting === "rogue" ? { ...hello, name: "rogue_tool" } : variant(greeting),
      ],
      bind: () => ({ greeting: "Hi" }),
    });
    expect(varying.withEnv({ greeting: "Bonjour" })[0]?.description).toBe('Greets someone with "Bonjour".');
    expect(varying.declarations()[0]?.description).toBe('Greets someone with "Hello".');
    expect(() => varying.withEnv({ greeting: "rogue" })).toThrow(
      /gives rogue_tool, which the toolkit does not declare/,
    );
  });

  it("gives its built tools the OAuth endpoints its configuration names, and leaves its declarations as declared", async () => {
    const declared = {
      authorizeUrl: "https://vendor.example/authorize",
      tokenUrl: "https://vendor.example/token",
    };
    const hosted = defineToolkit({
      id: "hosted",
      version: "1.0.0",
      package: "hosted-toolkit",
      description: "A vendor an operator may host themselves.",
      config: z.strictObject({ web: z.url().default("https://vendor.example") }),
      auth: { kind: "token-or-oauth", header: "authorization", scheme: "Bearer", oauth: declared },
      oauthEndpoints: ({ web }) => ({ authorizeUrl: `${web}/authorize`, tokenUrl: `${web}/token` }),
      tools: [{ ...hello, oauthScopes: ["greet"] }],
      bind: (_config, host) => {
        host.egress({
          hosts: ["vendor.example"],
          credential: { header: "authorization", scheme: "Bearer", credentialRef: "hosted" },
        });
        return { greeting: "Hello" };
      },
    });
    const host = createToolkitHost();
    const [own] = await hosted.build({ web: "https://vendor.corp.example" }, host);
    expect(credentialNeedOf(own ?? {})).toEqual({
      provider: "hosted",
      credentialRef: "hosted",
      auth: "token-or-oauth",
      oauth: {
        authorizeUrl: "https://vendor.corp.example/authorize",
        tokenUrl: "https://vendor.corp.example/token",
      },
      scopes: ["greet"],
      impliedScopes: {},
    });
    const [byDefault] = await hosted.build({}, host);
    expect(credentialNeedOf(byDefault ?? {})?.oauth).toEqual(declared);
    // The declarations are data for a catalogue: no configuration, so no endpoints, and the toolkit's own auth unchanged.
    expect(credentialNeedOf(hosted.declarations()[0] ?? {})).toBeUndefined();
    expect(hosted.auth).toMatchObject({ oauth: declared });
    await host.close();
  });
});

describe("the toolkit host's egress", () => {
  let server: Server;
  let port = 0;
  const seen: (string | undefined)[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("reaches only the toolkit's hosts, with its credential injected there", async () => {
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    const egress = host.egress({
      hosts: ["127.0.0.1"],
      credential: { header: "authorization", scheme: "Bearer", credentialRef: "vendor" },
    });
    const caller = {
      tenantId: "t",
      principalId: "p",
      credentials: { resolve: async (ref: string) => `secret-of-${ref}` },
    };
    expect((await egress.request(`http://127.0.0.1:${port}/`, { caller })).status).toBe(200);
    expect(seen.at(-1)).toBe("Bearer secret-of-vendor");
    await expect(egress.request(`http://localhost:${port}/`, { caller })).rejects.toMatchObject({
      envelopeCode: "egress_refused",
    });
    expect(() => host.egress({ credential: { header: "authorization", credentialRef: "vendor" } })).toThrow(
      /bound to the hosts/,
    );
    await host.close();
  });
});
