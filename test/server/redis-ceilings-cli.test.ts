import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI, runToolreg } from "../cli/run-cli.js";

const REDIS_URL = process.env.TOOLREG_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The operators' tenant, new each run: the counters the servers keep in Redis are this run's alone. */
const TENANT = `test-${randomUUID()}`;

const admin = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
admin.on("error", () => {});
const reachable = await admin.connect().then(
  () => true,
  () => false,
);
if (!reachable && process.env.CI === "true") {
  throw new Error(`Redis is not reachable at ${REDIS_URL}: under CI serve --redis must be tested`);
}
if (!reachable) console.warn(`skipping the serve --redis tests: nothing answers at ${REDIS_URL}`);

afterAll(async () => {
  if (!reachable) return;
  let cursor = "0";
  do {
    const [next, keys] = await admin.scan(cursor, "MATCH", `toolreg:ceilings:*${TENANT}*`, "COUNT", 1_000);
    if (keys.length > 0) await admin.del(...keys);
    cursor = next;
  } while (cursor !== "0");
  await admin.quit();
});

const children: ChildProcess[] = [];
let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-redis-cli-"));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts `toolreg serve` on its own store; resolves with its URL and operator key. */
function serve(args: string[], store: string): Promise<{ url: string; key: string }> {
  const child = spawn(
    process.execPath,
    [CLI, "--tenant", TENANT, "serve", "--port", "0", "--store", store, ...args],
    { cwd, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed only: ${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /toolreg registry on (http:\/\/\S+)/.exec(output)?.[1];
      const key = /\(shown once\): (trk_\S+)/.exec(output)?.[1];
      if (url && key && /console: .*\n/.test(output)) {
        clearTimeout(timer);
        resolve({ url, key });
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
  });
}

function invoke(server: { url: string; key: string }): Promise<Response> {
  return fetch(`${server.url}/api/v1/tools/calculate/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: JSON.stringify({ expression: "1+1" }),
  });
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

describe.skipIf(!reachable)("toolreg serve --redis", () => {
  it("shares --rate-limit tenant=10/min between two instances: 30 calls over both admit 10", async () => {
    const args = ["--redis", REDIS_URL, "--rate-limit", "tenant=10/min"];
    const servers = await Promise.all([serve(args, "one.db"), serve(args, "two.db")]);
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const response = await invoke(servers[i % 2] as { url: string; key: string });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it("counts toolreg call against the same Redis as serve, from the config file: one process each, one limit", async () => {
    writeFileSync(
      join(cwd, "toolreg.config.json"),
      JSON.stringify({ redis: REDIS_URL, rateLimits: ["tenant=1/min"] }),
    );
    const call = () =>
      runToolreg(["--tenant", TENANT, "call", "calculate", "--input", '{"expression":"1+1"}'], cwd);
    const first = await call();
    expect(first.stdout).toContain('"ok": true');
    // A second process: counted in process, it would be admitted again.
    const second = await call();
    expect(second.stdout).toContain("rate_limited");
  });

  it("lets reads through while its Redis is unreachable (onUnavailable allow-reads, the default)", async () => {
    const server = await serve(
      ["--redis", `redis://127.0.0.1:${await closedPort()}`, "--rate-limit", "tenant=10/min"],
      "down.db",
    );
    const response = await invoke(server);
    expect(response.status).toBe(200);
  });
});
