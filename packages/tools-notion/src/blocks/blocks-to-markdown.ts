/**
 * @module A block tree as markdown, for a model to read: paragraphs, headings, lists, to-dos, code, quotes,
 * callouts, toggles, dividers and child page titles as markdown says them; any other block degrades to its
 * plain text with its type named (`[bookmark] …`), so nothing a page holds is silently dropped. Children are
 * indented under their parent.
 */
import type { BlockObjectResponse, RichTextItemResponse } from "@notionhq/client";
import { plainText } from "./rich-text.js";

/** A block with the children read below it; `childrenOmitted` when it has children a limit left unread. */
export interface BlockNode {
  block: BlockObjectResponse;
  children: BlockNode[];
  childrenOmitted: boolean;
}

const INDENT = "  ";

export function blocksToMarkdown(nodes: readonly BlockNode[], depth = 0): string {
  const lines: string[] = [];
  let number = 0;
  for (const node of nodes) {
    number = node.block.type === "numbered_list_item" ? number + 1 : 0;
    const indent = INDENT.repeat(depth);
    const own = blockLine(node.block, number);
    lines.push(...own.split("\n").map((line) => (line === "" ? "" : `${indent}${line}`)));
    if (node.children.length > 0) lines.push(blocksToMarkdown(node.children, depth + 1));
    if (node.childrenOmitted) lines.push(`${indent}${INDENT}[… nested blocks not read: a limit was reached]`);
  }
  return lines.join("\n");
}

/** The markdown of one block, without its children. */
export function blockLine(block: BlockObjectResponse, number = 1): string {
  switch (block.type) {
    case "paragraph":
      return plainText(block.paragraph.rich_text);
    case "heading_1":
      return `# ${plainText(block.heading_1.rich_text)}`;
    case "heading_2":
      return `## ${plainText(block.heading_2.rich_text)}`;
    case "heading_3":
      return `### ${plainText(block.heading_3.rich_text)}`;
    case "bulleted_list_item":
      return `- ${plainText(block.bulleted_list_item.rich_text)}`;
    case "numbered_list_item":
      return `${number}. ${plainText(block.numbered_list_item.rich_text)}`;
    case "to_do":
      return `- [${block.to_do.checked ? "x" : " "}] ${plainText(block.to_do.rich_text)}`;
    case "toggle":
      return `▸ ${plainText(block.toggle.rich_text)}`;
    case "quote":
      return quoted(plainText(block.quote.rich_text));
    case "callout": {
      const icon = block.callout.icon?.type === "emoji" ? `${block.callout.icon.emoji} ` : "";
      return quoted(`${icon}${plainText(block.callout.rich_text)}`);
    }
    case "code": {
      const code = plainText(block.code.rich_text);
      const fence = "`".repeat(longestRun(code, "`") + 1);
      return `${fence}${block.code.language === "plain text" ? "" : block.code.language}\n${code}\n${fence}`;
    }
    case "divider":
      return "---";
    case "child_page":
      return `[child page] ${block.child_page.title} (${block.id})`;
    case "child_database":
      return `[child database] ${block.child_database.title} (${block.id})`;
    case "table_row":
      return `| ${block.table_row.cells.map((cell) => plainText(cell)).join(" | ")} |`;
    default:
      return `[${block.type}]${textOf(block)}`;
  }
}

/**
 * The longest run of `char` in `text`, at least 2: a fence one longer cannot be closed by the code. A loop,
 * not Math.max(...runs), which overflows the stack on a long code block with many runs.
 */
function longestRun(text: string, char: string): number {
  let longest = 2;
  let run = 0;
  for (const each of text) {
    run = each === char ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

function quoted(text: string): string {
  return text
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/**
 * The text any other block carries (its rich text, a caption, a URL; a file, image, pdf or video's URL
 * under `external.url` or `file.url`, developers.notion.com/reference/file-object), after a space; empty
 * when none.
 */
function textOf(block: BlockObjectResponse): string {
  const content = (block as unknown as Record<string, unknown>)[block.type] as
    | Record<string, unknown>
    | undefined;
  if (!content || typeof content !== "object") return "";
  const parts: string[] = [];
  for (const key of ["rich_text", "caption"]) {
    const items = content[key];
    if (Array.isArray(items)) parts.push(plainText(items as RichTextItemResponse[]));
  }
  for (const key of ["name", "url", "expression", "title"]) {
    if (typeof content[key] === "string") parts.push(content[key] as string);
  }
  for (const key of ["external", "file"]) {
    const hosted = content[key] as { url?: unknown } | undefined;
    if (hosted && typeof hosted.url === "string") parts.push(hosted.url);
  }
  const text = parts.filter((part) => part !== "").join(" ");
  return text === "" ? "" : ` ${text}`;
}
