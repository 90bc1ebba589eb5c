import { describe, expect, it } from "vitest";
import { markdownToAdf } from "../adf/markdown-to-adf.js";
import { adfProblem } from "./adf-check.js";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
const doc = (...content: unknown[]) => ({ type: "doc", version: 1, content });

describe("the fake's ADF check", () => {
  it("refuses what Jira refuses: a quote in a quote or a list item, a heading in a quote, an empty text", () => {
    expect(
      adfProblem(doc({ type: "blockquote", content: [{ type: "blockquote", content: [paragraph("x")] }] })),
    ).toBe("doc/blockquote[0]: blockquote is not allowed in blockquote");
    const item = { type: "listItem", content: [{ type: "blockquote", content: [paragraph("x")] }] };
    expect(adfProblem(doc({ type: "bulletList", content: [item] }))).toMatch(
      /blockquote is not allowed in listItem/,
    );
    expect(
      adfProblem(doc({ type: "blockquote", content: [{ type: "heading", attrs: { level: 1 } }] })),
    ).toMatch(/heading is not allowed/);
    expect(adfProblem(doc({ type: "paragraph", content: [{ type: "text", text: "" }] }))).toMatch(
      /needs text/,
    );
    expect(adfProblem(doc({ type: "bulletList", content: [] }))).toMatch(/needs content/);
    expect(adfProblem(doc(paragraph("x"), { type: "wormhole" }))).toBe("doc: wormhole is not allowed in doc");
    const codeAndStrong = { type: "text", text: "x", marks: [{ type: "code" }, { type: "strong" }] };
    expect(adfProblem(doc({ type: "paragraph", content: [codeAndStrong] }))).toMatch(
      /code mark combines only/,
    );
    expect(adfProblem("plain text")).toMatch(/not a document/);
  });

  it("passes every document markdownToAdf writes, however the markdown nests", () => {
    for (const markdown of [
      "# T\n\n> > nested quote\n>\n> > # heading\n\n- > quoted item\n  > more\n- ## heading item\n\n> - a\n>   > b",
      "| a | b |\n| - | - |\n| **x** | `y` |\n\n> | t |\n> | - |\n> | 1 |\n\n- ```js\n  code\n  ```\n\n---",
      "[`code link`](https://x.example) ***both*** ~~**s**~~ [^1]\n\n[^1]: note\n\n- [ ] task\n- [x] done",
    ]) {
      expect(adfProblem(markdownToAdf(markdown)), markdown).toBeUndefined();
    }
  });
});
