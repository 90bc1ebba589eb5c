import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CliIo } from "./cli-io.js";
import { ConfigFileSchema, DEFAULT_AUTH_FAILURES, loadSettings } from "./config-file.js";

let cwd: string;
let io: CliIo;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-config-"));
  io = { cwd, env: {}, stdout: () => {}, stderr: () => {} };
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function write(name: string, body: unknown): void {
  writeFileSync(join(cwd, name), typeof body === "string" ? body : JSON.stringify(body, null, 2));
}

describe("the config file", () => {
  it("is optional: without one there are no rate limits, and failed authentication is throttled at 20 a minute", () => {
    expect(loadSettings({}, io)).toEqual({
      rateLimits: [],
      authFailures: DEFAULT_AUTH_FAILURES,
      trustProxy: 0,
      corsOrigins: [],
      onAuditFailure: "refuse",
      drainMs: 30_000,
    });
    expect(DEFAULT_AUTH_FAILURES).toEqual({ limit: 20, windowMs: 60_000 });
  });

  it("is read from ./toolreg.config.json, rules as strings or objects, and --rate-limit rules are added to its", () => {
    write("toolreg.config.json", {
      $schema: "./docs/toolreg.config.schema.json",
      rateLimits: [
        "principal=100/min",
        { per: "tenant", tool: "crm_write", rate: "1000/hour", burst: 50 },
        { per: "principal", principal: "agent-7", rate: "20/min" },
      ],
      authFailures: { rate: "5/10s" },
      trustProxy: true,
      onAuditFailure: "alert",
      drainMs: 5_000,
    });
    expect(loadSettings({ rateLimit: ["tool:crm_write=10/min"] }, io)).toEqual({
      rateLimits: [
        { per: "principal", limit: 100, windowMs: 60_000 },
        { per: "tenant", tool: "crm_write", limit: 1000, windowMs: 3_600_000, burst: 50 },
        { per: "principal", principal: "agent-7", limit: 20, windowMs: 60_000 },
        { per: "tool", tool: "crm_write", limit: 10, windowMs: 60_000 },
      ],
      authFailures: { limit: 5, windowMs: 10_000 },
      trustProxy: 1,
      corsOrigins: [],
      onAuditFailure: "alert",
      drainMs: 5_000,
    });
  });

  it("is the file --config names instead, which must exist", () => {
    write("toolreg.config.json", { rateLimits: ["principal=1/min"] });
    write("limits.json", {
      rateLimits: ["tenant=2/min"],
      authFailures: false,
      trustProxy: 2,
      toolkits: [{ toolkit: "general", exclude: ["sleep"] }],
    });
    expect(loadSettings({ config: "limits.json" }, io)).toEqual({
      toolkits: [{ toolkit: "general", exclude: ["sleep"] }],
      rateLimits: [{ per: "tenant", limit: 2, windowMs: 60_000 }],
      authFailures: false,
      trustProxy: 2,
      corsOrigins: [],
      onAuditFailure: "refuse",
      drainMs: 30_000,
    });
    expect(() => loadSettings({ config: "missing.json" }, io)).toThrow("--config missing.json: no such file");
  });

  it("keeps the rate limits in the Redis the file or --redis names, the flag's URL replacing the file's", () => {
    write("toolreg.config.json", { redis: { url: "redis://10.0.0.5:6379", onUnavailable: "deny" } });
    expect(loadSettings({}, io).redis).toEqual({ url: "redis://10.0.0.5:6379", onUnavailable: "deny" });
    expect(loadSettings({ redis: "redis://127.0.0.1:6380" }, io).redis).toEqual({
      url: "redis://127.0.0.1:6380",
      onUnavailable: "deny",
    });
    write("toolreg.config.json", { redis: "redis://127.0.0.1:6379" });
    expect(loadSettings({}, io).redis).toEqual({ url: "redis://127.0.0.1:6379" });
    expect(() => loadSettings({ redis: "127.0.0.1:6379" }, io)).toThrow(
      '--redis "127.0.0.1:6379": give a URL, e.g. redis://127.0.0.1:6379',
    );
    write("toolreg.config.json", { redis: { url: "redis://127.0.0.1:6379", onUnavailable: "allow" } });
    expect(() => loadSettings({}, io)).toThrow(/redis/);
  });

  it("names where the state lives, a file or a postgres:// URL", () => {
    write("toolreg.config.json", { store: "postgres://toolreg@db:5432/prod?schema=acme" });
    expect(loadSettings({}, io).store).toBe("postgres://toolreg@db:5432/prod?schema=acme");
    write("toolreg.config.json", { store: "" });
    expect(() => loadSettings({}, io)).toThrow(/store/);
  });

  it("names the bus the instances share in the file or --nats, the flag's URL replacing the file's", () => {
    write("toolreg.config.json", { nats: { url: "nats://10.0.0.5:4222", subjectPrefix: "acme.prod" } });
    expect(loadSettings({}, io).nats).toEqual({ url: "nats://10.0.0.5:4222", subjectPrefix: "acme.prod" });
    expect(loadSettings({ nats: "nats://127.0.0.1:4223" }, io).nats).toEqual({
      url: "nats://127.0.0.1:4223",
      subjectPrefix: "acme.prod",
    });
    write("toolreg.config.json", { nats: "nats://a:4222,nats://b:4222" });
    expect(loadSettings({}, io).nats).toEqual({ url: "nats://a:4222,nats://b:4222" });
    expect(() => loadSettings({ nats: "127.0.0.1:4222" }, io)).toThrow(
      '--nats "127.0.0.1:4222": give a URL, e.g. nats://127.0.0.1:4222',
    );
    write("toolreg.config.json", { nats: { url: "nats://127.0.0.1:4222", subjectPrefix: "a b" } });
    expect(() => loadSettings({}, io)).toThrow(/nats/);
  });

  it("lets serve's flags replace the file's failed-authentication settings", () => {
    write("toolreg.config.json", { authFailures: { rate: "5/min" }, trustProxy: 1 });
    expect(loadSettings({ authFailures: "off", trustProxy: "0" }, io)).toMatchObject({
      authFailures: false,
      trustProxy: 0,
    });
    expect(loadSettings({ authFailures: "50/hour" }, io).authFailures).toEqual({
      limit: 50,
      windowMs: 3_600_000,
    });
    expect(() => loadSettings({ authFailures: "many" }, io)).toThrow(/--auth-failures "many": .* or off/);
    expect(() => loadSettings({ trustProxy: "yes" }, io)).toThrow(/--trust-proxy "yes"/);
  });

  it("lets the flags replace the file's audit-failure mode and drain", () => {
    write("toolreg.config.json", { onAuditFailure: "alert", drainMs: 1_000 });
    expect(loadSettings({ onAuditFailure: "refuse", drainMs: "250" }, io)).toMatchObject({
      onAuditFailure: "refuse",
      drainMs: 250,
    });
    expect(() => loadSettings({ drainMs: "soon" }, io)).toThrow(/--drain-ms "soon": give milliseconds/);
    write("toolreg.config.json", { onAuditFailure: "ignore" });
    expect(() => loadSettings({}, io)).toThrow(/toolreg\.config\.json: onAuditFailure: /);
  });

  it("names the file and the JSON path of every mistake, on one line", () => {
    write("toolreg.config.json", {
      rateLimits: [
        "principal=100/min",
        { per: "tool", tool: "crm_write", rate: "10/min", burst: 20 },
        "principals=1/min",
        { per: "tool", rate: "ten a minute" },
        5,
      ],
      authFailures: true,
    });
    let message = "";
    try {
      loadSettings({}, io);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      [
        "toolreg.config.json: rateLimits[1]: burst=20 must be from 1 to the count, 10",
        'rateLimits[2]: unknown level "principals": use tenant, principal or tool',
        'rateLimits[3].rate: "ten a minute" is not a rate: write COUNT/WINDOW, e.g. 100/min, 5/10s or 1000/hour',
        "rateLimits[4]: expected string or object",
        "authFailures: expected false or object",
      ].join("; "),
    );
  });

  it("takes CORS origins from the file and --cors-origin together, refusing what is not an origin by where it is", () => {
    write("toolreg.config.json", { corsOrigins: ["https://app.example"] });
    expect(
      loadSettings({ corsOrigin: ["http://localhost:5173", "https://app.example/"] }, io).corsOrigins,
    ).toEqual(["https://app.example", "http://localhost:5173"]);
    expect(() => loadSettings({ corsOrigin: ["https://app.example/mcp"] }, io)).toThrow(
      /^--cors-origin: .*not an origin/,
    );
    write("toolreg.config.json", { corsOrigins: ["*"] });
    expect(() => loadSettings({}, io)).toThrow(/^corsOrigins in the config file: .*not an origin/);
  });

  it("refuses a key it does not know, saying which keys it holds", () => {
    write("toolreg.config.json", { rateLimits: [], plugins: ["crm"] });
    expect(() => loadSettings({}, io)).toThrow(
      'toolreg.config.json: unknown key "plugins" (a config file holds $schema, toolkits, toolsets, rateLimits, redis, store, nats, authFailures, trustProxy, corsOrigins, onAuditFailure, drainMs, egress)',
    );
    write("toolreg.config.json", { rateLimits: [{ per: "tool", rate: "1/min", tools: ["a"] }] });
    expect(() => loadSettings({}, io)).toThrow('toolreg.config.json: rateLimits[0]: unknown key "tools"');
  });

  it("refuses a file that is not JSON, and a bad --rate-limit, naming it", () => {
    write("toolreg.config.json", "{ rateLimits: [] }");
    expect(() => loadSettings({}, io)).toThrow(/^toolreg\.config\.json: .*JSON/);
    rmSync(join(cwd, "toolreg.config.json"));
    expect(() => loadSettings({ rateLimit: ["principal=100/fortnight"] }, io)).toThrow(
      '--rate-limit "principal=100/fortnight": unknown unit "fortnight": use s, min, hour or day',
    );
  });
});

describe("docs/toolreg.config.schema.json", () => {
  it("is the JSON Schema generated from ConfigFileSchema (UPDATE_GOLDEN=1 rewrites it)", () => {
    const path = fileURLToPath(new URL("../../docs/toolreg.config.schema.json", import.meta.url));
    const generated = z.toJSONSchema(ConfigFileSchema, { io: "input" });
    if (process.env.UPDATE_GOLDEN === "1") {
      writeFileSync(path, JSON.stringify(generated));
      // In the layout `npm run lint` holds every JSON file to.
      execFileSync(fileURLToPath(new URL("../../node_modules/.bin/biome", import.meta.url)), [
        "format",
        "--write",
        path,
      ]);
    }
    expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(generated);
  });
});
