/**
 * @module The skill catalogue: one compact line per skill of a tenant (`- name: description`), for a host
 * to put in its prompt so the model knows which skill to load_skill. It is held to a token budget counted
 * with the same TokenCounter as the tool catalogue; what does not fit is dropped, and never silently: a
 * context provider has no event stream, so the notice naming how many were left out, and how to reach them,
 * is rendered into the text itself.
 */
import type { CatalogBudget } from "./fit-catalog.js";
import type { TokenCounter } from "./token-counter.js";

/** What a catalogue line shows of a skill. */
export interface SkillEntry {
  name: string;
  description: string;
}

export interface FittedSkillCatalog {
  /** The section for the prompt: a heading line, the lines that fit, and the notice when some did not. */
  text: string;
  listed: string[];
  /** Every skill left out, in the order given. */
  dropped: string[];
  usedTokens: number;
}

const HEADING = "Skills (instructions for kinds of task; load one with load_skill before such a task):";

const notice = (dropped: number) =>
  `(${dropped} more ${dropped === 1 ? "skill is" : "skills are"} not listed here, to keep within the budget: call load_skill with no name to list them all)`;

/** An entry's line: the description on one line, as written, since a skill's description is its own. */
const lineOf = (skill: SkillEntry) => `- ${skill.name}: ${skill.description.replace(/\s+/g, " ").trim()}`;

/**
 * The skills that fit in `budget`, in the order given (a store lists them by name, so the section is a
 * stable prefix for prompt caching), the notice's tokens reserved when anything is dropped. An entry too
 * large for what is left is skipped and a smaller one after it may still fit. No skills: an empty text.
 */
export function fitSkillCatalog(
  skills: readonly SkillEntry[],
  { budget, counter }: { budget: CatalogBudget; counter: TokenCounter },
): FittedSkillCatalog {
  if (!Number.isInteger(budget.maxTokens) || budget.maxTokens <= 0) {
    throw new RangeError("catalogBudget.maxTokens must be a positive whole number");
  }
  if (skills.length === 0) return { text: "", listed: [], dropped: [], usedTokens: 0 };
  const lines = skills.map((skill) => ({
    skill,
    line: lineOf(skill),
    tokens: counter.count(`${lineOf(skill)}\n`),
  }));
  const heading = counter.count(`${HEADING}\n`);
  const all = lines.reduce((sum, entry) => sum + entry.tokens, heading);
  if (all <= budget.maxTokens) {
    return {
      text: [HEADING, ...lines.map((entry) => entry.line)].join("\n"),
      listed: skills.map((s) => s.name),
      dropped: [],
      usedTokens: all,
    };
  }
  // Room for the notice is kept whatever its count: the longest it can be, with every skill dropped.
  const reserve = counter.count(notice(skills.length));
  let used = heading + reserve;
  const kept: typeof lines = [];
  for (const entry of lines) {
    if (used + entry.tokens > budget.maxTokens) continue;
    used += entry.tokens;
    kept.push(entry);
  }
  const dropped = lines.filter((entry) => !kept.includes(entry)).map((entry) => entry.skill.name);
  const text = [HEADING, ...kept.map((entry) => entry.line), notice(dropped.length)].join("\n");
  return { text, listed: kept.map((entry) => entry.skill.name), dropped, usedTokens: counter.count(text) };
}
