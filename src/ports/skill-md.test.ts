/** @module SKILL.md parsing on hostile frontmatter: what is refused, with what message, and what is kept. */
import { describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import { parseSkillMd } from "./skill-md.js";

const md = (frontmatter: string, body = "# Body\n") => `---\n${frontmatter}\n---\n${body}`;

function refusal(text: string, options?: Parameters<typeof parseSkillMd>[1]): string {
  try {
    parseSkillMd(text, options);
  } catch (error) {
    if (!ToolFailure.isInstance(error) || error.envelopeCode !== "invalid_input") throw error;
    return error.message;
  }
  throw new Error("expected a refusal");
}

describe("parseSkillMd", () => {
  it("reads name, description and body, and keeps every other field as metadata it never acts on", () => {
    const parsed = parseSkillMd(
      "\uFEFF---\r\nname: pdf-forms\r\ndescription: >\n  Fill PDF forms.\n  Use for forms.\nlicense: MIT\nallowed-tools: shell_exec fs_write\nmetadata:\n  author: ada\n---\n# Forms\n\nStep one.\n",
      { folder: "pdf-forms", files: { "reference/a.md": "A" } },
    );
    expect(parsed).toEqual({
      name: "pdf-forms",
      description: "Fill PDF forms. Use for forms.",
      body: "# Forms\n\nStep one.\n",
      files: { "reference/a.md": "A" },
      metadata: { license: "MIT", "allowed-tools": "shell_exec fs_write", metadata: { author: "ada" } },
    });
  });

  it("refuses an alias bomb, and any anchor or alias, before expanding anything", () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let n = 1; n < 9; n++) {
      const previous = String.fromCharCode(96 + n);
      const next = String.fromCharCode(97 + n);
      levels.push(`${next}: &${next} [${Array(9).fill(`*${previous}`).join(",")}]`);
    }
    const started = Date.now();
    expect(refusal(md(`name: bomb\ndescription: d\n${levels.join("\n")}`))).toMatch(/anchors or aliases/);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(refusal(md("name: a\ndescription: &d text\nother: *d"))).toMatch(/anchors or aliases/);
  });

  it("refuses tags that build objects, merge keys' duplicates and duplicate keys", () => {
    expect(refusal(md("name: a\ndescription: d\nx: !!js/function 'function () {}'"))).toMatch(
      /not valid YAML/,
    );
    expect(refusal(md("name: a\ndescription: d\nx: !!binary aGVsbG8="))).toMatch(/not valid YAML/);
    expect(refusal(md("name: a\ndescription: d\nx: !!python/object:os.system ls"))).toMatch(/not valid YAML/);
    expect(refusal(md("name: a\nname: b\ndescription: d"))).toMatch(/unique/);
    expect(refusal(md("name: a\ndescription: d\n  bad: indentation"))).toMatch(/not valid YAML/);
  });

  it("refuses a name or description that is not text, missing, too long or against the name rule", () => {
    expect(refusal(md("name: 12\ndescription: d"))).toMatch(/needs a name, as text/);
    expect(refusal(md("name: [a]\ndescription: d"))).toMatch(/needs a name/);
    expect(refusal(md("name: a\ndescription: {x: 1}"))).toMatch(/needs a description/);
    expect(refusal(md("name: a"))).toMatch(/needs a description/);
    expect(refusal(md("description: d"))).toMatch(/needs a name/);
    expect(refusal(md(`name: ${"a".repeat(65)}\ndescription: d`))).toMatch(/1-64 characters/);
    expect(refusal(md(`name: a\ndescription: ${"d".repeat(1_025)}`))).toMatch(/keep it to 1024/);
    expect(refusal(md("name: Not_A_Name\ndescription: d"))).toMatch(/lower-case/);
    expect(refusal(md("name: a\ndescription: d"), { folder: "b" })).toMatch(
      /must equal the name of its folder, "b"/,
    );
  });

  it("refuses what is not a frontmatter at all, or one too large to parse", () => {
    expect(refusal("# No frontmatter\n")).toMatch(/must begin with a "---" line/);
    expect(refusal("---\nname: a\ndescription: d\n")).toMatch(/no closing/);
    expect(refusal(md("- a\n- b"))).toMatch(/mapping of fields/);
    expect(refusal(md("just text"))).toMatch(/mapping of fields/);
    expect(refusal(md(`name: a\ndescription: d\npad: ${"x".repeat(17_000)}`))).toMatch(/over 16 KiB/);
  });
});
