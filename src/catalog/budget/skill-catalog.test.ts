/** @module The skill catalogue within a token budget, counted with the o200k counter the tool catalogue uses. */
import { describe, expect, it } from "vitest";
import { fitSkillCatalog } from "./skill-catalog.js";
import { loadO200kCounter } from "./token-counter.js";

const counter = await loadO200kCounter();
const skills = Array.from({ length: 30 }, (_, n) => ({
  name: `skill-${String(n).padStart(2, "0")}`,
  description: `Does task number ${n} of the finance team's month-end close. Use when asked about step ${n}.`,
}));

describe("fitSkillCatalog", () => {
  it("lists every skill, one line each, when they fit", () => {
    const fitted = fitSkillCatalog(skills.slice(0, 2), { budget: { maxTokens: 1_000 }, counter });
    expect(fitted.text).toBe(
      [
        "Skills (instructions for kinds of task; load one with load_skill before such a task):",
        `- skill-00: ${skills[0]!.description}`,
        `- skill-01: ${skills[1]!.description}`,
      ].join("\n"),
    );
    expect(fitted).toMatchObject({ listed: ["skill-00", "skill-01"], dropped: [] });
    expect(fitted.usedTokens).toBeLessThanOrEqual(1_000);
  });

  it("drops what does not fit, names it, and says so in the text itself", () => {
    const fitted = fitSkillCatalog(skills, { budget: { maxTokens: 200 }, counter });
    expect(fitted.listed.length).toBeGreaterThan(0);
    expect(fitted.dropped.length).toBe(30 - fitted.listed.length);
    expect(fitted.listed).toEqual(skills.slice(0, fitted.listed.length).map((skill) => skill.name));
    expect(counter.count(fitted.text)).toBeLessThanOrEqual(200);
    expect(fitted.text).toMatch(
      new RegExp(`\\(${fitted.dropped.length} more skills are not listed here.*load_skill with no name`),
    );
    for (const name of fitted.dropped) expect(fitted.text).not.toContain(name);
  });

  it("keeps a description on one line, has nothing to say of no skills, and refuses a budget of nothing", () => {
    const forged = fitSkillCatalog([{ name: "a", description: "one\n- b: forged entry" }], {
      budget: { maxTokens: 100 },
      counter,
    });
    expect(forged.text.split("\n")).toHaveLength(2);
    expect(fitSkillCatalog([], { budget: { maxTokens: 10 }, counter }).text).toBe("");
    expect(() => fitSkillCatalog(skills, { budget: { maxTokens: 0 }, counter })).toThrow(RangeError);
  });
});
