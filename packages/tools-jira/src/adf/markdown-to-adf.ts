/**
 * @module Markdown as an Atlassian Document Format document, for what a model writes into a description or
 * a comment. Parsed by mdast-util-from-markdown with GFM (tables, strikethrough, autolinks, task items), so
 * the markdown is read as CommonMark reads it; the tree is then mapped onto ADF's nodes and marks. What ADF
 * has no node for keeps its text (raw HTML, an image as a link to it, a task item's box as `[ ]`), so no
 * part of the input is lost and none is an error. ADF's own rules are kept: no empty text node, a heading
 * inside a quote or a table cell becomes a paragraph, every cell holds a paragraph, a quote inside a quote or
 * a list item gives its blocks to that container, a link goes only to http(s), mailto or a relative target.
 * The markdown must be within markdown-bounds.ts's bounds (the tools' inputs check it): the parser is
 * superlinear past them.
 */
import type { Definition, List, ListItem, Nodes, PhrasingContent, Root, RootContent, Table } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import type { AdfDocument, AdfMark, AdfNode } from "./adf-node.js";

/** Deeper than this (quotes in quotes, lists in lists), a block's text is kept as a paragraph. */
const MAX_DEPTH = 24;

export function markdownToAdf(markdown: string): AdfDocument {
  const root: Root = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  const definitions = new Map<string, string>();
  for (const node of root.children) {
    if (node.type === "definition") definitions.set(node.identifier, (node as Definition).url);
  }
  const walker = new AdfWalker(definitions);
  return { version: 1, type: "doc", content: walker.blocks(root.children, 0, "doc") };
}

type Container = "doc" | "blockquote" | "listItem";

class AdfWalker {
  constructor(private readonly definitions: ReadonlyMap<string, string>) {}

  blocks(nodes: readonly RootContent[], depth: number, within: Container): AdfNode[] {
    return nodes.flatMap((node) => this.block(node, depth, within));
  }

  private block(node: RootContent, depth: number, within: Container): AdfNode[] {
    if (depth > MAX_DEPTH) return paragraphOf(plainText(node));
    switch (node.type) {
      case "paragraph":
        return paragraphOf(this.inline(node.children, []));
      case "heading":
        // ADF allows headings at the top level only (not in a quote or a list item).
        return within === "doc"
          ? [{ type: "heading", attrs: { level: node.depth }, content: this.inline(node.children, []) }]
          : paragraphOf(this.inline(node.children, [{ type: "strong" }]));
      case "thematicBreak":
        return within === "doc" ? [{ type: "rule" }] : paragraphOf(textNodes("---", []));
      case "blockquote": {
        // ADF has no quote inside a quote or a list item: there its blocks join the container's own.
        if (within !== "doc") return this.blocks(node.children, depth + 1, within);
        const content = this.blocks(node.children, depth + 1, "blockquote");
        return content.length > 0 ? [{ type: "blockquote", content }] : [];
      }
      case "list":
        return [this.list(node, depth)];
      case "code":
        return [codeBlockOf(node.value, node.lang)];
      case "table":
        // ADF has no table in a quote or a list item: there it is read as lines of text.
        return within === "doc" ? [this.table(node)] : paragraphOf(textNodes(plainText(node), []));
      case "html":
        return paragraphOf(textNodes(node.value, []));
      case "definition":
        return [];
      case "footnoteDefinition":
        return paragraphOf(textNodes(`[^${node.label ?? node.identifier}]: ${plainText(node)}`, []));
      default:
        return paragraphOf(textNodes(plainText(node), []));
    }
  }

  private list(node: List, depth: number): AdfNode {
    const items = node.children.map((item) => this.listItem(item, depth + 1));
    if (!node.ordered) return { type: "bulletList", content: items };
    const start = typeof node.start === "number" && node.start >= 0 ? node.start : 1;
    return { type: "orderedList", attrs: { order: start }, content: items };
  }

  private listItem(item: ListItem, depth: number): AdfNode {
    const content = this.blocks(item.children, depth, "listItem");
    if (typeof item.checked === "boolean") {
      // A GFM task item: ADF's taskList is another structure; the box is kept as text.
      const box: AdfNode = { type: "text", text: item.checked ? "[x] " : "[ ] " };
      const first = content[0];
      if (first?.type === "paragraph") first.content = [box, ...(first.content ?? [])];
      else content.unshift({ type: "paragraph", content: [box] });
    }
    // A list item must begin with a paragraph in ADF.
    if (content[0]?.type !== "paragraph") content.unshift({ type: "paragraph", content: [] });
    return { type: "listItem", content };
  }

