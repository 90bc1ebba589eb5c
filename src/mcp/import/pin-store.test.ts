/** One suite for both pin stores: the memory reference and the SQLite file the CLI shares between commands. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PinStore, ToolPin } from "../../ports/pin-store.js";
import { openDatabase } from "../../stores/sqlite/database.js";
import { createSqlitePinStore } from "../../stores/sqlite/mcp-pins.js";
import { createMemoryPinStore } from "./pin-store.js";

const folder = mkdtempSync(join(tmpdir(), "toolreg-pins-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const adapters: [string, () => PinStore][] = [
  ["memory", createMemoryPinStore],
  ["sqlite", () => createSqlitePinStore(openDatabase(join(folder, `${Math.random()}.db`)))],
];

const pin = (server: string, tool: string, description: string): ToolPin => ({
  server,
  tool,
  hash: `h-${description}`,
  definition: { description, inputSchema: { type: "object" } },
  acceptedAt: 1,
  acceptedBy: "first import",
});

describe.each(adapters)("%s pin store", (_name, create) => {
  it("lists one server's pins or all, by server then tool", async () => {
    const pins = create();
    await pins.put(pin("b", "zeta", "z"));
    await pins.put(pin("a", "beta", "b"));
    await pins.put(pin("b", "Alpha", "a"));
    expect((await pins.list("b")).map((entry) => entry.tool)).toEqual(["Alpha", "zeta"]);
    expect((await pins.list()).map((entry) => `${entry.server}/${entry.tool}`)).toEqual([
      "a/beta",
      "b/Alpha",
      "b/zeta",
    ]);
    expect(await pins.list("c")).toEqual([]);
  });

  it("keeps an offered change beside the accepted definition until it is accepted, once", async () => {
    const pins = create();
    await pins.put(pin("s", "t", "old"));
    expect(await pins.accept({ server: "s", tool: "t", hash: "h-new", by: "op", at: 5 })).toBe(false);
    const offered = {
      hash: "h-new",
      definition: { description: "new", inputSchema: { type: "object" } },
      seenAt: 3,
    };
    await pins.offer("s", "t", offered);
    expect(await pins.list("s")).toEqual([{ ...pin("s", "t", "old"), offered }]);
    // What the person reviewed must still be what is offered: a newer offer is not accepted unseen.
    expect(await pins.accept({ server: "s", tool: "t", hash: "h-older", by: "reviewer", at: 8 })).toBe(false);
    expect(await pins.accept({ server: "s", tool: "t", hash: "h-new", by: "reviewer", at: 9 })).toBe(true);
    expect(await pins.list("s")).toEqual([
      {
        server: "s",
        tool: "t",
        hash: "h-new",
        definition: offered.definition,
        acceptedAt: 9,
        acceptedBy: "reviewer",
      },
    ]);
    expect(await pins.accept({ server: "s", tool: "t", hash: "h-new", by: "reviewer", at: 10 })).toBe(false);
  });

  it("clears an offer when the upstream goes back to what was accepted", async () => {
    const pins = create();
    await pins.put(pin("s", "t", "old"));
    await pins.offer("s", "t", { hash: "h-x", definition: { description: "x", inputSchema: {} }, seenAt: 2 });
    await pins.offer("s", "t", undefined);
    expect((await pins.list("s"))[0]?.offered).toBeUndefined();
    expect(await pins.accept({ server: "s", tool: "t", hash: "h-x", by: "op", at: 3 })).toBe(false);
  });
});
