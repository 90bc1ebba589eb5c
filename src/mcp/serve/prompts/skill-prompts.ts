/**
 * @module The tenant's skills as MCP prompts: `prompts/list` names each skill of the caller's tenant with
 * its description, and `prompts/get` returns its latest body as one user message, fenced as untrusted text
 * with the skill's provenance, since a tenant wrote it and it can grant nothing. A skill takes no arguments.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { type SkillStore, skillNameProblem, skillSource } from "../../../ports/skill-store.js";
import type { ExecutionContext } from "../../../seam/context.js";
import { encloseUntrusted } from "../../../seam/untrusted-fence.js";
import { listPage } from "../list-page.js";

/** Declares `prompts` and answers it from `skills`, for the tenant of each request's caller. Call before `connect`. */
export function serveSkillPrompts(
  server: Server,
  skills: SkillStore,
  contextFor: (signal: AbortSignal) => ExecutionContext,
  pageSize: number,
): void {
  server.registerCapabilities({ prompts: {} });
  server.setRequestHandler(ListPromptsRequestSchema, async (request, extra) => {
    const { tenantId } = contextFor(extra.signal);
    const listed = await skills.list(tenantId);
    const { page, nextCursor } = listPage(listed, request.params?.cursor, pageSize);
    return {
      prompts: page.map(({ name, description }) => ({ name, description })),
      ...(nextCursor === undefined ? {} : { nextCursor }),
    };
  });
  server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { name, arguments: given } = request.params;
    if (given && Object.keys(given).length > 0)
      throw new McpError(ErrorCode.InvalidParams, `prompt ${name} is a skill, which takes no arguments`);
    const { tenantId } = contextFor(extra.signal);
    // A name no skill can have is not looked up; either way the answer tells nothing of other tenants.
    const skill = skillNameProblem(name) ? undefined : await skills.get(tenantId, name);
    if (!skill) throw new McpError(ErrorCode.InvalidParams, `there is no prompt ${name} for you`);
    const files = Object.keys(skill.files);
    const footer =
      files.length > 0 ? `\n\n(files of this skill, for load_skill's file: ${files.join(", ")})` : "";
    return {
      description: skill.description,
      messages: [
        {
          role: "user" as const,
          content: {
            type: "text" as const,
            text: encloseUntrusted(`${skill.body}${footer}`, skillSource(skill)),
          },
        },
      ],
    };
  });
}
