/**
 * @module SKILL.md, the Agent Skills format: YAML frontmatter between `---` lines (`name`, `description`,
 * anything else) and a Markdown body. The frontmatter is read with the `yaml` package's core schema, which
 * builds plain data only (no tags that construct objects, nothing evaluated), refusing anchors and aliases
 * outright (no alias bomb), duplicate keys and anything the parser warns of. Fields other than name and
 * description are kept as metadata and never acted on: `allowed-tools` in particular grants nothing, since
 * what a caller may use is decided by policy, never by text a tenant wrote.
 */
import { parseDocument } from "yaml";
import { ToolFailure } from "../errors/tool-failure.js";
import { checkedSkillDraft, type SkillDraft, skillNameProblem } from "./skill-store.js";

/** Frontmatter longer than this is refused before it is parsed. */
export const SKILL_MD_FRONTMATTER_BYTES = 16 * 1024;

const OPENING = /^---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*$/m;

const refuse = (message: string): never => {
  throw new ToolFailure("invalid_input", `SKILL.md: ${message}`);
};

/**
 * The skill a SKILL.md holds, checked as the store checks a draft. `folder` is the name of the folder it
 * was read from, which the skill's name must equal. Refuses with `invalid_input` and what to change.
 */
export function parseSkillMd(
  text: string,
  options: { folder?: string; files?: Record<string, string> } = {},
): Required<SkillDraft> {
  const source = text.replace(/^\uFEFF/, "");
  const opening = OPENING.exec(source);
  if (!opening)
    refuse('it must begin with a "---" line, then the frontmatter (name, description), then "---"');
  const rest = source.slice(opening![0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) refuse('the frontmatter has no closing "---" line');
  const frontmatter = rest.slice(0, closing!.index);
  if (Buffer.byteLength(frontmatter, "utf8") > SKILL_MD_FRONTMATTER_BYTES)
    refuse(`the frontmatter is over ${SKILL_MD_FRONTMATTER_BYTES / 1024} KiB`);
  const body = rest.slice(closing!.index + closing![0].length).replace(/^\r?\n/, "");
  const fields = readFrontmatter(frontmatter);
  const { name, description, ...metadata } = fields;
  if (typeof name !== "string") refuse("the frontmatter needs a name, as text");
  if (typeof description !== "string")
    refuse("the frontmatter needs a description, as text: what the skill does and when to use it");
  const problem = skillNameProblem(name as string);
  if (problem) refuse(problem);
  if (options.folder !== undefined && options.folder !== name)
    refuse(`the name "${name as string}" must equal the name of its folder, "${options.folder}"`);
  const checked = checkedSkillDraft({
    name: name as string,
    description: description as string,
    body,
    metadata,
    ...(options.files ? { files: options.files } : {}),
  });
  return checked;
}

function readFrontmatter(frontmatter: string): Record<string, unknown> {
  const document = parseDocument(frontmatter, {
    schema: "core",
    merge: false,
    resolveKnownTags: false,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
  });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) refuse(`the frontmatter is not valid YAML: ${problem.message.split("\n")[0]}`);
  let value: unknown;
  try {
    // No alias at all: a skill's frontmatter has no need of one, and none can expand into a bomb.
    value = document.toJS({ maxAliasCount: 0 });
  } catch {
    refuse("the frontmatter uses YAML anchors or aliases (&, *); write each value out");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    refuse("the frontmatter must be a mapping of fields (name: …, description: …)");
  return value as Record<string, unknown>;
}
