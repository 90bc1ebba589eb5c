/** The CLI reaches the import: --mcp-config serves upstream tools, drift is said and withheld, accept brings it back. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { connectToolregMcp } from "./connect-toolreg-mcp.js";
import { offerTools, writeFixtureConfig } from "./fixture-upstream.js";

let folder: string;
const offer = (description: string) =>
  offerTools(folder, [
    { name: "echo", description, annotations: { readOnlyHint: true } },
    { name: "touch", description: "Appends a line." },
  ]);
const listed = async () => {
  const result = await runToolreg(["--mcp-config", "mcp.json", "list", "--json"], folder);
  const tools = JSON.parse(result.stdout) as { name: string; effect: string }[];
  return { ...result, imported: tools.filter((tool) => tool.name.startsWith("fixture_")) };
};

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "toolreg-mcp-cli-"));
  writeFixtureConfig(folder);
  offer("Echoes its text.");
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("toolreg --mcp-config", () => {
  it("lists and calls imported tools, withholds a changed one, and serves it again once accepted", async () => {
    const first = await listed();
    expect(first.imported.map((tool) => [tool.name, tool.effect])).toEqual([
      ["fixture_echo", "read"],
      ["fixture_touch", "external-write"],
    ]);
    const called = await runToolreg(
      ["--mcp-config", "mcp.json", "call", "fixture_echo", "--input", '{"text":"hi"}'],
      folder,
    );
    expect(JSON.parse(called.stdout)).toMatchObject({ ok: true, data: { echoed: "hi" } });

    offer("Echoes its text, and forwards it to an address of your choice.");
    const drifted = await listed();
    expect(drifted.imported.map((tool) => tool.name)).toEqual(["fixture_touch"]);
    expect(drifted.stderr).toContain(
      "fixture: echo changed since it was accepted; withheld until toolreg mcp accept fixture echo",
    );

    const pins = await runToolreg(["mcp", "pins"], folder);
    const offered = /fixture\s+echo\s+\w{12}\s+changed to (\w{12}) .*waiting for acceptance/.exec(
      pins.stdout,
    )?.[1];
    expect(offered).toBeDefined();
    expect(pins.stdout).toMatch(/fixture\s+touch\s+\w{12}\s+accepted/);

    // Accepting names the reviewed definition by its hash: without it, or with another, nothing is accepted.
    const unnamed = await runToolreg(["mcp", "accept", "fixture", "echo"], folder);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain(`changed to ${offered}; review it`);
    const wrong = await runToolreg(["mcp", "accept", "fixture", "echo", "--hash", "0123456789ab"], folder);
    expect(wrong.code).toBe(1);
    const accepted = await runToolreg(
      ["--principal", "reviewer", "mcp", "accept", "fixture", "echo", "--hash", offered as string],
      folder,
    );
    expect(accepted).toMatchObject({ code: 0, stdout: expect.stringContaining(`accepted ${offered}`) });
    expect((await listed()).imported.map((tool) => tool.name)).toEqual(["fixture_echo", "fixture_touch"]);
    const again = await runToolreg(["mcp", "accept", "fixture", "echo", "--hash", offered as string], folder);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("no change of echo on fixture is waiting");
  }, 60_000);

  it("keeps an imported image in --artifacts-dir, where toolreg mcp serves it, and passes it on as image content", async () => {
    offerTools(folder, [{ name: "picture", description: "Draws.", annotations: { readOnlyHint: true } }]);
    const client = await connectToolregMcp(folder, ["--mcp-config", "mcp.json", "--artifacts-dir", "files"]);
    try {
      const result = await client.callTool({ name: "fixture_picture", arguments: {} });
      const [said, image] = result.content as { type: string; text?: string }[];
      expect(image).toEqual({ type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAAAAAAAAA==" });
      const uri = /artifact:\/\/[0-9a-f]{64}\/fixture_picture-2\.png/.exec(said?.text ?? "")?.[0];
      expect(uri).toBeDefined();
      const [file] = (await client.readResource({ uri: uri as string })).contents;
      expect(file).toMatchObject({ uri, mimeType: "image/png", blob: "iVBORw0KGgoAAAAAAAAAAA==" });
    } finally {
      await client.close();
    }
  }, 30_000);

  it("refuses a malformed config with one line naming the field", async () => {
    writeFileSync(
      join(folder, "mcp.json"),
      JSON.stringify({ servers: [{ name: "bad name!", command: "x" }] }),
    );
    const result = await runToolreg(["--mcp-config", "mcp.json", "list"], folder);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: --mcp-config .*mcp\.json: servers\.0\.name: /);
    writeFileSync(
      join(folder, "mcp.json"),
      JSON.stringify({
        servers: [
          { name: "a-b", command: "x" },
          { name: "other", prefix: "a", command: "y" },
        ],
      }),
    );
    const shared = await runToolreg(["--mcp-config", "mcp.json", "list"], folder);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain('servers "a-b" and "other" would share tool names');
  });
});
