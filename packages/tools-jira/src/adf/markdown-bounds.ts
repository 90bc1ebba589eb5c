/**
 * @module What markdown the parser is given, bounded before it parses: micromark's container and emphasis
 * handling is superlinear (a line of 31,000 `>` held the CPU for seconds, then overflowed the stack; 16,000
 * `*a` took seconds). One linear scan counts the two things that cost: how deeply a line nests quotes and
 * lists, and how many emphasis delimiters the text holds. Past either bound the markdown is refused, with a
 * reason a model can act on; within them it is parsed as CommonMark reads it.
 */

/** Quotes and lists nested deeper than this on one line are refused (ADF past 24 levels is flattened anyway). */
export const MAX_MARKDOWN_NESTING = 32;
/** Emphasis and strikethrough delimiters (`*`, `_` not inside a word, `~`) in one text. */
export const MAX_EMPHASIS_DELIMITERS = 2_000;

/** Why `markdown` is too costly to parse, or undefined when it is within the bounds. */
export function markdownOverBounds(markdown: string): string | undefined {
  let delimiters = 0;
  let lineStart = true;
  for (let index = 0; index < markdown.length; index++) {
    const char = markdown[index];
    if (lineStart) {
      const nesting = nestingAt(markdown, index);
      if (nesting > MAX_MARKDOWN_NESTING) {
        return `quotes or lists nested ${nesting} deep on one line; at most ${MAX_MARKDOWN_NESTING}: flatten them`;
      }
      lineStart = false;
    }
    if (char === "\n") lineStart = true;
    else if (char === "*" || char === "~" || (char === "_" && !insideWord(markdown, index))) delimiters++;
  }
  if (delimiters > MAX_EMPHASIS_DELIMITERS) {
    return `${delimiters} emphasis characters (*, _, ~); at most ${MAX_EMPHASIS_DELIMITERS}: use fewer bold, italic or struck-through runs`;
  }
  return undefined;
}

/**
 * How deeply the line at `start` nests: each `>` and list marker in its leading container prefix, and its
 * leading indentation (a nested list item sits two or more columns in). Stops at the line's content, so
 * the whole scan stays linear.
 */
function nestingAt(markdown: string, start: number): number {
  let markers = 0;
  let indent = 0;
  let index = start;
  while (index < markdown.length) {
    const char = markdown[index];
    if (char === " " || char === "\t") {
      if (markers === 0) indent += char === "\t" ? 4 : 1;
      index++;
    } else if (char === ">") {
      markers++;
      index++;
    } else {
      const end = listMarkerEnd(markdown, index);
      if (end === undefined) break;
      markers++;
      index = end;
    }
  }
  return markers === 0 ? 0 : markers + Math.floor(indent / 2);
}

/** Where a list marker (`-`, `*`, `+`, or up to 9 digits and `.` or `)`) followed by a space ends; else undefined. */
function listMarkerEnd(markdown: string, index: number): number | undefined {
  let end = index;
  const char = markdown[index];
  if (char === "-" || char === "*" || char === "+") end++;
  else {
    while (end - index < 9 && isDigit(markdown[end])) end++;
    if (end === index || (markdown[end] !== "." && markdown[end] !== ")")) return undefined;
    end++;
  }
  const after = markdown[end];
  return after === " " || after === "\t" ? end : undefined;
}

function insideWord(markdown: string, index: number): boolean {
  return isWordCharacter(markdown[index - 1]) && isWordCharacter(markdown[index + 1]);
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

function isWordCharacter(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}
