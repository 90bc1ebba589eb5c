/**
 * @module Turndown rules that write HTML tables as GitHub-flavoured markdown tables, which turndown alone
 * flattens into loose lines. A markdown table needs a header row, so the first row is the header whether or
 * not the HTML marked it; rows are padded to the widest so no cell falls off the table.
 */
import type TurndownService from "turndown";

/** A hostile `colspan="100000"` widens nothing past this. */
const MAX_SPAN = 50;

type Element = {
  nodeName: string;
  childNodes: ArrayLike<unknown>;
  parentNode: unknown;
  getAttribute(name: string): string | null;
};

const isElement = (node: unknown): node is Element =>
  typeof node === "object" && node !== null && typeof (node as Element).getAttribute === "function";

const named = (node: unknown, ...names: string[]): node is Element =>
  isElement(node) && names.includes(node.nodeName);

const children = (node: Element): Element[] => Array.from(node.childNodes).filter(isElement);

function span(cell: Element): number {
  const value = Number.parseInt(cell.getAttribute("colspan") ?? "1", 10);
  return Number.isFinite(value) && value > 1 ? Math.min(value, MAX_SPAN) : 1;
}

/** The table's own rows, not those of a table nested in one of its cells. */
function rowsOf(table: Element): Element[] {
  return children(table).flatMap((child) =>
    named(child, "TR")
      ? [child]
      : named(child, "THEAD", "TBODY", "TFOOT")
        ? children(child).filter((row) => named(row, "TR"))
        : [],
  );
}

const widthOf = (row: Element) =>
  children(row)
    .filter((cell) => named(cell, "TD", "TH"))
    .reduce((sum, cell) => sum + span(cell), 0);

function tableOf(row: Element): Element | undefined {
  let node = row.parentNode;
  while (isElement(node) && node.nodeName !== "TABLE") node = node.parentNode;
  return named(node, "TABLE") ? node : undefined;
}

/** Each table's width, counted once: every row asks, and counting per row made a long table quadratic. */
const widths = new WeakMap<Element, number>();

function tableWidth(table: Element): number {
  let width = widths.get(table);
  if (width === undefined) {
    width = rowsOf(table).reduce((widest, row) => Math.max(widest, widthOf(row)), 1);
    widths.set(table, width);
  }
  return width;
}

/**
 * One line per cell: a line break would end the row, a bare pipe would split the cell. Lines are split and
 * trimmed rather than matched with a whitespace-newline-whitespace regex, which rescanned a long run of
 * spaces from each of its spaces.
 */
const cellText = (content: string) =>
  content
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ")
    .replace(/\|/g, "\\|");

/** Adds the table rules to a converter. */
export function markdownTables(service: TurndownService): void {
  service.addRule("tableCell", {
    filter: ["th", "td"],
    replacement: (content, node) =>
      ` ${cellText(content)} |${" |".repeat(span(node as unknown as Element) - 1)}`,
  });
  service.addRule("tableRow", {
    filter: "tr",
    replacement: (content, node) => {
      const row = node as unknown as Element;
      const table = tableOf(row);
      const missing = table ? tableWidth(table) - widthOf(row) : 0;
      return `\n|${content}${" |".repeat(Math.max(0, missing))}\n`;
    },
  });
  service.addRule("tableSection", {
    filter: ["thead", "tbody", "tfoot"],
    replacement: (content) => content,
  });
  service.addRule("tableCaption", {
    filter: "caption",
    replacement: (content) => `\n${cellText(content)}\n`,
  });
  service.addRule("table", {
    filter: "table",
    replacement: (content, node) => {
      const lines = content.split("\n").filter((line) => line.trim() !== "");
      const first = lines.findIndex((line) => line.startsWith("|"));
      if (first === -1) return `\n\n${lines.join("\n")}\n\n`;
      const separator = `|${" --- |".repeat(tableWidth(node as unknown as Element))}`;
      const caption = lines.slice(0, first);
      const rows = [...lines.slice(first, first + 1), separator, ...lines.slice(first + 1)];
      return `\n\n${caption.length > 0 ? `${caption.join(" ")}\n\n` : ""}${rows.join("\n")}\n\n`;
    },
  });
}
