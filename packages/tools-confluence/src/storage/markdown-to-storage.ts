/**
 * @module Markdown (CommonMark with GitHub's tables, task lists and strikethrough) as Confluence storage
 * format: parsed by mdast-util-from-markdown with the GFM extensions, written as well-formed XHTML. Text and
 * attributes are escaped, void elements self-closed, a fenced block becomes the code macro with its body in
 * CDATA (a `]]>` inside split across two sections), a `confluence-page:` link an `ac:link` to that page.
 * Raw HTML in the markdown is written as text, never passed through: it need not be XHTML, and it could
 * carry macros a writer did not mean (storage format: confluence.atlassian.com/doc/confluence-storage-format-790796544.html).
 */
import type { Nodes, Parents, PhrasingContent, RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { readPageLink } from "./page-link.js";

/** Markdown past this is refused before parsing; a page body is far smaller. */
export const MAX_MARKDOWN_CHARS = 500_000;

export function markdownToStorage(markdown: string): string {
  if (markdown.length > MAX_MARKDOWN_CHARS) {
    throw new RangeError(
      `markdown of ${markdown.length} characters is over the ${MAX_MARKDOWN_CHARS} accepted`,
    );
  }
  refuseDeepNesting(markdown);
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const definitions = new Map<string, string>();
  for (const node of tree.children) {
    if (node.type === "definition") definitions.set(node.identifier, node.url);
  }
  return new StorageWriter(definitions).blocks(tree.children);
}

/** Quotes and list items nested deeper than this on one line are refused: the parser recurses per level. */
export const MAX_NESTING = 32;
/** Leading indentation beyond this (a list nested by indentation, deeper than anyone writes) is refused. */
const MAX_INDENT = 128;
/** Emphasis delimiters in one paragraph beyond this are refused: the parser pairs them in quadratic time. */
const MAX_DELIMITERS_PER_PARAGRAPH = 2000;

/**
 * A linear scan, before parsing, for what the parser takes too deep or too long on: quotes and list markers
 * opening one line, leading indentation, and emphasis delimiters in one paragraph.
 */
function refuseDeepNesting(markdown: string): void {
  let delimiters = 0;
  let fenced = false;
  for (const line of markdown.split("\n")) {
    let depth = 0;
    let indent = 0;
    let at = 0;
    while (at < line.length) {
      const char = line[at] as string;
      if (char === " " || char === "\t") indent += char === "\t" ? 4 : 1;
      else if (char === ">") depth += 1;
      else if ("-*+".includes(char) && /[ \t]/.test(line[at + 1] ?? "")) depth += 1;
      else break;
      at += 1;
    }
    if (depth > MAX_NESTING || indent > MAX_INDENT) {
      throw new RangeError(
        `quotes or lists are nested more than ${MAX_NESTING} deep (or indented more than ${MAX_INDENT} columns) on one line`,
      );
    }
    // Code is not emphasis: a fence's lines (``` or ~~~ opening one) are not counted.
    if (/^(?:```|~~~)/.test(line.trimStart())) fenced = !fenced;
    if (line.trim() === "" || fenced) delimiters = 0;
    else
      for (let index = at; index < line.length; index += 1) {
        const char = line[index];
        if (char === "*" || char === "_" || char === "~") delimiters += 1;
      }
    if (delimiters > MAX_DELIMITERS_PER_PARAGRAPH) {
      throw new RangeError(
        `a paragraph has more than ${MAX_DELIMITERS_PER_PARAGRAPH} emphasis marks (* _ ~); split it or put such text in a code block`,
      );
    }
  }
}

/** Control characters but tab and line breaks (XML 1.0 forbids most, discourages the rest) and its non-characters. */
const NOT_XML = /(?![\t\n\r])\p{Cc}|[\uFFFE\uFFFF]/gu;

function escapeText(text: string): string {
  return text.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, "&quot;");
}

/** A CDATA section holding `text` exactly: each `]]>` is split so it closes nothing. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(NOT_XML, "").replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
}

const SAFE_HREF = /^(?:https?:|mailto:|#|\/(?!\/))/i;

class StorageWriter {
  constructor(private readonly definitions: ReadonlyMap<string, string>) {}

  blocks(nodes: readonly RootContent[]): string {
    return nodes.map((node) => this.block(node)).join("");
  }

  private block(node: RootContent): string {
    switch (node.type) {
      case "paragraph":
        return `<p>${this.inline(node.children)}</p>`;
      case "heading":
        return `<h${node.depth}>${this.inline(node.children)}</h${node.depth}>`;
      case "thematicBreak":
        return "<hr />";
      case "blockquote":
        return `<blockquote>${this.blocks(node.children)}</blockquote>`;
      case "list":
        return this.list(node);
      case "code":
        return codeMacro(node.value, node.lang ?? undefined);
      case "table":
        return `<table><tbody>${node.children
          .map(
            (row, index) =>
              `<tr>${row.children
                .map((cell) => {
                  const tag = index === 0 ? "th" : "td";
                  return `<${tag}>${this.inline(cell.children)}</${tag}>`;
                })
                .join("")}</tr>`,
          )
          .join("")}</tbody></table>`;
      case "html":
        return `<p>${escapeText(node.value)}</p>`;
      case "definition":
        return "";
      case "footnoteDefinition":
        return `<p>[^${escapeText(node.identifier)}]: </p>${this.blocks(node.children)}`;
      default:
        return "children" in node ? this.blocks((node as Parents).children as RootContent[]) : "";
    }
  }

  private list(node: Extract<Nodes, { type: "list" }>): string {
    const tasks =
      node.children.length > 0 && node.children.every((item) => typeof item.checked === "boolean");
    if (tasks) {
      return `<ac:task-list>${node.children
        .map(
          (item) =>
            `<ac:task><ac:task-status>${item.checked ? "complete" : "incomplete"}</ac:task-status><ac:task-body>${this.itemBody(item, false)}</ac:task-body></ac:task>`,
        )
        .join("")}</ac:task-list>`;
    }
    const tag = node.ordered ? "ol" : "ul";
    const start =
      node.ordered && node.start !== null && node.start !== undefined && node.start !== 1
        ? ` start="${node.start}"`
        : "";
    const spread = node.spread === true;
    return `<${tag}${start}>${node.children
      .map((item) => {
        const box = typeof item.checked === "boolean" ? (item.checked ? "[x] " : "[ ] ") : "";
        return `<li>${escapeText(box)}${this.itemBody(item, spread)}</li>`;
      })
      .join("")}</${tag}>`;
  }

  /** A tight item's paragraphs go unwrapped, as Confluence's editor writes them. */
  private itemBody(item: Extract<Nodes, { type: "listItem" }>, spread: boolean): string {
    return item.children
      .map((child) =>
        child.type === "paragraph" && !spread ? this.inline(child.children) : this.block(child),
      )
      .join("");
  }

  private inline(nodes: readonly PhrasingContent[]): string {
    return nodes.map((node) => this.phrase(node)).join("");
  }

  private phrase(node: PhrasingContent): string {
    switch (node.type) {
      case "text":
        return escapeText(node.value);
      case "emphasis":
        return `<em>${this.inline(node.children)}</em>`;
      case "strong":
        return `<strong>${this.inline(node.children)}</strong>`;
      case "delete":
        return `<s>${this.inline(node.children)}</s>`;
      case "inlineCode":
        return `<code>${escapeText(node.value)}</code>`;
      case "break":
        return "<br />";
      case "html":
        return escapeText(node.value);
      case "link":
        return this.link(node.url, node.children);
      case "linkReference": {
        const url = this.definitions.get(node.identifier);
        return url === undefined ? this.inline(node.children) : this.link(url, node.children);
      }
      case "image":
        return image(node.url, node.alt ?? "");
      case "imageReference": {
        const url = this.definitions.get(node.identifier);
        return url === undefined ? escapeText(node.alt ?? "") : image(url, node.alt ?? "");
      }
      case "footnoteReference":
        return escapeText(`[^${node.identifier}]`);
      default:
        return "";
    }
  }

  private link(url: string, children: readonly PhrasingContent[]): string {
    const page = readPageLink(url);
    if (page) {
      const text = plainText(children) || page.title;
      const space = page.spaceKey ? ` ri:space-key="${escapeAttribute(page.spaceKey)}"` : "";
      return `<ac:link><ri:page${space} ri:content-title="${escapeAttribute(page.title)}" /><ac:plain-text-link-body>${cdata(text)}</ac:plain-text-link-body></ac:link>`;
    }
    // A scheme that runs code or reads local files is not a link Confluence should hold: its text stays.
    if (!SAFE_HREF.test(url)) return this.inline(children);
    return `<a href="${escapeAttribute(url)}">${this.inline(children)}</a>`;
  }
}

function codeMacro(code: string, language: string | undefined): string {
  const lang = language?.replace(/[^A-Za-z0-9_+#.-]/g, "");
  const parameter = lang ? `<ac:parameter ac:name="language">${escapeText(lang)}</ac:parameter>` : "";
  return `<ac:structured-macro ac:name="code" ac:schema-version="1">${parameter}<ac:plain-text-body>${cdata(code)}</ac:plain-text-body></ac:structured-macro>`;
}

function image(url: string, alt: string): string {
  if (!/^https?:/i.test(url)) return escapeText(alt);
  return `<ac:image ac:alt="${escapeAttribute(alt)}"><ri:url ri:value="${escapeAttribute(url)}" /></ac:image>`;
}

function plainText(nodes: readonly PhrasingContent[]): string {
  return nodes
    .map((node) =>
      "value" in node ? node.value : "children" in node ? plainText(node.children as PhrasingContent[]) : "",
    )
    .join("");
}