  private table(node: Table): AdfNode {
    return {
      type: "table",
      content: node.children.map((row, rowIndex) => ({
        type: "tableRow",
        content: row.children.map((cell) => ({
          type: rowIndex === 0 ? "tableHeader" : "tableCell",
          content: [{ type: "paragraph", content: this.inline(cell.children, []) }],
        })),
      })),
    };
  }

  private inline(nodes: readonly PhrasingContent[], marks: readonly AdfMark[]): AdfNode[] {
    return nodes.flatMap((node) => this.inlineNode(node, marks));
  }

  private inlineNode(node: PhrasingContent, marks: readonly AdfMark[]): AdfNode[] {
    switch (node.type) {
      case "text":
        return textNodes(node.value, marks);
      case "strong":
        return this.inline(node.children, withMark(marks, { type: "strong" }));
      case "emphasis":
        return this.inline(node.children, withMark(marks, { type: "em" }));
      case "delete":
        return this.inline(node.children, withMark(marks, { type: "strike" }));
      case "inlineCode":
        // ADF's code mark combines only with a link.
        return textNodes(node.value, [...marks.filter((mark) => mark.type === "link"), { type: "code" }]);
      case "link":
        return this.inline(node.children, withLink(marks, node.url));
      case "linkReference": {
        const url = this.definitions.get(node.identifier);
        return url === undefined
          ? textNodes(plainText(node), marks)
          : this.inline(node.children, withLink(marks, url));
      }
      case "image":
        return textNodes(node.alt || node.url, withLink(marks, node.url));
      case "imageReference": {
        const url = this.definitions.get(node.identifier);
        const text = node.alt || node.label || node.identifier;
        return textNodes(text, url === undefined ? marks : withLink(marks, url));
      }
      case "break":
        return [{ type: "hardBreak" }];
      case "html":
        return textNodes(node.value, marks);
      case "footnoteReference":
        // ADF has no footnote: the reference stays as it was written.
        return textNodes(`[^${node.label ?? node.identifier}]`, marks);
      default:
        return textNodes(plainText(node), marks);
    }
  }
}

function paragraphOf(content: AdfNode[] | string): AdfNode[] {
  const inline = typeof content === "string" ? textNodes(content, []) : content;
  return inline.length > 0 ? [{ type: "paragraph", content: inline }] : [];
}

/** ADF refuses an empty text node: none is made. */
function textNodes(text: string, marks: readonly AdfMark[]): AdfNode[] {
  if (text.length === 0) return [];
  return [marks.length > 0 ? { type: "text", text, marks: [...marks] } : { type: "text", text }];
}

function codeBlockOf(value: string, lang: string | null | undefined): AdfNode {
  const language = lang?.trim();
  return {
    type: "codeBlock",
    ...(language ? { attrs: { language } } : {}),
    ...(value.length > 0 ? { content: [{ type: "text", text: value }] } : {}),
  };
}

function withMark(marks: readonly AdfMark[], mark: AdfMark): AdfMark[] {
  // Code stays the only mark beside a link: text inside `code` takes no other.
  if (marks.some((each) => each.type === mark.type || each.type === "code")) return [...marks];
  return [...marks, mark];
}

/** The link mark for `href`; none for an empty target or one with a scheme other than http(s) or mailto. */
function withLink(marks: readonly AdfMark[], href: string): AdfMark[] {
  const kept = marks.filter((mark) => mark.type !== "link");
  return isLinkable(href) ? [...kept, { type: "link", attrs: { href } }] : kept;
}

function isLinkable(href: string): boolean {
  // Browsers ignore control characters and spaces in a scheme (`java\tscript:`): read it as they do.
  const compact = href.replace(/[\p{Cc}\s]/gu, "");
  if (compact.length === 0) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https" || scheme === "mailto";
}

/** The text of any mdast node, iteratively (a deep tree cannot exhaust the stack). */
function plainText(node: Nodes): string {
  const parts: string[] = [];
  const stack: Nodes[] = [node];
  while (stack.length > 0) {
    const next = stack.pop() as Nodes;
    if ("value" in next && typeof next.value === "string") parts.push(next.value);
    else if (next.type === "image") parts.push(next.alt ?? next.url);
    else if ("children" in next) {
      const children = next.children as Nodes[];
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index] as Nodes);
    }
  }
  return parts.join(" ").replace(/\s+/g, " ").trim();
}
