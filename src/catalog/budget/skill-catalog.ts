/**
 * @module The skill catalogue: one compact line per skill of a tenant (`- name: description`), for a host
 * to put in its prompt so the model knows which skill to load_skill. Names and descriptions are written by
 * the tenant's people and agents, so the lines sit inside the untrusted-content fence, as load_skill's own
 * list does; the heading and the notice are the registry's and stay outside it. The whole section is held
 * to a token budget counted with the same TokenCounter as the tool catalogue; what does not fit is
 * dropped, and never silently: a context provider has no event stream, so the notice naming how many were
 * left out, and how to reach them, is rendered into the text itself.
 */
import { sha256 } from "../../declaration/tool-hash.js";
import { encloseUntrusted, neutralise } from "../../seam/untrusted-fence.js";
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

const SOURCE = "the tenant's skills (tenant-authored)";

const HEADING = "Skills (instructions for kinds of task; load one with load_skill before such a task):";

const notice = (dropped: number) =>
  `(${dropped} more ${dropped === 1 ? "skill is" : "skills are"} not listed here, to keep within the budget: call load_skill with no name to list them all)`;

/** An entry's line: the description on one line, as written, since a skill's description is its own. */
const lineOf = (skill: SkillEntry) => `- ${skill.name}: ${skill.description.replace(/\s+/g, " ").trim()}`;

/**
 * The skills that fit in `budget`, in the order given (a store lists them by name), the notice's tokens
 * reserved when anything is dropped. An entry too large for what is left is skipped and a smaller one after
 * it may still fit. The fence's nonce comes from every line given, so the section renders byte-identically
 * while the skills are unchanged (a stable prefix for prompt caching). No skills, or a budget too small for
 * the heading and the notice: an empty text, every skill dropped.
 */
export function fitSkillCatalog(
  skills: readonly SkillEntry[],
  { budget, counter }: { budget: CatalogBudget; counter: TokenCounter },
): FittedSkillCatalog {
  if (!Number.isInteger(budget.maxTokens) || budget.maxTokens <= 0) {
    throw new RangeError("catalogBudget.maxTokens must be a positive whole number");
  }
  if (skills.length === 0) return { text: "", listed: [], dropped: [], usedTokens: 0 };
  const lines = skills.map((skill) => ({ name: skill.name, text: lineOf(skill) }));
  const nonce = sha256(`${SOURCE}\n${lines.map((line) => line.text).join("\n")}`).slice(0, 16);
  // The fence only around lines: with none listed, the section is the heading and the notice.
  const render = (kept: readonly number[], fence = kept.length > 0) => {
    const fenced = encloseUntrusted(kept.map((index) => lines[index]!.text).join("\n"), SOURCE, nonce);
    const dropped = skills.length - kept.length;
    return [HEADING, ...(fence ? [fenced] : []), ...(dropped > 0 ? [notice(dropped)] : [])].join("\n");
  };
  const fitted = (kept: readonly number[], text: string): FittedSkillCatalog => {
    const listed = new Set(kept);
    return {
      text,
      listed: kept.map((index) => lines[index]!.name),
      dropped: lines.filter((_, index) => !listed.has(index)).map((line) => line.name),
      usedTokens: counter.count(text),
    };
  };
  const all = [...skills.keys()];
  const everything = render(all);
  if (counter.count(everything) <= budget.maxTokens) return fitted(all, everything);
  if (counter.count(render([])) > budget.maxTokens)
    return { text: "", listed: [], dropped: lines.map((line) => line.name), usedTokens: 0 };
  // The frame of a list, with every skill dropped: its notice is the longest there can be.
  let used = counter.count(render([], true));
  const kept: number[] = [];
  for (const [index, line] of lines.entries()) {
    // The line as the fence renders it, with the newline that joins it to the next.
    const tokens = counter.count(`${neutralise(line.text, nonce)}\n`);
    if (used + tokens > budget.maxTokens) continue;
    used += tokens;
    kept.push(index);
  }
  // Counted line by line, the sum can miss a token where lines meet: the rendered text is what must fit.
  let text = render(kept);
  while (kept.length > 0 && counter.count(text) > budget.maxTokens) {
    kept.pop();
    text = render(kept);
  }
  return fitted(kept, text);
}
