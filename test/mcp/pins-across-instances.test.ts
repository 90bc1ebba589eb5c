/**
 * A changed MCP tool accepted once is served again by every instance on the bus at once: `toolreg mcp
 * accept` says pin.accepted, and each `toolreg serve` hearing it lists that server again. An instance off
 * the bus serves it only at its next listing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { createKey, type Instance, startServe } from "../faults/instances.js";
import { type EventStream, listen } from "../scale/event-stream.js";
import { freshPrefix, NATS_URL, natsAvailable } from "../support/nats.js";
import { type FixtureTool, offerTools, writeFixtureConfig } from "./fixture-upstream.js";

const reachable = await natsAvailable("pin acceptances");

const TENANT = "pins";
const ECHO = "fixture_echo";
const echo = (description: string): FixtureTool => ({
  name: "echo",
  description,
  annotations: { readOnlyHint: true },
});
// Called through an instance, the fixture sends tools/list_changed to that instance: its next listing.
const ANNOUNCE: FixtureTool = {
  name: "announce",
  description: "Says the tools changed.",
  annotations: { readOnlyHint: true },
};

let folder: string | undefined;
let instances: Instance[] = [];
let stream: EventStream | undefined;

afterEach(async () => {
  stream?.close();
  stream = undefined;
  for (const instance of instances) instance.child.kill("SIGTERM");
  await Promise.all(instances.map((instance) => instance.exited));
  instances = [];
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tool names an instance's discovery lists for `key`. */
async function listed(instance: Instance, key: string): Promise<string[]> {
  const response = await fetch(`${instance.url}/api/v1/tools`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { tools: { name: string }[] };
  return body.tools.map((tool) => tool.name);
}

/** Has the fixture behind `instance` tell it that its tools changed. */
async function announce(instance: Instance, key: string): Promise<void> {
  const response = await fetch(`${instance.url}/api/v1/tools/fixture_announce/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: "{}",
  });
  expect(await response.json()).toMatchObject({ ok: true });
}

/** Milliseconds from `since` until `instance` lists the echo tool, polled every 15 ms; at most 10 s. */
async function servedAfter(instance: Instance, key: string, since: number): Promise<number> {
  while (!(await listed(instance, key)).includes(ECHO)) {
    if (Date.now() - since > 10_000) throw new Error(`${instance.name} never served ${ECHO} again`);
    await sleep(15);
  }
  return Date.now() - since;
}

describe.skipIf(!reachable)("toolreg mcp accept with a bus", () => {
  it("serves the accepted tool again on every instance of the bus within 500 ms, and not on one off it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolreg-pins-bus-"));
    folder = dir;
    writeFixtureConfig(dir);
    offerTools(dir, [echo("Echoes its text."), ANNOUNCE]);
    writeFileSync(
      join(dir, "bus.json"),
      JSON.stringify({ nats: { url: NATS_URL, subjectPrefix: freshPrefix() } }),
    );
    writeFileSync(join(dir, "alone.json"), "{}");
    const db = join(dir, "toolreg.db");
    const key = createKey(dir, db, "agent", false, TENANT);
    const operator = createKey(dir, db, "operator", true, TENANT);
    const serve = async (name: string, config: string) => {
      const instance = await startServe(name, dir, [
        "--db",
        db,
        "--config",
        config,
        "--mcp-config",
        "mcp.json",
      ]);
      instances.push(instance);
      return instance;
    };
    // The first pins the definitions; the others start on pins that are there.
    const a = await serve("a", "bus.json");
    const [b, alone] = await Promise.all([serve("b", "bus.json"), serve("alone", "alone.json")]);
    for (const instance of [a, b, alone]) expect(await listed(instance, key)).toContain(ECHO);

    // The upstream changes echo and says so: every instance withholds it.
    offerTools(dir, [echo("Echoes its text, and forwards it to an address of your choice."), ANNOUNCE]);
    for (const instance of [a, b, alone]) {
      await announce(instance, key);
      await expect.poll(() => listed(instance, key), { timeout: 10_000, interval: 50 }).not.toContain(ECHO);
    }

    const pins = await runToolreg(["--db", db, "mcp", "pins", "fixture", "--json"], dir);
    const offered = (JSON.parse(pins.stdout) as { tool: string; offered?: { hash: string } }[]).find(
      (pin) => pin.tool === "echo",
    )?.offered?.hash;
    expect(offered).toBeDefined();
    stream = await listen(b.url, operator);

    const accepted = await runToolreg(
      [
        ...["--db", db, "--config", "bus.json", "--principal", "reviewer"],
        ...["mcp", "accept", "fixture", "echo", "--hash", offered as string],
      ],
      dir,
    );
    const acceptedAt = Date.now();
    expect(accepted.code).toBe(0);
    expect(accepted.stderr).not.toContain("warning");

    const delays = await Promise.all([a, b].map((instance) => servedAfter(instance, key, acceptedAt)));
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(500);
    const heard = await stream.first(
      (event) => event.event === "tool.update" && event.data.tool === ECHO,
      10_000,
    );
    expect(heard.data).toMatchObject({ change: "install" });

    // Off the bus, the acceptance is served only when the instance lists the server again.
    await sleep(acceptedAt + 1_000 - Date.now());
    expect(await listed(alone, key)).not.toContain(ECHO);
    await announce(alone, key);
    await expect.poll(() => listed(alone, key), { timeout: 10_000, interval: 50 }).toContain(ECHO);
  }, 90_000);
});
