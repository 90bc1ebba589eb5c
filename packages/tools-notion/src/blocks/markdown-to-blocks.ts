/**
 * @module Markdown as Notion blocks, for a model that writes markdown. What it reads: headings (#, ##, ###;
 * deeper ones become heading 3), bulleted (-, *, +), numbered (1.) and to-do (- [ ], - [x]) items, quotes
 * (>), fenced code with its language, dividers (---), and paragraphs (lines until a blank one). Inline
 * markup (**bold**, links) stays as typed: Notion shows it as text, and nothing is lost. Nesting by
 * indentation is flattened. Markdown is taken up to MARKDOWN_MAX_CHARS, below what one block's rich text
 * holds (100 text objects of 2,000 characters), so every block's text fits it whole.
 */
import type { BlockObjectRequest } from "@notionhq/client";
import { RICH_TEXT_MAX, toRichText } from "./rich-text.js";

/** The most markdown one call converts: half of one block's rich text, and far below Notion's 500 KB body. */
export const MARKDOWN_MAX_CHARS = RICH_TEXT_MAX / 2;

type CodeLanguage = Extract<BlockObjectRequest, { type?: "code" }>["code"]["language"];
type TextBlockType =
  | "paragraph"
  | "heading_1"
  | "heading_2"
  | "heading_3"
  | "bulleted_list_item"
  | "numbered_list_item"
  | "quote";

/** Languages a fence may name as Notion spells them; the usual short names mapped; anything else is plain text. */
const LANGUAGES: Record<string, CodeLanguage> = {
  bash: "bash",
  sh: "shell",
  shell: "shell",
  zsh: "shell",
  c: "c",
  cpp: "c++",
  "c++": "c++",
  cs: "c#",
  csharp: "c#",
  css: "css",
  diff: "diff",
  dockerfile: "docker",
  go: "go",
  graphql: "graphql",
  html: "html",
  java: "java",
  js: "javascript",
  javascript: "javascript",
  json: "json",
  kotlin: "kotlin",
  markdown: "markdown",
  md: "markdown",
  mermaid: "mermaid",
  php: "php",
  py: "python",
  python: "python",
  rb: "ruby",
  ruby: "ruby",
  rust: "rust",
  rs: "rust",
  sql: "sql",
  swift: "swift",
  toml: "toml",
  ts: "typescript",
  typescript: "typescript",
  xml: "xml",
  yaml: "yaml",
  yml: "yaml",
};

const HEADING = /^(#{1,6})\s+(.*)$/;
const TODO = /^[-*+]\s+\[([ xX])\]\s+(.*)$/;
const BULLET = /^[-*+]\s+(.*)$/;
const NUMBERED = /^\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^>\s?(.*)$/;
const FENCE = /^(```|~~~)\s*([\w#+.-]*)\s*$/;
const DIVIDER = /^(?:-{3,}|\*{3,}|_{3,})$/;

/** The blocks `markdown` describes, in order. */
export function markdownToBlocks(markdown: string): BlockObjectRequest[] {
  const blocks: BlockObjectRequest[] = [];
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  let paragraph: string[] = [];
  let quote: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push(...textBlocks("paragraph", paragraph.join("\n")));
    if (quote.length > 0) blocks.push(...textBlocks("quote", quote.join("\n")));
    paragraph = [];
    quote = [];
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const trimmed = line.trim();
    const fence = FENCE.exec(trimmed);
    if (fence) {
      flush();
      const body: string[] = [];
      index++;
      while (index < lines.length && (lines[index] ?? "").trim() !== fence[1])
        body.push(lines[index++] ?? "");
      blocks.push(...codeBlocks(body.join("\n"), fence[2] ?? ""));
      continue;
    }
    const quoted = QUOTE.exec(trimmed);
    if (quoted) {
      if (paragraph.length > 0) flush();
      quote.push(quoted[1] ?? "");
      continue;
    }
    if (trimmed === "" || !isPlain(trimmed)) flush();
    if (trimmed === "") continue;
    const item = itemBlocks(trimmed);
    if (item) blocks.push(...item);
    else paragraph.push(trimmed);
  }
  flush();
  return blocks;
}

function isPlain(line: string): boolean {
  return !(HEADING.test(line) || BULLET.test(line) || NUMBERED.test(line) || DIVIDER.test(line));
}

/** A line that is a block of its own: a heading, an item, a divider; undefined for paragraph text. */
function itemBlocks(line: string): BlockObjectRequest[] | undefined {
  if (DIVIDER.test(line)) return [{ object: "block", type: "divider", divider: {} }];
  const heading = HEADING.exec(line);
  if (heading) {
    const level = Math.min(3, heading[1]?.length ?? 1) as 1 | 2 | 3;
    return textBlocks(`heading_${level}`, heading[2] ?? "");
  }
  const todo = TODO.exec(line);
  if (todo) {
    return [
      {
        object: "block",
        type: "to_do",
        to_do: { rich_text: toRichText(todo[2] ?? ""), checked: todo[1] !== " " },
      },
    ];
  }
  const bullet = BULLET.exec(line);
  if (bullet) return textBlocks("bulleted_list_item", bullet[1] ?? "");
  const numbered = NUMBERED.exec(line);
  if (numbered) return textBlocks("numbered_list_item", numbered[1] ?? "");
  return undefined;
}

function textBlocks(type: TextBlockType, text: string): BlockObjectRequest[] {
  return [{ object: "block", type, [type]: { rich_text: toRichText(text) } } as BlockObjectRequest];
}

function codeBlocks(code: string, fenceLanguage: string): BlockObjectRequest[] {
  const language = LANGUAGES[fenceLanguage.toLowerCase()] ?? "plain text";
  return [{ object: "block", type: "code", code: { rich_text: toRichText(code), language } }];
}
