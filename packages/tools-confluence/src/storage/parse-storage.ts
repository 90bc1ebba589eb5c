/**
 * @module Confluence's storage format read into a tree. Storage is XHTML with `ac:` and `ri:` elements and
 * CDATA sections (confluence.atlassian.com/doc/confluence-storage-format-790796544.html), so it is parsed as
 * XML (linkedom's XML mode keeps `<ri:page/>` self-closed and CDATA as text), inside a root that declares
 * both prefixes. Storage also uses HTML's named entities (`&nbsp;`, `&ldquo;`), which XML does not know:
 * each becomes its numeric reference first.
 */
import { decodeHTML } from "entities";
import { DOMParser } from "linkedom";

/** The part of a DOM node the converter reads. */
export interface StorageNode {
  nodeType: number;
  /** Lower-case, with its prefix: `p`, `ac:structured-macro`. */
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<StorageNode>;
  getAttribute?(name: string): string | null;
}

export const ELEMENT = 1;
export const TEXT = 3;
export const CDATA = 4;

/** Storage bodies past this are refused, not parsed: Confluence's own request cap is 5 MB. */
export const MAX_STORAGE_CHARS = 5 * 1024 * 1024;

const XML_ENTITIES = new Set(["amp", "lt", "gt", "quot", "apos"]);

export function parseStorage(storage: string): StorageNode {
  if (storage.length > MAX_STORAGE_CHARS) {
    throw new RangeError(
      `a storage body of ${storage.length} characters is over the ${MAX_STORAGE_CHARS} read`,
    );
  }
  const xml = storage.replace(/&([A-Za-z][A-Za-z0-9]{1,31});/g, (whole, name: string) => {
    if (XML_ENTITIES.has(name)) return whole;
    const decoded = decodeHTML(whole);
    return decoded === whole
      ? `&amp;${name};`
      : [...decoded].map((char) => `&#${char.codePointAt(0)};`).join("");
  });
  const document = new DOMParser().parseFromString(
    `<storage xmlns:ac="http://atlassian.com/content" xmlns:ri="http://atlassian.com/resource/identifier">${xml}</storage>`,
    "text/xml",
  ) as unknown as { documentElement: StorageNode };
  return document.documentElement;
}

export function childrenOf(node: StorageNode): StorageNode[] {
  return Array.from(node.childNodes);
}

export function attributeOf(node: StorageNode, name: string): string | undefined {
  return node.getAttribute?.(name) ?? undefined;
}

/** The first child element of that name (`ac:parameter` and the like sit directly under their macro). */
export function childNamed(node: StorageNode, name: string): StorageNode | undefined {
  return childrenOf(node).find((child) => child.nodeType === ELEMENT && child.nodeName === name);
}
