/** @module `scanJson`: checks JSON syntax and nesting depth in one loop, before anything recursive parses it. */

export type JsonScan =
  | { ok: true }
  | {
      ok: false;
      reason: "syntax" | "depth";
      message: string;
      position: number;
      line: number;
      column: number;
    };

/** What is wrong, and where. */
interface Problem {
  message: string;
  at: number;
}

type State = "value" | "valueOrEnd" | "key" | "keyOrEnd" | "colon" | "commaOrEnd" | "done";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Validates `text` as JSON (RFC 8259, as `JSON.parse` reads it) with an explicit stack, so a hostile
 * nesting depth is refused here rather than overflowing a recursive evaluator or serializer later.
 */
export function scanJson(text: string, maxDepth: number): JsonScan {
  const containers: ("array" | "object")[] = [];
  // Asserted so the compiler does not narrow it: `afterValue` changes it behind the switch's back.
  let state = "value" as State;
  let index = 0;
  const fail = (message: string, position = index, reason: "syntax" | "depth" = "syntax"): JsonScan => {
    const { line, column } = lineAndColumn(text, position);
    return { ok: false, reason, message, position, line, column };
  };
  const afterValue = () => {
    state = containers.length > 0 ? "commaOrEnd" : "done";
  };

  for (;;) {
    index = skipWhitespace(text, index);
    if (index >= text.length) {
      return state === "done" ? { ok: true } : fail("unexpected end of input");
    }
    const char = text[index] as string;
    switch (state) {
      case "done":
        return fail(`unexpected ${describe(char)} after the JSON value`);
      case "colon":
        if (char !== ":") return fail(`expected ':' after a property name, found ${describe(char)}`);
        index++;
        state = "value";
        break;
      case "key":
      case "keyOrEnd": {
        if (state === "keyOrEnd" && char === "}") {
          index++;
          containers.pop();
          afterValue();
          break;
        }
        if (char !== '"') return fail(`expected a property name in double quotes, found ${describe(char)}`);
        const end = scanString(text, index);
        if (typeof end !== "number") return fail(end.message, end.at);
        index = end;
        state = "colon";
        break;
      }
      case "commaOrEnd": {
        const top = containers[containers.length - 1];
        const close = top === "object" ? "}" : "]";
        if (char === ",") {
          index++;
          state = top === "object" ? "key" : "value";
        } else if (char === close) {
          index++;
          containers.pop();
          afterValue();
        } else {
          return fail(`expected ',' or '${close}', found ${describe(char)}`);
        }
        break;
      }
      case "value":
      case "valueOrEnd": {
        if (state === "valueOrEnd" && char === "]") {
          index++;
          containers.pop();
          afterValue();
          break;
        }
        if (char === "{" || char === "[") {
          if (containers.length >= maxDepth) {
            return fail(`JSON nests deeper than ${maxDepth} levels`, index, "depth");
          }
          containers.push(char === "{" ? "object" : "array");
          index++;
          state = char === "{" ? "keyOrEnd" : "valueOrEnd";
          break;
        }
        const end = scanScalar(text, index, char);
        if (typeof end !== "number") return fail(end.message, end.at);
        index = end;
        afterValue();
        break;
      }
    }
  }
}

/** Where a scalar starting at `index` ends, or what is wrong with it. */
function scanScalar(text: string, index: number, char: string): number | Problem {
  if (char === '"') return scanString(text, index);
  for (const literal of ["true", "false", "null"]) {
    if (text.startsWith(literal, index)) return index + literal.length;
  }
  if (char === "-" || (char >= "0" && char <= "9")) {
    NUMBER.lastIndex = index;
    const match = NUMBER.exec(text);
    return match ? index + match[0].length : { message: "invalid number", at: index };
  }
  return { message: `unexpected ${describe(char)}`, at: index };
}

/** Where the string opening at `start` ends (after its quote), or what is wrong with it. */
function scanString(text: string, start: number): number | Problem {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x22) return index + 1;
    if (code < 0x20) return { message: "control character inside a string (escape it)", at: index };
    if (code === 0x5c) {
      const escaped = text[index + 1];
      if (escaped === "u") {
        if (!HEX4.test(text.slice(index + 2, index + 6))) {
          return { message: "invalid \\u escape in a string", at: index };
        }
        index += 6;
        continue;
      }
      if (escaped === undefined || !ESCAPES.has(escaped)) {
        return { message: "invalid escape in a string", at: index };
      }
      index += 2;
      continue;
    }
    index++;
  }
  return { message: "unterminated string", at: start };
}

function skipWhitespace(text: string, index: number): number {
  let at = index;
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return at;
    at++;
  }
}

function describe(char: string): string {
  return /^[\x21-\x7e]$/.test(char)
    ? `'${char}'`
    : `character U+${char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** 1-based line and column of a position, for messages a person can find in their editor. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: position - lineStart + 1 };
}
