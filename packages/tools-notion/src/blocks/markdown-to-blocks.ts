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

// Each pattern matches a line's marker only, and the text is the rest of the line: a pattern such as
// /^#\s+(.*)$/ backtracks quadratically on a line holding a character `.` does not match (U+2028).
const HEADING = /^#{1,6}\s/;
const TODO = /^[-*+]\s+\[([ xX])\]\s/;
const BULLET = /^[-*+]\s/;
const NUMBERED = /^\d{1,9}[.)]\s/;
const QUOTE = /^>/;
const FENCE = /^(```|~~~)\s*([\w#+.-]*)\s*$/;
const DIVIDER = /^(?:-{3,}|\*{3,}|_{3,})$/;

type RunType = "paragraph" | "quote";

/** The blocks `markdown` describes, in order. */
export function markdownToBlocks(markdown: string): BlockObjectRequest[] {
  const blocks: BlockObjectRequest[] = [];
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  // Consecutive paragraph or quote lines make one block; a line of another kind ends the run first, so
  // blocks keep the order of the markdown.
  let run: { type: RunType; lines: string[] } | undefined;
  const flush = () => {
    if (run) blocks.push(...textBlocks(run.type, run.lines.join("\n")));
    run = undefined;
  };
  const extend = (type: RunType, line: string) => {
    if (run?.type !== type) flush();
    if (run) run.lines.push(line);
    else run = { type, lines: [line] };
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
    if (QUOTE.test(trimmed)) {
      extend("quote", trimmed.slice(1).replace(/^\s/, ""));
      continue;
    }
    if (trimmed === "") {
      flush();
      continue;
    }
    const item = itemBlocks(trimmed);
    if (item) {
      flush();
      blocks.push(...item);
    } else extend("paragraph", trimmed);
  }
  flush();
  return blocks;
}

/** The text after a line's marker, without the spaces that follow it. */
function after(marker: RegExpExecArray, line: string): string {
  return line.slice(marker[0].length).trimStart();
}

/** A line that is a block of its own: a heading, an item, a divider; undefined for paragraph text. */
function itemBlocks(line: string): BlockObjectRequest[] | undefined {
  if (DIVIDER.test(line)) return [{ object: "block", type: "divider", divider: {} }];
  const heading = HEADING.exec(line);
  if (heading) {
    const level = Math.min(3, heading[0].trimEnd().length) as 1 | 2 | 3;
    return textBlocks(`heading_${level}`, after(heading, line));
  }
  const todo = TODO.exec(line);
  if (todo) {
    return [
      {
        object: "block",
        type: "to_do",
        to_do: { rich_text: toRichText(after(todo, line)), checked: todo[1] !== " " },
      },
    ];
  }
  const bullet = BULLET.exec(line);
  if (bullet) return textBlocks("bulleted_list_item", after(bullet, line));
  const numbered = NUMBERED.exec(line);
  if (numbered) return textBlocks("numbered_list_item", after(numbered, line));
  return undefined;
}

function textBlocks(type: TextBlockType, text: string): BlockObjectRequest[] {
  return [{ object: "block", type, [type]: { rich_text: toRichText(text) } } as BlockObjectRequest];
}

function codeBlocks(code: string, fenceLanguage: string): BlockObjectRequest[] {
  const language = LANGUAGES[fenceLanguage.toLowerCase()] ?? "plain text";
  return [{ object: "block", type: "code", code: { rich_text: toRichText(code), language } }];
}
