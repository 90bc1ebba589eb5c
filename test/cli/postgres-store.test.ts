/**
 * `toolreg` on a postgres:// store: keys made and revoked by one process are honoured and refused by a
 * server in another, calls keep their trail in the schema, and a bad schema or NATS URL stops it early.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dropSchema, freshSchema, POSTGRES_URL } from "../support/postgres-schema.js";
import { startServe } from "../support/serve-process.js";
import { postgresAvailable } from "../support/sql.js";
import { runToolreg } from "./run-cli.js";

const reachable = await postgresAvailable("CLI store tests");

const schema = freshSchema();
const store = `${POSTGRES_URL}?schema=${schema}`;
let cwd: string;
let server: ChildProcess | undefined;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-pg-cli-"));
});
afterEach(async () => {
  await stopServer();
});
afterAll(async () => {
  rmSync(cwd, { recursive: true, force: true });
  if (reachable) await dropSchema(schema);
});

const toolreg = (...args: string[]) => runToolreg(["--db", store, ...args], cwd);

/** `toolreg serve` on the store until it says where it listens. */
async function serve(...args: string[]): Promise<string> {
  const started = await startServe(cwd, { args: ["--store", store, ...args] });
  server = started.child;
  return started.url;
}

/** SIGTERM, as an orchestrator stops it, and the exit it ends with. */
async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
}

const manifestStatus = async (url: string, key: string) =>
  (await fetch(`${url}/manifest.json`, { headers: { authorization: `Bearer ${key}` } })).status;

describe.runIf(reachable)("toolreg on a PostgreSQL store", () => {
  it("serves the keys another process makes, and refuses one another process revokes within its second", async () => {
    const created = await toolreg("keys", "create", "--tenant", "acme", "--principal", "bot");
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    const listed = await toolreg("keys", "list", "--json");
    expect(listed.code).toBe(0);
    const keys = JSON.parse(listed.stdout) as { id: string; tenantId: string; principalId: string }[];
    const record = keys.find((entry) => entry.tenantId === "acme" && entry.principalId === "bot");
    expect(record).toBeDefined();
    expect(key).toContain(record?.id);

    const url = await serve();
    const manifest = await fetch(`${url}/manifest.json`, { headers: { authorization: `Bearer ${key}` } });
    expect(manifest.status).toBe(200);
    const { tools } = (await manifest.json()) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["calculate", "find_tools"]));

    const revoked = await toolreg("keys", "revoke", record?.id as string);
    expect(revoked.code).toBe(0);
    // The server remembers a verified key for at most a second; the revocation is in the shared store.
    await expect.poll(() => manifestStatus(url, key), { timeout: 1_100, interval: 50 }).toBe(401);
  });

  it("calls a tool with its trail kept in the schema", async () => {
    const called = await toolreg("call", "calculate", "--input", JSON.stringify({ expression: "6*7" }));
    expect(called.code).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, data: { number: 42 } });
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      const trail = await client.query(`SELECT tool FROM "${schema}".audit WHERE tool = 'calculate'`);
      expect(trail.rowCount).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it("finds the store the config file names when neither --db nor $TOOLREG_DB does", async () => {
    const made = await toolreg("keys", "create", "--tenant", "acme", "--principal", "configured");
    expect(made.code).toBe(0);
    writeFileSync(join(cwd, "toolreg.config.json"), JSON.stringify({ store }));
    try {
      const listed = await runToolreg(["keys", "list", "--json"], cwd);
      expect(listed.code).toBe(0);
      const keys = JSON.parse(listed.stdout) as { principalId: string }[];
      expect(keys.map((key) => key.principalId)).toContain("configured");
    } finally {
      rmSync(join(cwd, "toolreg.config.json"));
    }
  });

  it("refuses a schema name that is not lower-case letters, digits and _, naming it", async () => {
    const result = await runToolreg(["--db", `${POSTGRES_URL}?schema=Bad-Name`, "keys", "list"], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"Bad-Name"');
  });

  it("refuses a --nats that is not a URL before opening anything", async () => {
    const result = await runToolreg(
      ["serve", "--store", store, "--port", "0", "--nats", "127.0.0.1:4222"],
      cwd,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--nats");
    expect(result.stdout).not.toContain("toolreg registry on");
  });

  it("does not start when NATS does not answer, and leaves nothing listening", async () => {
    const result = await runToolreg(
      ["serve", "--store", store, "--port", "0", "--nats", "nats://127.0.0.1:1"],
      cwd,
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("NATS at nats://127.0.0.1:1 did not answer");
    // The process has ended (runToolreg waits for it) without ever listening.
    expect(result.stdout).not.toContain("toolreg registry on");
  });
});
