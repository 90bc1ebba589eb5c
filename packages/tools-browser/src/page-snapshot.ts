/**
 * @module A page as a compact text snapshot: its title, URL, main text as Markdown and its interactive elements.
 * The elements are picked in the page but kept in Node as ElementHandles under references made here, so
 * nothing the page runs can name, forge or swap a reference.
 */
import type { ElementHandle, Page } from "playwright-core";

export const SNAPSHOT_LIMITS = { textChars: 20_000, elements: 200, labelChars: 80, hrefChars: 200 };

export interface SnapshotElement {
  kind: string;
  label: string;
  href?: string;
  type?: string;
  name?: string;
  value?: string;
  options?: string[];
}

export interface PickedPage {
  title: string;
  url: string;
  text: string;
  textTruncated: boolean;
  elements: { element: ElementHandle; described: SnapshotElement }[];
  elementsTruncated: boolean;
}

/**
 * Reads the page; the element handles belong to the caller, who disposes of them. The script runs in the
 * page's world, where the page may have replaced any built-in (slice, querySelectorAll): so the limits are
 * applied again here, and handles are fetched only for the first `elements` entries.
 */
export async function pickPage(page: Page): Promise<PickedPage> {
  const limits = SNAPSHOT_LIMITS;
  const picked = await page.evaluateHandle(readPageInBrowser, limits);
  try {
    // Copied by index into objects without a prototype: nothing the page put on Array.prototype runs,
    // and no more than the cap crosses over.
    const summary = (await picked.evaluate((result: Dom, cap: number) => {
      const described = { __proto__: null } as Dom;
      const list = result?.described;
      for (let index = 0; index < cap; index += 1) described[index] = list?.[index];
      return {
        title: result?.title,
        url: result?.url,
        text: result?.text,
        textTruncated: result?.textTruncated,
        described,
        more: list?.length > cap,
        elementsTruncated: result?.elementsTruncated,
      };
    }, limits.elements)) as Dom;
    const list = await picked.evaluateHandle((result: Dom, cap: number) => {
      const elements = { __proto__: null } as Dom;
      for (let index = 0; index < cap; index += 1) elements[index] = result?.elements?.[index];
      return elements;
    }, limits.elements);
    const properties = await list.getProperties();
    const elements: PickedPage["elements"] = [];
    for (let index = 0; index < limits.elements; index += 1) {
      const described = boundedElement(summary.described?.[index]);
      const element = properties.get(String(index))?.asElement();
      if (element && described) elements.push({ element, described });
      else element?.dispose().catch(() => {});
    }
    await list.dispose();
    const text = typeof summary.text === "string" ? summary.text : "";
    return {
      title: bounded(summary.title, 300),
      url: bounded(summary.url, 2_000),
      text: text.slice(0, limits.textChars),
      textTruncated: summary.textTruncated === true || text.length > limits.textChars,
      elements,
      elementsTruncated: summary.elementsTruncated === true || summary.more === true,
    };
  } finally {
    await picked.dispose();
  }
}

function bounded(value: unknown, max: number): string {
  return typeof value === "string" ? value.slice(0, max) : "";
}

/** An element's description as the page gave it, every field checked and cut to its limit here. */
function boundedElement(value: unknown): SnapshotElement | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const given = value as Record<string, unknown>;
  const { labelChars, hrefChars } = SNAPSHOT_LIMITS;
  const described: SnapshotElement = {
    kind: bounded(given.kind, 20) || "element",
    label: bounded(given.label, labelChars),
  };
  if (typeof given.href === "string") described.href = bounded(given.href, hrefChars);
  if (typeof given.type === "string") described.type = bounded(given.type, 20);
  if (typeof given.name === "string") described.name = bounded(given.name, labelChars);
  if (typeof given.value === "string") described.value = bounded(given.value, labelChars);
  if (Array.isArray(given.options)) {
    described.options = given.options.slice(0, 20).map((option) => bounded(option, labelChars));
  }
  return described;
}

/** One element as a line of the snapshot. */
export function describeElement(reference: string, element: SnapshotElement): string {
  const parts = [reference, element.type ? `${element.kind}[${element.type}]` : element.kind];
  if (element.label) parts.push(JSON.stringify(element.label));
  if (element.name) parts.push(`name=${JSON.stringify(element.name)}`);
  if (element.value) parts.push(`value=${JSON.stringify(element.value)}`);
  if (element.options) parts.push(`options=${JSON.stringify(element.options)}`);
  if (element.href) parts.push(`→ ${element.href}`);
  return parts.join(" ");
}

// biome-ignore lint/suspicious/noExplicitAny: page-side values; the project's lib has no DOM types.
type Dom = any;

