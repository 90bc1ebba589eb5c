import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectToolregMcp } from "./connect-toolreg-mcp.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function spawnToolregMcp(args: readonly string[], cwd?: string): Promise<Client> {
  client = await connectToolregMcp(cwd ?? mkdtempSync(join(tmpdir(), "toolreg-mcp-resources-")), args);
  return client;
}

describe("toolreg mcp: resources", () => {
  it("serves the tools' docs pages and the files file_generate keeps, at the URI its result gives", async () => {
    const artifactsDir = mkdtempSync(join(tmpdir(), "toolreg-artifacts-"));
    const mcp = await spawnToolregMcp(["--artifacts-dir", artifactsDir]);
    const [page] = (await mcp.readResource({ uri: "toolreg://tools/calculate/docs" })).contents;
    expect((page as { text: string }).text).toMatch(/^# calculate\n/);

    const result = await mcp.callTool({
      name: "file_generate",
      arguments: { format: "markdown", name: "notes", text: "# Notes\n\nOne line." },
    });
    const uri = (result.structuredContent as { uri: string }).uri;
    expect(uri).toMatch(/^artifact:\/\/[0-9a-f]{64}\/notes\.md$/);
    const [file] = (await mcp.readResource({ uri })).contents;
    expect(file).toMatchObject({ uri, mimeType: "text/markdown" });
    expect((file as { text: string }).text).toContain("One line.");
  });

  it("serves an output kept by the store whole to its principal, fenced, and to no other", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "toolreg-mcp-resources-"));
    const longOutput = fileURLToPath(new URL("../fixtures/long-output/catalogue.mjs", import.meta.url));
    const owner = await spawnToolregMcp(["--registry", longOutput], cwd);
    const result = await owner.callTool({ name: "long_page", arguments: {} });
    const note = (result.content as { text: string }[])[0]?.text ?? "";
    const ref = /"ref":"(out_[0-9a-f]{64})"/.exec(note)?.[1];
    expect(ref).toBeDefined();
    const uri = `toolreg://outputs/${ref}`;
    const [kept] = (await owner.readResource({ uri })).contents;
    expect((kept as { text: string }).text).toContain("THE END");
    expect((kept as { text: string }).text).toContain('source="https://example.test/long"');
    await owner.close();

    // The next command on the same store, as another principal: the output is not there for it.
    const other = await spawnToolregMcp(["--registry", longOutput, "--principal", "someone-else"], cwd);
    const refused = await other.readResource({ uri }).catch((error: unknown) => error);
    expect((refused as McpError).code).toBe(-32002);
  });

  it("serves a catalogue module's own resources, and refuses what it does not hold", async () => {
    const fixture = resolve("test/mcp/conformance/fixture.js");
    const mcp = await spawnToolregMcp(["--registry", fixture]);
    const listed = (await mcp.listResources()).resources.map((resource) => resource.uri);
    expect(listed).toEqual(
      expect.arrayContaining(["test://static-text", "test://static-binary", "test://watched-resource"]),
    );
    expect((await mcp.readResource({ uri: "test://template/7/data" })).contents).toEqual([
      {
        uri: "test://template/7/data",
        mimeType: "application/json",
        text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}',
      },
    ]);
    const missing = await mcp.readResource({ uri: "test://nothing" }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(McpError);
    expect((missing as McpError).code).toBe(-32002);
  });
});
