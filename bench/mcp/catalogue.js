/**
 * @module The benchmark's tool as toolreg declares it, in a catalogue module `toolreg mcp --registry` can
 * load: plain ESM JavaScript, since the CLI runs under plain Node, which cannot import TypeScript. The same
 * tool, schema and text as the bare SDK server's (bare-server.js); the benchmark checks both answer alike.
 */
import { defineTool } from "toolreg";
import { z } from "zod";

export const echoTool = defineTool({
  name: "echo",
  description: "Repeats a text a few times, optionally in capitals.",
  category: "general",
  effect: "read",
  input: z.object({
    text: z.string().min(1).max(200),
    times: z.number().int().min(1).max(5),
    upper: z.boolean(),
  }),
  run: async ({ text, times, upper }) => ({ content: (upper ? text.toUpperCase() : text).repeat(times) }),
});

export const catalogue = { tools: [echoTool] };
