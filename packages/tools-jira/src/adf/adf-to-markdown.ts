/**
 * @module An Atlassian Document Format document as markdown (CommonMark with GFM tables and strikethrough),
 * by walking the tree. What markdown can say is said (headings, lists, code blocks with their language,
 * quotes, rules, hard breaks, tables, strong, em, code, links, strike); every other node keeps its text:
 * a mention its `@name`, an emoji its character or `:shortName:`, a panel or an expand their content, a card
 * its URL, a node with no text at all its type in brackets (`[media]`), so nothing a person wrote vanishes
 * and no document is refused. The output is bounded, and nesting past a depth is read as plain text.
 */
import type { AdfMark, AdfNode } from "./adf-node.js";

export interface MarkdownOptions {
  /** The most characters returned; the rest is cut and `truncated` says so. */
  maxChars?: number;
}

export interface RenderedMarkdown {
  markdown: string;
  truncated: boolean;
}

/** Deeper than this, a node's text is all that is kept: a bound on recursion over a vendor's tree. */
const MAX_DEPTH = 32;
const DEFAULT_MAX_CHARS = 50_000;

export function adfToMarkdown(
  document: AdfNode | null | undefined,
  options: MarkdownOptions = {},
): RenderedMarkdown {
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  const markdown = document ? blocks(document.content ?? [], 0).trimEnd() : "";
  if (markdown.length <= maxChars) return { markdown, truncated: false };
  return { markdown: `${markdown.slice(0, maxChars)}…`, truncated: true };
}

/** Block nodes, one blank line apart. */
function blocks(nodes: readonly AdfNode[], depth: number): string {
  return nodes
    .map((node) => block(node, depth))
    .filter((text) => text.length > 0)
    .join("\n\n");
}

function block(node: AdfNode, depth: number): string {
  if (depth > MAX_DEPTH) return escapeText(textOf(node));
  const inner = depth + 1;
  switch (node.type) {
    case "paragraph":
      return escapeLineStarts(inline(node.content ?? []));
    case "heading": {
      const level = clampLevel(node.attrs?.level);
      return `${"#".repeat(level)} ${inline(node.content ?? [])}`.trimEnd();
    }
    case "bulletList":
      return listItems(node, inner, () => "- ");
    case "orderedList": {
      const start = typeof node.attrs?.order === "number" && node.attrs.order >= 0 ? node.attrs.order : 1;
      return listItems(node, inner, (index) => `${start + index}. `);
    }
    case "codeBlock":
      return codeBlock(node);
    case "blockquote":
      return prefixLines(blocks(node.content ?? [], inner), "> ", ">");
    case "rule":
      return "---";
    case "table":
      return table(node);
    case "mediaSingle":
    case "mediaGroup":
    case "media":
      return mediaText(node);
    case "blockCard":
    case "embedCard":
      return cardText(node);
    default:
      return unknownBlock(node, inner);
  }
}

/** A node this module does not render: its child blocks (a panel, an expand, a layout), or its text. */
function unknownBlock(node: AdfNode, depth: number): string {
  const content = node.content ?? [];
  const title = typeof node.attrs?.title === "string" ? escapeText(node.attrs.title) : "";
  if (content.length > 0 && content.every((child) => !isInline(child))) {
    const body = blocks(content, depth);
    return title ? `${title}\n\n${body}` : body;
  }
  const text = content.length > 0 ? inline(content) : inlineNode(node);
  return title ? `${title}\n\n${text}` : text;
}

function listItems(node: AdfNode, depth: number, marker: (index: number) => string): string {
  return (node.content ?? [])
    .map((item, index) => {
      const prefix = marker(index);
      // An item's paragraphs and nested lists, a nested list directly under its item's first line.
      const body = (item.content ?? (item.type === "listItem" ? [] : [item]))
        .map((child) => block(child, depth))
        .filter((text) => text.length > 0)
        .join("\n");
      return prefixLines(body, " ".repeat(prefix.length), "", prefix);
    })
    .join("\n");
}

