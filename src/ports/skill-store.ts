/**
 * @module The port for skills: named instruction blocks a tenant writes (a SKILL.md's name, description and
 * body, and files beside it) that an agent loads when a task calls for them. Every method takes the tenant
 * first, from the caller's context, never from a model's input. A skill is versioned: each write adds the
 * next version (1, 2, 3 …) and reads take the latest unless asked for a number. A version number is never
 * reused while the skill exists; removing a skill (or its last version) forgets it, and a skill later
 * written under that name starts again at 1.
 */
import { ToolFailure } from "../errors/tool-failure.js";

export const SKILL_LIMITS = {
  /** Agent Skills: at most 64 lower-case letters, digits and single hyphens. */
  nameChars: 64,
  /** Agent Skills: 1 to 1,024 characters. */
  descriptionChars: 1024,
  bodyBytes: 64 * 1024,
  files: 20,
  fileBytes: 64 * 1024,
  /** All of a version's files together. */
  filesBytes: 256 * 1024,
  pathChars: 200,
  /** The frontmatter fields toolreg does not read, kept as JSON. */
  metadataBytes: 8 * 1024,
  skillsPerTenant: 500,
  versionsPerSkill: 100,
  /** The highest version number asked for: PostgreSQL keeps it in a 32-bit INTEGER. */
  versionNumber: 2_147_483_647,
} as const;

/** What is written: one version of a skill. */
export interface SkillDraft {
  name: string;
  description: string;
  body: string;
  /** Relative path → text, e.g. `{"reference/forms.md": "…"}`. */
  files?: Readonly<Record<string, string>>;
  /** Frontmatter fields other than name and description, kept as written and never acted on. */
  metadata?: Readonly<Record<string, unknown>>;
}

export interface SkillVersion {
  name: string;
  version: number;
  description: string;
  body: string;
  files: Record<string, string>;
  metadata: Record<string, unknown>;
  createdAt: number;
  /** The principal who wrote this version. */
  createdBy: string;
}

/** A skill as a catalogue lists it: its latest version's description. */
export interface SkillSummary {
  name: string;
  description: string;
  /** The latest version's number. */
  version: number;
  /** How many versions are kept. */
  versions: number;
  updatedAt: number;
}

export interface SkillStore {
  /**
   * Writes the next version of the skill `draft.name` (1 for a new one) and returns it. Refuses a draft
   * outside `SKILL_LIMITS` (`invalid_input`), a tenant with `skillsPerTenant` skills or a skill with
   * `versionsPerSkill` versions (`precondition_failed`), writing nothing.
   */
  put(tenantId: string, draft: SkillDraft & { createdBy: string; now: number }): Promise<SkillVersion>;
  /** The latest version, or the one numbered `version`; undefined when there is none. */
  get(tenantId: string, name: string, version?: number): Promise<SkillVersion | undefined>;
  /** The tenant's skills by name, each with its latest version's description. */
  list(tenantId: string): Promise<SkillSummary[]>;
  /** A skill's kept version numbers, lowest first; empty when there is no such skill. */
  versions(tenantId: string, name: string): Promise<number[]>;
  /** Removes one version, or the whole skill without `version`; how many versions went (0: none was there). */
  remove(tenantId: string, name: string, version?: number): Promise<number>;
}

/** Agent Skills' name rule: lower-case letters and digits, words joined by single hyphens. */
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Control characters but tab and line breaks. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;
/** Half of a surrogate pair without its other half: not text, and refused by PostgreSQL. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A relative path of plain segments: no `..`, no absolute path, no backslash, no empty segment. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

const refuse = (message: string): never => {
  throw new ToolFailure("invalid_input", message);
};
const bytes = (text: string) => Buffer.byteLength(text, "utf8");
const isText = (text: string) => !CONTROL.test(text) && !LONE_SURROGATE.test(text);

/** Why `name` is not a skill name, or undefined when it is one. */
export function skillNameProblem(name: string): string | undefined {
  if (name.length === 0 || name.length > SKILL_LIMITS.nameChars)
    return `a skill name is 1-${SKILL_LIMITS.nameChars} characters`;
  if (!NAME.test(name))
    return `skill name "${name}" must be lower-case letters and digits, words joined by single hyphens (e.g. "pdf-forms")`;
  return undefined;
}

