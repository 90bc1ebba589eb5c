/**
 * @module Confluence storage format as markdown a model reads: headings, paragraphs, emphasis, lists (task
 * lists too), tables as GFM tables, blockquotes, the code macro as a fenced block in its language, links
 * (`ac:link` to a page as `confluence-page:` links, which confluence_update_page turns back into page
 * links), images and panels. A macro this does not know is never dropped silently: its text is kept, and
 * its name is said (storage format reference: confluence.atlassian.com/doc/confluence-storage-format-790796544.html).
 */

import { PAGE_LINK_SCHEME } from "./page-link.js";
import {
  attributeOf,
  CDATA,
  childNamed,
  childrenOf,
  ELEMENT,
  parseStorage,
  type StorageNode,
  TEXT,
} from "./parse-storage.js";

export function storageToMarkdown(storage: string): string {
  return joinBlocks(blocksOf(parseStorage(storage)));
}

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Panels Confluence ships, shown as a labelled quote. */
const PANELS: Record<string, string> = {
  info: "Info",
  note: "Note",
  warning: "Warning",
  tip: "Tip",
  panel: "Panel",
};
/** Elements read as blocks; anything else inside a block is inline. */
const BLOCKS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "table",
  "blockquote",
  "pre",
  "hr",
  "div",
  "ac:structured-macro",
  "ac:layout",
  "ac:layout-section",
  "ac:layout-cell",
  "ac:task-list",
  "ac:rich-text-body",
  "section",
  "tbody",
  "thead",
]);

function isBlock(node: StorageNode): boolean {
  return node.nodeType === ELEMENT && BLOCKS.has(node.nodeName);
}

function joinBlocks(blocks: string[]): string {
  return blocks.filter((block) => block.trim() !== "").join("\n\n");
}

/** The children of a container as blocks: runs of inline content become one paragraph each. */
function blocksOf(node: StorageNode): string[] {
  const blocks: string[] = [];
  let inline: StorageNode[] = [];
  const flush = () => {
    const text = inlineOf(inline).trim();
    if (text !== "") blocks.push(text);
    inline = [];
  };
  for (const child of childrenOf(node)) {
    if (isBlock(child)) {
      flush();
      blocks.push(blockOf(child));
    } else inline.push(child);
  }
  flush();
  return blocks;
}

function blockOf(node: StorageNode): string {
  const name = node.nodeName;
  const level = HEADINGS[name];
  if (level !== undefined) return `${"#".repeat(level)} ${inlineOf(childrenOf(node)).trim()}`;
  switch (name) {
    case "p":
      return inlineOf(childrenOf(node)).trim();
    case "ul":
    case "ol":
      return listOf(node, name === "ol");
    case "ac:task-list":
      return taskListOf(node);
    case "table":
      return tableOf(node);
    case "blockquote":
      return quote(joinBlocks(blocksOf(node)));
    case "pre":
      return fence(node.textContent ?? "", "");
    case "hr":
      return "---";
    case "ac:structured-macro":
      return macroOf(node);
    default:
      return joinBlocks(blocksOf(node));
  }
}

function listOf(node: StorageNode, ordered: boolean): string {
  const items = childrenOf(node).filter((child) => child.nodeType === ELEMENT && child.nodeName === "li");
  return items
    .map((item, index) => {
      const marker = ordered ? `${index + 1}. ` : "- ";
      return indentAfterFirst(marker + itemBody(item), marker.length);
    })
    .join("\n");
}

function taskListOf(node: StorageNode): string {
  return childrenOf(node)
    .filter((child) => child.nodeType === ELEMENT && child.nodeName === "ac:task")
    .map((task) => {
      const done = (childNamed(task, "ac:task-status")?.textContent ?? "").trim() === "complete";
      const body = childNamed(task, "ac:task-body");
      return `- [${done ? "x" : " "}] ${body ? itemBody(body) : ""}`;
    })
    .join("\n");
}

/** A list item's blocks, tight: its first paragraph on the marker's line, nested lists below it. */
function itemBody(item: StorageNode): string {
  return blocksOf(item).join("\n");
}

function indentAfterFirst(text: string, width: number): string {
  return text.replace(/\n/g, `\n${" ".repeat(width)}`);
}

