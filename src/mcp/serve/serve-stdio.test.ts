import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness } from "../../test/test-harness.js";
import { createMcpServer } from "./create-mcp-server.js";
import { serveStdio } from "./serve-stdio.js";

const line = (message: object) => `${JSON.stringify(message)}\n`;

describe("serveStdio", () => {
  it("answers a call still running when the input ends, then resolves", async () => {
    const slow = createScriptedTool([
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return "done";
      },
    ]);
    const harness = createTestHarness([slow]);
    const server = createMcpServer({
      seam: harness.seam,
      context: ({ toolCallId }) => harness.context({ toolCallId }),
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const served = serveStdio(server, input, output);
    input.end(
      line({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
      }) +
        line({ jsonrpc: "2.0", method: "notifications/initialized" }) +
        line({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "scripted_tool", arguments: {} },
        }),
    );
    await served;
    const answers = String(output.read())
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
    expect(answers[1].result.content).toEqual([{ type: "text", text: "done" }]);
  });
});
