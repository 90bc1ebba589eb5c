/**
 * @module A PDF page's text runs made into lines, and lines into markdown. A PDF has no headings, only text
 * drawn larger: the size most of the text is drawn at is the body, and a short line drawn clearly larger is a
 * heading, its level by how much larger it is than the others. A wide gap between lines starts a paragraph.
 */

/** What pdf.js gives for one run of text; only what is read here. */
export interface TextRun {
  str: string;
  transform: readonly number[];
  hasEOL: boolean;
}

export interface PdfLine {
  text: string;
  /** The size the line's longest run is drawn at. */
  size: number;
  /** The baseline's height on the page. */
  y: number;
}

/** Larger than the body by this much is a heading. */
const HEADING_RATIO = 1.2;
const HEADING_MAX_CHARS = 200;
/** Baselines further apart than this many times the text size leave a blank line between them. */
const PARAGRAPH_GAP = 1.8;
/** Past three sizes of heading, every smaller one is the fourth level. */
const HEADING_LEVELS = 4;

const sizeOf = (run: TextRun) => Math.hypot(run.transform[2] ?? 0, run.transform[3] ?? 0);

/** The page's lines, top to bottom as pdf.js gives them: a run on a new baseline or after an end of line starts one. */
export function pageLines(runs: readonly TextRun[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let current: { parts: string[]; size: number; longest: number; y: number } | undefined;
  let ended = false;
  const close = () => {
    const text = current?.parts.join("").replace(/\s+/g, " ").trim();
    if (current && text) lines.push({ text, size: current.size, y: current.y });
    current = undefined;
  };
  for (const run of runs) {
    const size = sizeOf(run);
    const y = run.transform[5] ?? 0;
    if (current && (ended || Math.abs(y - current.y) > Math.max(size, current.size) / 2)) close();
    if (run.str !== "") {
      current ??= { parts: [], size, longest: 0, y };
      current.parts.push(run.str);
      if (run.str.trim().length > current.longest) {
        current.longest = run.str.trim().length;
        current.size = size;
      }
    }
    ended = run.hasEOL;
  }
  close();
  return lines;
}

/** How the text sizes of the lines read rank: the body's size, and each larger size's heading level. */
export interface SizeRanks {
  body: number;
  levels: ReadonlyMap<number, number>;
}

const rounded = (size: number) => Math.round(size * 2) / 2;

/** The body is the size with the most characters; the larger sizes of short lines are headings, largest first. */
export function rankSizes(lines: readonly PdfLine[]): SizeRanks {
  const characters = new Map<number, number>();
  for (const line of lines) {
    const size = rounded(line.size);
    characters.set(size, (characters.get(size) ?? 0) + line.text.length);
  }
  let body = 0;
  let most = -1;
  for (const [size, count] of characters) {
    if (count > most) [body, most] = [size, count];
  }
  const larger = [
    ...new Set(
      lines
        .filter((line) => line.text.length <= HEADING_MAX_CHARS && rounded(line.size) >= body * HEADING_RATIO)
        .map((line) => rounded(line.size)),
    ),
  ].sort((a, b) => b - a);
  return { body, levels: new Map(larger.map((size, index) => [size, Math.min(index + 1, HEADING_LEVELS)])) };
}

/** A body line that markdown would read as a heading or a fence is escaped, so it stays text. */
function literal(text: string): string {
  return /^(#|```|~~~|[=-]+$)/.test(text) ? `\\${text}` : text;
}

/** The page as markdown: headings as `#` lines, a blank line between paragraphs. */
export function pageMarkdown(lines: readonly PdfLine[], ranks: SizeRanks): string {
  const out: string[] = [];
  let previous: { line: PdfLine; level: number | undefined } | undefined;
  for (const line of lines) {
    const level = line.text.length <= HEADING_MAX_CHARS ? ranks.levels.get(rounded(line.size)) : undefined;
    const gap = previous ? Math.abs(previous.line.y - line.y) : 0;
    const apart = previous !== undefined && gap > PARAGRAPH_GAP * Math.max(line.size, previous.line.size);
    if (level !== undefined && previous?.level === level && !apart) {
      // A heading wrapped onto a second line is one heading.
      out[out.length - 1] = `${out.at(-1)} ${line.text}`;
    } else if (level !== undefined) {
      out.push("", `${"#".repeat(level)} ${line.text}`, "");
    } else {
      if (apart || previous?.level !== undefined) out.push("");
      out.push(literal(line.text));
    }
    previous = { line, level };
  }
  return out
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