function codeBlock(node: AdfNode): string {
  const code = textOf(node);
  const language =
    typeof node.attrs?.language === "string" ? node.attrs.language.replace(/[^\w+#.-]/g, "") : "";
  const fence = "`".repeat(Math.max(2, longestBacktickRun(code)) + 1);
  return `${fence}${language}\n${code}\n${fence}`;
}

function table(node: AdfNode): string {
  const rows = (node.content ?? []).map((row) =>
    (row.content ?? []).map((cell) =>
      (cell.content ?? [])
        .map((child) => (isInline(child) ? inlineNode(child) : inline(child.content ?? []) || textOf(child)))
        .join(" ")
        .replace(/\n/g, " ")
        .replace(/\|/g, "\\|")
        .trim(),
    ),
  );
  let width = 1;
  for (const row of rows) width = Math.max(width, row.length);
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => cells[index] ?? "").join(" | ")} |`;
  const [header = [], ...body] = rows;
  return [line(header), `| ${Array(width).fill("---").join(" | ")} |`, ...body.map(line)].join("\n");
}

/** Inline nodes as one run of markdown; hard breaks as a backslash before the newline. */
function inline(nodes: readonly AdfNode[]): string {
  return nodes.map(inlineNode).join("");
}

function inlineNode(node: AdfNode): string {
  switch (node.type) {
    case "text":
      return marked(node.text ?? "", node.marks ?? []);
    case "hardBreak":
      return "\\\n";
    case "mention": {
      const text = stringAttr(node, "text") ?? `@${stringAttr(node, "id") ?? "someone"}`;
      return escapeText(text.startsWith("@") ? text : `@${text}`);
    }
    case "emoji":
      return escapeText(stringAttr(node, "text") ?? stringAttr(node, "shortName") ?? "");
    case "inlineCard":
      return cardText(node);
    case "date": {
      const stamp = Number(node.attrs?.timestamp);
      return Number.isFinite(stamp) && stamp > 0 ? new Date(stamp).toISOString().slice(0, 10) : "[date]";
    }
    case "status":
      return escapeText(`[${stringAttr(node, "text") ?? "status"}]`);
    default: {
      const text = textOf(node);
      return text ? escapeText(text) : `[${escapeText(node.type)}]`;
    }
  }
}

/** Text with its marks: code innermost, a link outermost, whitespace kept outside the delimiters. */
function marked(text: string, marks: readonly AdfMark[]): string {
  if (text.length === 0) return "";
  const has = (type: string) => marks.some((mark) => mark.type === type);
  // Lengths, not a regular expression: a lazy match over a long run of spaces is quadratic.
  const leadLength = text.length - text.trimStart().length;
  if (leadLength === text.length) return text;
  const trailLength = text.length - text.trimEnd().length;
  const lead = text.slice(0, leadLength);
  const core = text.slice(leadLength, text.length - trailLength);
  const trail = text.slice(text.length - trailLength);
  let out = has("code") ? codeSpan(core) : escapeText(core);
  if (has("em")) out = `*${out}*`;
  if (has("strong")) out = `**${out}**`;
  if (has("strike")) out = `~~${out}~~`;
  const link = marks.find((mark) => mark.type === "link");
  const href = typeof link?.attrs?.href === "string" ? link.attrs.href : undefined;
  if (href !== undefined) out = `[${out}](${linkTarget(href)})`;
  return `${lead}${out}${trail}`;
}

function codeSpan(text: string): string {
  const ticks = "`".repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** The longest run of backticks in `text`, counted in one pass (a spread of every run overflows the stack). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (const char of text) {
    run = char === "`" ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}

/** A link destination markdown reads back as it was: angle brackets when it has spaces or parentheses. */
function linkTarget(href: string): string {
  const clean = href.replace(/[\p{Cc}<>]/gu, (c) => encodeURIComponent(c));
  return /[\s()]/.test(clean) ? `<${clean}>` : clean;
}

function cardText(node: AdfNode): string {
  const url = stringAttr(node, "url");
  return url ? `<${url.replace(/[\s<>]/g, encodeURIComponent)}>` : `[${node.type}]`;
}

