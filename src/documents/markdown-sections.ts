/**
 * @module Markdown cut into sections at its headings, each carrying the path of headings it falls under, and
 * the one rule every format's read ends with: at most `maxChars` characters, cut without parting a surrogate
 * pair, and the stop said.
 */
import type { DocumentSection, ExtractStop } from "../ports/document-extractor.js";
import { sliceWhole } from "../text/surrogates.js";

// Only the opening is a regex: with the text and a closing run of # as adjacent optional parts, a line of
// "# a" and many spaces backtracked for seconds. The closing run is stripped by a plain scan from the right.
const ATX_OPENING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The heading a line opens, when it is one. */
function atxHeading(line: string): { level: number; text: string } | undefined {
  const match = ATX_OPENING.exec(line);
  if (!match) return undefined;
  let end = line.length;
  while (end > match[0].length && isBlank(line[end - 1])) end--;
  let closing = end;
  while (closing > match[0].length && line[closing - 1] === "#") closing--;
  // A run of # closes the heading when a blank (or the opening) is before it: "# C#" keeps its #.
  if (closing === match[0].length || isBlank(line[closing - 1])) end = closing;
  return { level: (match[1] as string).length, text: line.slice(match[0].length, end).trim() };
}

const isBlank = (char: string | undefined) => char === " " || char === "\t";

/** The headings the text so far falls under, outermost first, each with its level. */
export type HeadingTrail = { level: number; text: string }[];

export const headingsOf = (trail: HeadingTrail): string[] => trail.map((heading) => heading.text);

/**
 * The sections of `markdown`: one per heading (its line included) and one for any text before the first,
 * with `page` on each when given. `trail` is the headings the text starts under (a page that goes on with a
 * section of the page before) and is kept up to date for the next call.
 */
export function markdownSections(
  markdown: string,
  page?: number,
  trail: HeadingTrail = [],
): DocumentSection[] {
  const sections: DocumentSection[] = [];
  let lines: string[] = [];
  let fence: string | undefined;
  // Whether the line before is paragraph text: a setext underline then ends a paragraph, not a heading.
  let inParagraph = false;
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text !== "")
      sections.push({ text, headings: headingsOf(trail), ...(page === undefined ? {} : { page }) });
    lines = [];
  };
  const enter = (level: number, text: string) => {
    flush();
    // A heading closes every heading of its level or deeper; a skipped level leaves no empty place.
    while ((trail.at(-1)?.level ?? 0) >= level) trail.pop();
    if (text !== "") trail.push({ level, text });
  };
  const source = markdown.replace(/\r\n?/g, "\n").split("\n");
  // YAML front matter (a first line of ---, closed by another) is text: its last key above --- is no heading.
  const matterEnd =
    source[0] === "---" ? source.findIndex((line, index) => index > 0 && /^(---|\.\.\.)$/.test(line)) : -1;
  for (const [index, line] of source.entries()) {
    if (index <= matterEnd) {
      lines.push(line);
      continue;
    }
    const opened = FENCE.exec(line)?.[1];
    const wasParagraph = inParagraph;
    inParagraph = false;
    if (fence !== undefined) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) fence = undefined;
    } else if (opened !== undefined) {
      fence = opened;
    } else {
      const heading = atxHeading(line);
      if (heading) {
        enter(heading.level, heading.text);
      } else if (line.trim() !== "") {
        // A setext underline makes a one-line paragraph above it a heading.
        const underline = SETEXT.exec(source[index + 1] ?? "");
        if (underline && !wasParagraph && !line.startsWith("    ")) {
          enter((underline[1] as string).startsWith("=") ? 1 : 2, line.trim());
        } else {
          // A line of --- or === alone (a break) opens no paragraph: a line after it may be a heading.
          inParagraph = !SETEXT.test(line);
        }
      }
    }
    lines.push(line);
  }
  flush();
  return sections;
}

/** The first heading's text, as a title for a document that names none otherwise. */
export function firstHeading(sections: readonly DocumentSection[]): string | undefined {
  for (const section of sections) {
    const heading = section.headings.at(-1);
    if (heading) return heading;
  }
  return undefined;
}

/** The sections up to `maxChars` characters of text in all, the last one cut when it goes past. */
export function withinChars(
  sections: readonly DocumentSection[],
  maxChars: number,
): { sections: DocumentSection[]; stoppedBy?: ExtractStop } {
  const kept: DocumentSection[] = [];
  let left = maxChars;
  for (const section of sections) {
    if (section.text.length > left) {
      const text = sliceWhole(section.text, left).trimEnd();
      if (text !== "") kept.push({ ...section, text });
      return { sections: kept, stoppedBy: "max_chars" };
    }
    kept.push(section);
    left -= section.text.length;
  }
  return { sections: kept };
}
