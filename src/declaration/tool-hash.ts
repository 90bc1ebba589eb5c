/** @module A stable hash of a tool definition, or of a call's arguments: canonical JSON, then sha256. */
import { hash } from "node:crypto";

/** JSON with object keys sorted at every depth, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  // Arguments fingerprinted on every idempotent call are plain data: write them directly, which measured
  // at about half the cost of a replacer (a call and a sorted copy per object). Anything else, and deep
  // nesting, takes the general path, which gives the same text.
  const plain = plainCanonicalJson(value, 0);
  return plain === NOT_PLAIN ? replacerCanonicalJson(value) : (plain as string);
}

const NOT_PLAIN = Symbol("not plain");
const MAX_PLAIN_DEPTH = 64;

/** Canonical JSON of plain data (objects, arrays, strings, numbers, booleans, null); undefined where JSON omits. */
function plainCanonicalJson(value: unknown, depth: number): string | undefined | typeof NOT_PLAIN {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
    case "function":
    case "symbol":
      return undefined;
    case "object": {
      if (value === null) return "null";
      if (depth >= MAX_PLAIN_DEPTH) return NOT_PLAIN;
      if (Array.isArray(value)) return plainArray(value, depth);
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return NOT_PLAIN;
      return plainObject(value as Record<string, unknown>, depth);
    }
    default:
      return NOT_PLAIN;
  }
}

function plainArray(value: readonly unknown[], depth: number): string | typeof NOT_PLAIN {
  let text = "[";
  for (let i = 0; i < value.length; i++) {
    const item = plainCanonicalJson(value[i], depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    text += `${i === 0 ? "" : ","}${item ?? "null"}`;
  }
  return `${text}]`;
}

function plainObject(value: Record<string, unknown>, depth: number): string | typeof NOT_PLAIN {
  let text = "{";
  let first = true;
  for (const key of sortedKeys(value)) {
    const item = plainCanonicalJson(value[key], depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (item === undefined) continue;
    text += `${first ? "" : ","}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${text}}`;
}

/**
 * Keys in the order the general path writes them. Its sorted copy is an object, and every object lists
 * integer keys first, in numeric order: that order is part of the text that hashes were taken of.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value).sort();
  if (!keys.some(isIntegerKey)) return keys;
  const integers = keys.filter(isIntegerKey).sort((a, b) => Number(a) - Number(b));
  return integers.concat(keys.filter((key) => !isIntegerKey(key)));
}

/** An array index as a property name: what objects order numerically. */
function isIntegerKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4_294_967_295;
}

/** The general path: JSON.stringify sorting each object's keys, honouring toJSON and every JSON rule. */
export function replacerCanonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    // No prototype, so a "__proto__" key is kept as data instead of setting the prototype.
    const sorted: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/** One-shot `crypto.hash` (Node 20.12+): no Hash object per call, which measured at a third the cost. */
export function sha256(text: string): string {
  return hash("sha256", text, "hex");
}

export function hashDefinition(definition: object): string {
  return sha256(canonicalJson(definition));
}