/**
 * Media as `[media: alt]` each, a caption as its text: one pass over the nodes with a stack of its own, so a
 * vendor's deep nesting of media neither exhausts the call stack nor reads one subtree at every level.
 */
function mediaText(node: AdfNode): string {
  const parts: string[] = [];
  const stack: AdfNode[] = [node];
  while (stack.length > 0) {
    const next = stack.pop() as AdfNode;
    if (next.type === "media") {
      const alt = stringAttr(next, "alt");
      parts.push(`[media${alt ? `: ${escapeText(alt)}` : ""}]`);
    } else if (typeof next.text === "string") {
      if (next.text.trim()) parts.push(escapeText(next.text.trim()));
    } else pushChildren(stack, next);
  }
  return parts.join(" ") || `[${node.type}]`;
}

/** A node's children onto a stack, first child on top, one at a time (a spread of many overflows the stack). */
function pushChildren(stack: AdfNode[], node: AdfNode): void {
  const content = node.content ?? [];
  for (let index = content.length - 1; index >= 0; index--) stack.push(content[index] as AdfNode);
}

/** Every piece of text under a node, for a node read as text only. */
function textOf(node: AdfNode): string {
  if (typeof node.text === "string") return node.text;
  const own = stringAttr(node, "text") ?? stringAttr(node, "shortName") ?? stringAttr(node, "url");
  if (own !== undefined) return own;
  const separator = (node.content ?? []).some((child) => !isInline(child)) ? "\n" : "";
  const parts: string[] = [];
  // Iterative over the children's text, so a deep vendor tree cannot exhaust the stack here either.
  const stack: AdfNode[] = [];
  pushChildren(stack, node);
  while (stack.length > 0) {
    const next = stack.pop() as AdfNode;
    const text =
      typeof next.text === "string" ? next.text : (stringAttr(next, "text") ?? stringAttr(next, "shortName"));
    if (text !== undefined) parts.push(text);
    else if (next.type === "hardBreak") parts.push("\n");
    else pushChildren(stack, next);
  }
  return parts.join(separator);
}

const INLINE_TYPES = new Set([
  "text",
  "hardBreak",
  "mention",
  "emoji",
  "inlineCard",
  "date",
  "status",
  "placeholder",
  "inlineExtension",
  "mediaInline",
]);

function isInline(node: AdfNode): boolean {
  return INLINE_TYPES.has(node.type);
}

function stringAttr(node: AdfNode, name: string): string | undefined {
  const value = node.attrs?.[name];
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function clampLevel(level: unknown): number {
  return typeof level === "number" && Number.isInteger(level) ? Math.min(6, Math.max(1, level)) : 1;
}

/** Characters markdown would read as syntax anywhere in a line. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]~<]/g, "\\$&");
}

/**
 * What markdown would read as a block at the start of a paragraph's line (a heading, a quote, a list, a
 * rule), escaped after the line's leading spaces, which are kept; on the first line, four columns of them
 * would open a code block, so the first is written as a character reference there.
 */
function escapeLineStarts(text: string): string {
  return text
    .split("\n")
    .map((line, index) => {
      const body = line.trimStart();
      if (body.length === 0) return "";
      const lead = line.slice(0, line.length - body.length);
      const escaped = body.replace(
        /^(#{1,6}(?=\s|$)|>|[-+](?=\s|$)|-+(?=\s*$)|=+(?=\s*$)|(\d{1,9})([.)])(?=\s|$)|\|)/,
        (token, _t, digits, dot) => (digits !== undefined ? `${digits}\\${dot}` : `\\${token}`),
      );
      const opensCode = index === 0 && /^(?: {0,3}\t| {4})/.test(lead);
      return `${opensCode ? `&#32;${lead.slice(1)}` : lead}${escaped}`;
    })
    .join("\n");
}

/** `prefix` before the first line, `indent` before the others (`blank` for an empty one). */
function prefixLines(text: string, indent: string, blank: string, first = indent): string {
  return text
    .split("\n")
    .map((line, index) => (index === 0 ? `${first}${line}` : line.length === 0 ? blank : `${indent}${line}`))
    .join("\n");
}
