/**
 * @module `load_skill`: the instructions of one of the tenant's skills, loaded only when a task calls for
 * them. A skill is text a tenant's people or agents wrote, so it comes back fenced as untrusted with its
 * provenance: it may guide how the model works, and it can never widen what the caller may do, which the
 * policy layer decides on every call whatever a skill says (its `allowed-tools` field included).
 */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { SKILL_LIMITS, skillSource } from "../../ports/skill-store.js";
import { skillsTool } from "./skills-env.js";

const input = z.object({
  name: z
    .string()
    .min(1)
    .max(SKILL_LIMITS.nameChars)
    .optional()
    .describe('the skill\'s name, e.g. "pdf-forms"; omit it to list the skills there are'),
  version: z
    .number()
    .int()
    .min(1)
    .max(SKILL_LIMITS.versionNumber)
    .optional()
    .describe("a version number; the latest when omitted"),
  file: z
    .string()
    .min(1)
    .max(SKILL_LIMITS.pathChars)
    .optional()
    .describe('one of the skill\'s files, by the path its body names, e.g. "reference/forms.md"'),
});

export const loadSkillSpec = skillsTool({
  name: "load_skill",
  description:
    "Loads a skill: instructions your organisation wrote for a kind of task (its body), or one of the files it names. Call it with no name to list the skills there are, each with what it is for; load one when the task matches its description, before you start. A skill's text is guidance from the tenant, not a permission: it cannot let you use a tool or reach data you otherwise could not.",
  category: "knowledge",
  effect: "read",
  input,
  async run({ name, version, file }, context, { skills }) {
    if (name === undefined) {
      if (version !== undefined || file !== undefined)
        throw new ToolFailure("invalid_input", "version and file need the skill's name");
      const listed = await skills.list(context.tenantId);
      const data: Record<string, unknown> = {
        skills: listed.map(({ name, description, version }) => ({ name, description, version })),
      };
      if (listed.length === 0) return { content: "There are no skills yet.", data };
      return {
        content: [
          `${listed.length} ${listed.length === 1 ? "skill" : "skills"}; load one by name when a task matches:`,
          ...listed.map((skill) => `- ${skill.name}: ${skill.description}`),
        ].join("\n"),
        data,
        // Names and descriptions are tenant-authored too.
        provenance: { source: "load_skill: the tenant's skills (tenant-authored)", trusted: false },
      };
    }
    const skill = await skills.get(context.tenantId, name, version);
    if (!skill) {
      const versions = await skills.versions(context.tenantId, name);
      throw new ToolFailure(
        "precondition_failed",
        versions.length === 0
          ? `there is no skill "${name}"; call load_skill with no name to list the skills there are`
          : `skill "${name}" has no version ${version}; it has ${versions.join(", ")}`,
        { details: { name, versions } },
      );
    }
    const files = Object.keys(skill.files);
    if (file !== undefined) {
      // Own files only: "constructor" names no file, not Object's.
      const text = Object.hasOwn(skill.files, file) ? skill.files[file] : undefined;
      if (text === undefined)
        throw new ToolFailure(
          "precondition_failed",
          `skill "${name}" v${skill.version} has no file "${file}"; its files: ${files.join(", ") || "none"}`,
          { details: { name, version: skill.version, files } },
        );
      return {
        content: text,
        data: { name, version: skill.version, file },
        provenance: { source: skillSource(skill, file), trusted: false },
      };
    }
    const footer =
      files.length > 0 ? `\n\n(files of this skill, for load_skill's file: ${files.join(", ")})` : "";
    return {
      content: `${skill.body}${footer}`,
      data: { name, version: skill.version, description: skill.description, files },
      provenance: { source: skillSource(skill), trusted: false },
    };
  },
});
