/**
 * @module The tenant's skills as MCP prompts: `prompts/list` names each skill of the caller's tenant with
 * its description, and `prompts/get` returns its latest body as one user message. A get is a call of
 * `load_skill` through the seam, so the Authorizer, the toolsets, the audit record and the untrusted fence
 * are the ones every call has; a caller who may not use `load_skill` is listed no prompts. A skill takes no
 * arguments.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { SkillStore } from "../../../ports/skill-store.js";
import type { ExecutionContext } from "../../../seam/context.js";
import { envelopeText } from "../../../seam/envelope.js";
import type { Seam } from "../../../seam/seam.js";
import { listPage } from "../list-page.js";

/** The tool a prompt is read through (src/tools/skills/load-skill.ts, which this layer may not import). */
const LOAD_SKILL = "load_skill";

/** Codes that mean "no such prompt for this caller": absent, not theirs, not a skill name, or not allowed. */
const NOT_FOUND = new Set(["unknown_tool", "not_authorized", "precondition_failed", "invalid_input"]);

export interface SkillPromptsOptions {
  seam: Seam;
  skills: SkillStore;
  pageSize: number;
  /** A fresh context of the request's caller, as a `tools/call` gets. */
  contextFor(signal: AbortSignal): ExecutionContext;
  /** Runs a get's call as the host runs a `tools/call`'s (counted in flight, in the caller's trace). */
  run<T>(
    meta: unknown,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
    call: () => Promise<T>,
  ): Promise<T>;
}

/** Declares `prompts` and answers it for the tenant of each request's caller. Call before `connect`. */
export function serveSkillPrompts(server: Server, options: SkillPromptsOptions): void {
  const { seam, skills, pageSize, contextFor } = options;
  server.registerCapabilities({ prompts: {} });
  server.setRequestHandler(ListPromptsRequestSchema, async (request, extra) => {
    const context = contextFor(extra.signal);
    const tool = seam.registry.get(LOAD_SKILL);
    // The seam's own filter: whoever could not load a skill is not shown one.
    const listed = tool && seam.mayUse(context, tool) ? await skills.list(context.tenantId) : [];
    const { page, nextCursor } = listPage(listed, request.params?.cursor, pageSize);
    return {
      prompts: page.map(({ name, description }) => ({ name, description })),
      ...(nextCursor === undefined ? {} : { nextCursor }),
    };
  });
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) =>
    options.run(request.params._meta, extra, async () => {
      const { name, arguments: given } = request.params;
      if (given && Object.keys(given).length > 0)
        throw new McpError(ErrorCode.InvalidParams, `prompt ${name} is a skill, which takes no arguments`);
      const envelope = await seam.call(contextFor(extra.signal), LOAD_SKILL, { name });
      if (!envelope.ok) {
        // The same answer whether it is absent or withheld, so it tells nothing of other tenants' skills.
        if (NOT_FOUND.has(envelope.error.code))
          throw new McpError(ErrorCode.InvalidParams, `there is no prompt ${name} for you`);
        throw new McpError(ErrorCode.InternalError, envelopeText(envelope));
      }
      const { description } = (envelope.data ?? {}) as { description?: unknown };
      return {
        ...(typeof description === "string" ? { description } : {}),
        // Already fenced by the seam, with the skill's provenance as its source.
        messages: [{ role: "user" as const, content: { type: "text" as const, text: envelope.content } }],
      };
    }),
  );
}
