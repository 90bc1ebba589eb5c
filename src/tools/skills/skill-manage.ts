/**
 * @module `skill_manage`: writes or removes a version of one of the tenant's skills, for agents that keep
 * their own. Internal-write, with the approval left to the host's policy: by default a human approves each
 * write (an agent's skill is read by every later run of the tenant), and an operator's ApprovalPolicy may
 * let it run or refuse it, as an Authorizer may hide it. What it writes is checked as SKILL.md is.
 */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { SKILL_LIMITS } from "../../ports/skill-store.js";
import { skillsTool } from "./skills-env.js";

// One flat object, not a union: every provider's function schema wants an object at its root.
const input = z.object({
  action: z
    .enum(["write", "remove"])
    .describe(
      '"write" adds the next version (version 1 of a new skill); "remove" removes one version, or the whole skill',
    ),
  name: z
    .string()
    .max(SKILL_LIMITS.nameChars)
    .describe('lower-case words joined by hyphens, e.g. "pdf-forms"'),
  description: z
    .string()
    .max(SKILL_LIMITS.descriptionChars)
    .optional()
    .describe("for write: one line saying what the skill does and when to use it; the skill list shows it"),
  body: z.string().optional().describe("for write: the instructions, in Markdown"),
  files: z
    .record(z.string(), z.string())
    .optional()
    .describe('for write: files the body refers to, relative path → text, e.g. {"reference/forms.md": "…"}'),
  version: z
    .number()
    .int()
    .min(1)
    .max(SKILL_LIMITS.versionNumber)
    .optional()
    .describe("for remove: the version to remove; every version when omitted"),
});

export const skillManageSpec = skillsTool({
  name: "skill_manage",
  description: `Writes a new version of a skill (instructions for a kind of task that later runs load with load_skill), or removes a version or a whole skill. Write a skill when you worked out a procedure worth repeating; keep the description to one line saying when to use it. A skill guides; it grants no permission. At most ${SKILL_LIMITS.bodyBytes / 1024} KiB of body and ${SKILL_LIMITS.files} files.`,
  category: "knowledge",
  effect: "internal-write",
  // Removing a version deletes text later runs rely on.
  hints: { destructive: true },
  approval: "policy",
  overrideReason:
    "a skill an agent writes is read by every later run of the tenant, so the host's policy decides each write (by default a human approves it)",
  input,
  async run({ action, name, description, body, files, version }, context, { skills, now }) {
    if (action === "remove") {
      if (description !== undefined || body !== undefined || files !== undefined)
        throw new ToolFailure(
          "invalid_input",
          "remove takes a name and, for one version, its number; nothing else",
        );
      const removed = await skills.remove(context.tenantId, name, version);
      if (removed === 0)
        throw new ToolFailure(
          "precondition_failed",
          `nothing removed: there is no skill "${name}"${version === undefined ? "" : ` version ${version}`}; load_skill with no name lists them`,
        );
      const data: Record<string, unknown> = { name, removed };
      return {
        content: `Removed ${removed} ${removed === 1 ? "version" : "versions"} of skill "${name}".`,
        data,
      };
    }
    if (description === undefined || body === undefined)
      throw new ToolFailure("invalid_input", "write needs the skill's description and body");
    if (version !== undefined)
      throw new ToolFailure("invalid_input", "write numbers the version itself; leave version out");
    const written = await skills.put(context.tenantId, {
      name,
      description,
      body,
      ...(files ? { files } : {}),
      createdBy: context.principalId,
      now: now(),
    });
    return {
      content: `Wrote skill "${written.name}" version ${written.version}.`,
      data: { name: written.name, version: written.version },
    };
  },
});