function tableOf(node: StorageNode): string {
  const rows: StorageNode[] = [];
  const collect = (parent: StorageNode) => {
    for (const child of childrenOf(parent)) {
      if (child.nodeType !== ELEMENT) continue;
      if (child.nodeName === "tr") rows.push(child);
      else if (["thead", "tbody", "tfoot"].includes(child.nodeName)) collect(child);
    }
  };
  collect(node);
  const cells = rows.map((row) =>
    childrenOf(row)
      .filter((cell) => cell.nodeType === ELEMENT && (cell.nodeName === "td" || cell.nodeName === "th"))
      .map((cell) => joinBlocks(blocksOf(cell)).replace(/\n+/g, " <br> ").replace(/\|/g, "\\|")),
  );
  const width = Math.max(1, ...cells.map((row) => row.length));
  const line = (row: string[]) =>
    `| ${Array.from({ length: width }, (_, index) => row[index] ?? "").join(" | ")} |`;
  const [head = [], ...body] = cells;
  return [line(head), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}

function macroOf(node: StorageNode): string {
  const name = attributeOf(node, "ac:name") ?? "unnamed";
  const parameter = (key: string) =>
    childrenOf(node).find(
      (child) => child.nodeName === "ac:parameter" && attributeOf(child, "ac:name") === key,
    )?.textContent ?? undefined;
  const plain = childNamed(node, "ac:plain-text-body");
  const rich = childNamed(node, "ac:rich-text-body");
  if (name === "code" || name === "noformat") {
    return fence(plain?.textContent ?? "", (parameter("language") ?? "").replace(/[^A-Za-z0-9_+#.-]/g, ""));
  }
  const panel = PANELS[name];
  if (panel !== undefined) {
    const title = parameter("title");
    const heading = `**${panel}${title ? `: ${inlineText(title)}` : ""}**`;
    return quote(joinBlocks([heading, ...(rich ? blocksOf(rich) : [])]));
  }
  if (name === "expand") {
    return joinBlocks([`**${inlineText(parameter("title") ?? "Expand")}**`, ...(rich ? blocksOf(rich) : [])]);
  }
  // Not known here: keep what it says, and say which macro it was, so nothing vanishes unseen.
  const body = rich ? joinBlocks(blocksOf(rich)) : plain ? fence(plain.textContent ?? "", "") : "";
  return joinBlocks([`[Confluence macro: ${name}]`, body]);
}

function fence(code: string, language: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((run) => run[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}${language}\n${code.replace(/\n$/, "")}\n${marks}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

function inlineOf(nodes: readonly StorageNode[]): string {
  return nodes
    .map(inlineNode)
    .join("")
    .replace(/[ \t]+/g, " ");
}

function inlineNode(node: StorageNode): string {
  if (node.nodeType === TEXT) return inlineText((node.textContent ?? "").replace(/\s+/g, " "));
  if (node.nodeType === CDATA) return inlineText(node.textContent ?? "");
  if (node.nodeType !== ELEMENT) return "";
  const inner = () => inlineOf(childrenOf(node));
  switch (node.nodeName) {
    case "strong":
    case "b":
      return wrap("**", inner());
    case "em":
    case "i":
      return wrap("*", inner());
    case "s":
    case "del":
      return wrap("~~", inner());
    case "code":
      return codeSpan(node.textContent ?? "");
    case "br":
      return "\\\n";
    case "a":
      return link(inner(), attributeOf(node, "href") ?? "");
    case "ac:link":
      return confluenceLink(node);
    case "ac:image":
      return imageOf(node);
    case "ac:emoticon":
      return attributeOf(node, "ac:emoji-fallback") ?? `:${attributeOf(node, "ac:name") ?? "emoticon"}:`;
    case "ac:placeholder":
      return "";
    case "ac:structured-macro":
      return blockOf(node);
    default:
      return inner();
  }
}

/** Emphasis around its text, with the spaces kept outside (`** x**` is not emphasis). */
function wrap(mark: string, text: string): string {
  // Slices, not a regex: `^(\s*)(.*?)(\s*)$` backtracks quadratically over long runs of whitespace.
  const core = text.trim();
  if (core === "") return text;
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return `${text.slice(0, start)}${mark}${core}${mark}${text.slice(end)}`;
}

function codeSpan(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((run) => run[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

/** Markdown's own characters in text, escaped so text reads as text. */
function inlineText(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, (char) => `\\${char}`);
}

function link(text: string, href: string): string {
  const label = text.trim() === "" ? inlineText(href) : text;
  return `[${label}](<${href.replace(/[<>\s]/g, encodeURIComponent)}>)`;
}

function confluenceLink(node: StorageNode): string {
  const body = childNamed(node, "ac:link-body") ?? childNamed(node, "ac:plain-text-link-body");
  const text = body ? inlineOf(childrenOf(body)).trim() : "";
  const page = childNamed(node, "ri:page") ?? childNamed(node, "ri:blog-post");
  if (page) {
    const title = attributeOf(page, "ri:content-title") ?? "";
    const space = attributeOf(page, "ri:space-key");
    const target = `${PAGE_LINK_SCHEME}${space ? `${space}/` : ""}${encodeURIComponent(title)}`;
    return `[${text || inlineText(title)}](${target})`;
  }
  const user = childNamed(node, "ri:user");
  if (user) return text || `@user:${attributeOf(user, "ri:account-id") ?? "unknown"}`;
  const attachment = childNamed(node, "ri:attachment");
  if (attachment) return text || `attachment ${inlineText(attributeOf(attachment, "ri:filename") ?? "")}`;
  const anchor = attributeOf(node, "ac:anchor");
  return text || (anchor ? `#${inlineText(anchor)}` : "");
}

function imageOf(node: StorageNode): string {
  const alt = inlineText(attributeOf(node, "ac:alt") ?? "");
  const url = childNamed(node, "ri:url");
  if (url) return `![${alt}](<${attributeOf(url, "ri:value") ?? ""}>)`;
  const attachment = childNamed(node, "ri:attachment");
  return `![${alt || "image"}](attachment:${encodeURIComponent(attachment ? (attributeOf(attachment, "ri:filename") ?? "") : "")})`;
}