// Runs in the page: it must be self-contained (no imports, no closures over Node values).
function readPageInBrowser(limits: typeof SNAPSHOT_LIMITS) {
  // The project compiles without the DOM library, so the page's globals are reached untyped.
  const { document, location, Node } = globalThis as unknown as Dom;
  const clean = (value: string | null | undefined, max: number) =>
    (value ?? "").replace(/\s+/g, " ").trim().slice(0, max);
  // The rendered text, as a person sees it: what CSS hides is not in it, which textContent would keep.
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point.
  const shown = (element: Dom): string => element?.innerText ?? "";
  const visible = (element: Dom) =>
    typeof element.checkVisibility === "function" ? element.checkVisibility() : true;
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "CANVAS", "IFRAME", "HEAD"]);
  const LEAF_BLOCKS = new Set(["P", "PRE", "BLOCKQUOTE", "TD", "TH", "DT", "DD", "FIGCAPTION", "CAPTION"]);
  const INLINE = new Set([
    "A",
    "ABBR",
    "B",
    "BDI",
    "BDO",
    "BR",
    "CITE",
    "CODE",
    "DATA",
    "DFN",
    "EM",
    "I",
    "KBD",
    "LABEL",
    "MARK",
    "Q",
    "S",
    "SAMP",
    "SMALL",
    "SPAN",
    "STRONG",
    "SUB",
    "SUP",
    "TIME",
    "U",
    "VAR",
  ]);
  const lines: string[] = [];
  let buffer = "";
  let length = 0;
  const flush = () => {
    const line = buffer.replace(/\s+/g, " ").trim();
    buffer = "";
    if (line) push(line);
  };
  const push = (line: string) => {
    lines.push(line);
    length += line.length + 2;
  };
  const walk = (node: Dom) => {
    for (const child of Array.from(node.childNodes as Dom[])) {
      if (length > limits.textChars) return;
      if (child.nodeType === Node.TEXT_NODE) {
        buffer += ` ${child.textContent ?? ""}`;
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      const element = child;
      const tag = element.tagName.toUpperCase();
      if (SKIP.has(tag) || !visible(element)) continue;
      if (INLINE.has(tag)) {
        buffer += ` ${shown(element)}`;
        continue;
      }
      flush();
      const heading = /^H([1-6])$/.exec(tag);
      if (heading) push(`${"#".repeat(Number(heading[1]))} ${clean(shown(element), 500)}`);
      else if (tag === "LI") {
        const before = lines.length;
        walk(element);
        flush();
        if (lines.length > before) lines[before] = `- ${lines[before]}`;
      } else if (LEAF_BLOCKS.has(tag)) {
        const text = tag === "PRE" ? shown(element).trim() : clean(shown(element), 5_000);
        if (text) push(tag === "PRE" ? `\`\`\`\n${text}\n\`\`\`` : text);
      } else walk(element);
    }
  };
  const root = document.querySelector("main, [role=main], article") ?? document.body;
  if (root) walk(root);
  flush();
  let text = lines.join("\n\n");
  const textTruncated = text.length > limits.textChars;
  if (textTruncated) text = text.slice(0, limits.textChars);

  const candidates = Array.from(
    document.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [contenteditable=''], [contenteditable=true]",
    ),
  ).filter(visible) as Dom[];
  const elements = candidates.slice(0, limits.elements);
  const described = elements.map((element) => {
    const html = element;
    const tag = element.tagName.toLowerCase();
    const role = element.getAttribute("role");
    const kind =
      tag === "a" || role === "link"
        ? "link"
        : tag === "button" || tag === "summary" || role === "button"
          ? "button"
          : tag === "input" || tag === "select" || tag === "textarea"
            ? tag
            : role === "checkbox"
              ? "checkbox"
              : "editable";
    const type = tag === "input" ? (html.type || "text").toLowerCase() : undefined;
    const labelled =
      element.getAttribute("aria-label") ||
      (html.labels && html.labels.length > 0 ? shown(html.labels[0]) : "") ||
      (tag === "input" || tag === "textarea" ? html.placeholder : shown(html)) ||
      element.getAttribute("title") ||
      (type === "submit" || type === "button" ? html.value : "");
    const result: Record<string, unknown> = { kind, label: clean(labelled, limits.labelChars) };
    if (type) result.type = type;
    if (kind === "link") result.href = clean(element.href, limits.hrefChars);
    const name = element.getAttribute("name");
    if (name) result.name = clean(name, limits.labelChars);
    // A typed value is shown back, except for a secret field's.
    const secret =
      type === "password" || /(current|new)-password/.test(element.getAttribute("autocomplete") ?? "");
    if (
      (tag === "input" || tag === "textarea") &&
      !secret &&
      type !== "file" &&
      html.value &&
      type !== "submit"
    )
      result.value = clean(html.value, limits.labelChars);
    if (type === "checkbox" || type === "radio") result.value = html.checked ? "checked" : "unchecked";
    if (tag === "select")
      result.options = Array.from(element.options as Dom[])
        .slice(0, 20)
        .map((option: Dom) => clean(option.label || option.value, limits.labelChars));
    return result;
  });
  return {
    title: clean(document.title, 300),
    url: location.href,
    text,
    textTruncated,
    described,
    elements,
    elementsTruncated: candidates.length > elements.length,
  };
}
