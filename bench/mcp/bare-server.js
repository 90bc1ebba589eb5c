/**
 * @module The baseline: a bare SDK server (`McpServer.registerTool`) with the same tool as the benchmark's
 * toolreg catalogue (catalogue.js): the same argument schema (the SDK validates it), and the same text.
 * Plain ESM JavaScript, like the catalogue, so that over stdio both servers run under plain Node alike.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export function createBareServer() {
  const server = new McpServer({ name: "bare", version: "0.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Repeats a text a few times, optionally in capitals.",
      inputSchema: {
        text: z.string().min(1).max(200),
        times: z.number().int().min(1).max(5),
        upper: z.boolean(),
      },
    },
    async ({ text, times, upper }) => ({
      content: [{ type: "text", text: (upper ? text.toUpperCase() : text).repeat(times) }],
    }),
  );
  return server;
}