/**
 * What every adapter checks before writing, so a refusal reads the same on every backend, with a message
 * that says what to change: the draft as it is stored.
 */
export function checkedSkillDraft(
  draft: SkillDraft,
): Required<SkillDraft> & { files: Record<string, string> } {
  const nameProblem = skillNameProblem(draft.name);
  if (nameProblem) refuse(nameProblem);
  const description = draft.description.trim();
  if (description.length === 0) refuse("a skill needs a description: what it does and when to use it");
  if (description.length > SKILL_LIMITS.descriptionChars)
    refuse(
      `the description is ${description.length} characters; keep it to ${SKILL_LIMITS.descriptionChars}`,
    );
  if (!isText(description) || /[\r\n]/.test(description))
    refuse("write the description as one line of text, without control characters");
  if (!isText(draft.body)) refuse("the body has control characters; write plain text or Markdown");
  if (bytes(draft.body) > SKILL_LIMITS.bodyBytes)
    refuse(`the body is over ${SKILL_LIMITS.bodyBytes / 1024} KiB; move detail into the skill's files`);
  const kept: [string, string][] = [];
  const entries = Object.entries(draft.files ?? {});
  if (entries.length > SKILL_LIMITS.files)
    refuse(`a skill has ${entries.length} files; keep at most ${SKILL_LIMITS.files}`);
  let total = 0;
  for (const [path, text] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (path.length > SKILL_LIMITS.pathChars || !path.split("/").every((segment) => SEGMENT.test(segment)))
      refuse(
        `file path "${path.slice(0, SKILL_LIMITS.pathChars)}" must be relative, of letters, digits, _, . and -, separated by /`,
      );
    if (path === "SKILL.md") refuse("SKILL.md is the skill itself, not one of its files");
    if (typeof text !== "string" || !isText(text)) refuse(`file "${path}" is not text`);
    if (bytes(text) > SKILL_LIMITS.fileBytes)
      refuse(`file "${path}" is over ${SKILL_LIMITS.fileBytes / 1024} KiB`);
    total += bytes(text);
    kept.push([path, text]);
  }
  if (total > SKILL_LIMITS.filesBytes)
    refuse(`the files are over ${SKILL_LIMITS.filesBytes / 1024} KiB together`);
  const metadata = { ...(draft.metadata ?? {}) };
  const json = JSON.stringify(metadata);
  if (bytes(json) > SKILL_LIMITS.metadataBytes || !isText(json))
    refuse(`the frontmatter's other fields are over ${SKILL_LIMITS.metadataBytes / 1024} KiB or not text`);
  // Own properties, whatever the path: a file named __proto__ is a file, not the object's prototype.
  const files = Object.fromEntries(kept);
  return { name: draft.name, description, body: draft.body, files, metadata: JSON.parse(json) };
}

/** The refusal of a skill past the tenant's count, or of a version past the skill's. */
export function skillFull(kind: "skills" | "versions", name: string): ToolFailure {
  return kind === "skills"
    ? new ToolFailure(
        "precondition_failed",
        `nothing written: this tenant keeps ${SKILL_LIMITS.skillsPerTenant} skills, the most allowed; remove one no longer used first`,
        { details: { limit: SKILL_LIMITS.skillsPerTenant } },
      )
    : new ToolFailure(
        "precondition_failed",
        `nothing written: skill "${name}" keeps ${SKILL_LIMITS.versionsPerSkill} versions, the most allowed; remove old versions first`,
        { details: { limit: SKILL_LIMITS.versionsPerSkill } },
      );
}

/**
 * The provenance a skill's text is fenced under wherever it is served (load_skill, MCP prompts): which
 * skill and version, who wrote it, and that it grants nothing.
 */
export function skillSource(
  skill: Pick<SkillVersion, "name" | "version" | "createdBy">,
  file?: string,
): string {
  return `skill ${skill.name} v${skill.version}${file ? ` file ${file}` : ""}, written by ${skill.createdBy} (tenant-authored, grants nothing)`;
}
