import type { BlockObjectResponse } from "@notionhq/client";
import { describe, expect, it } from "vitest";
import { blockObject, richText } from "../fake/notion-objects.js";
import { blockLine } from "./blocks-to-markdown.js";

const base = () => {
  const {
    type: _type,
    paragraph: _paragraph,
    ...rest
  } = blockObject({ type: "paragraph", text: "" }, "parent") as Extract<
    BlockObjectResponse,
    { type: "paragraph" }
  >;
  return rest;
};

describe("blockLine", () => {
  it("renders a table row's cells", () => {
    const row: BlockObjectResponse = {
      ...base(),
      type: "table_row",
      table_row: { cells: [[richText("Name")], [richText("Owner"), richText(" (lead)")], []] },
    };
    expect(blockLine(row)).toBe("| Name | Owner (lead) |  |");
  });

  it("names a file's, image's, pdf's or video's URL, hosted by Notion or external", () => {
    const image: BlockObjectResponse = {
      ...base(),
      type: "image",
      image: { type: "external", external: { url: "https://example.com/a.png" }, caption: [richText("A")] },
    };
    const file: BlockObjectResponse = {
      ...base(),
      type: "file",
      file: {
        type: "file",
        file: { url: "https://files.notion.so/b.pdf", expiry_time: "2026-01-01T00:00:00.000Z" },
        caption: [],
        name: "b.pdf",
      },
    };
    expect(blockLine(image)).toBe("[image] A https://example.com/a.png");
    expect(blockLine(file)).toBe("[file] b.pdf https://files.notion.so/b.pdf");
  });

  it("fences a long code block with many backtick runs without overflowing the stack", () => {
    const code = `${"`a".repeat(200_000)}\`\`\`\``;
    const block = blockObject({ type: "code", text: code, language: "plain text" }, "parent");
    const rendered = blockLine(block);
    expect(rendered.startsWith("`````\n")).toBe(true);
    expect(rendered.endsWith("\n`````")).toBe(true);
  });
});
