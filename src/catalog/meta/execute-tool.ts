/**
 * @module `execute_tool`: calls a tool find_tools returned, on the ordinary call path. The target's own
 * authorization, validation, approval and idempotency apply — its effect, not this wrapper's — because
 * the call goes back through the seam with the caller's own context.
 */
import { z } from "zod";
import { defineTool } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { Seam } from "../../seam/seam.js";
import { passOn } from "../../seam/to-envelope.js";
import { META_CATEGORY } from "./meta-deps.js";

/** The wrapper waits as long as its target may run: the target's own limits bind, not these. */
const UNBOUNDED = { timeoutMs: 24 * 60 * 60 * 1000, outputBytes: 16 * 1024 * 1024 };

export function createExecuteTool(seam: () => Seam) {
  return defineTool({
    name: "execute_tool",
    description:
      "Call a tool you found with find_tools, by name, with its arguments as an object. The tool's own rules apply: a call that needs a human's approval is parked and you are told so.",
    category: "meta",
    // The wrapper's own effect: the call it makes is governed as its target. An MCP client is told the
    // hints of the worst tool it may reach, derived from `delegatesTo` (src/catalog/mcp.ts).
    effect: "read",
    input: z.object({
      name: z.string().min(1).max(64).describe("the tool to call, e.g. from find_tools"),
      arguments: z.record(z.string(), z.unknown()).default({}).describe("the tool's arguments"),
    }),
    limits: UNBOUNDED,
    delegatesTo: ({ name, arguments: input }) => ({ name, input }),
    async run({ name, arguments: input }, context) {
      const served = seam();
      const target = served.registry.get(name);
      if (target?.category === META_CATEGORY) {
        throw new ToolFailure("invalid_input", `execute_tool runs catalogue tools; call ${name} directly`);
      }
      // The caller's context, with this call's deadline and signal: the target cannot outlive its wrapper.
      const envelope = await served.call(context, name, input, { onInProgress: "wait" });
      if (!envelope.ok) {
        const { code, message, retryable, retryAfterMs, details } = envelope.error;
        throw new ToolFailure(code, message, {
          retryable,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          ...(details === undefined ? {} : { details }),
        });
      }
      // The target's provenance goes on, so its untrusted data stays out of MCP structured content; its
      // content was fenced when its own envelope was built and is not fenced again.
      return passOn(envelope);
    },
  });
}
