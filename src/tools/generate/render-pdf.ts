/**
 * @module PDF bytes from a title and plain text, laid out in Helvetica on A4 pages. No creation date, no
 * producer and no random id are written, so the same input gives the same bytes.
 */
import type { PDFFont } from "pdf-lib";

const PAGE = { width: 595.28, height: 841.89, margin: 56 };
const SIZE = { title: 16, body: 11 };
const LINE_HEIGHT = 1.4;

export interface PdfResult {
  bytes: Uint8Array;
  pages: number;
  /** Characters outside what the standard font can draw, printed as "?". */
  replacedCharacters: number;
}

export async function renderPdf(
  title: string | undefined,
  text: string,
  maxPages: number,
): Promise<PdfResult> {
  // Loaded on first use: pdf-lib is some 170 modules every `toolreg` command would otherwise load at start.
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const document = await PDFDocument.create({ updateMetadata: false });
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const width = PAGE.width - 2 * PAGE.margin;
  let replaced = 0;
  const drawable = (value: string) =>
    value.replace(/[^\x20-\x7E\xA0-\xFF]/g, () => {
      replaced++;
      return "?";
    });

  const lines: { text: string; font: PDFFont; size: number }[] = [];
  if (title) {
    for (const line of wrap(drawable(title), bold, SIZE.title, width))
      lines.push({ text: line, font: bold, size: SIZE.title });
    lines.push({ text: "", font: regular, size: SIZE.body });
  }
  for (const paragraph of text.replace(/\r\n?/g, "\n").split("\n")) {
    const clean = drawable(paragraph.replace(/\t/g, "    "));
    for (const line of wrap(clean, regular, SIZE.body, width))
      lines.push({ text: line, font: regular, size: SIZE.body });
  }

  let page = document.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  for (const line of lines) {
    const step = line.size * LINE_HEIGHT;
    if (y - step < PAGE.margin) {
      if (document.getPageCount() >= maxPages) {
        throw new RangeError(`the text needs more than ${maxPages} pages`);
      }
      page = document.addPage([PAGE.width, PAGE.height]);
      y = PAGE.height - PAGE.margin;
    }
    y -= step;
    if (line.text) page.drawText(line.text, { x: PAGE.margin, y, size: line.size, font: line.font });
  }
  const bytes = await document.save({ useObjectStreams: false });
  return { bytes, pages: document.getPageCount(), replacedCharacters: replaced };
}

/** Greedy word wrap by measured width; a word wider than the line is cut by characters. */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  if (text.trim() === "") return [""];
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/ +/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    current = word;
    while (font.widthOfTextAtSize(current, size) > width) {
      let cut = current.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > width) cut--;
      lines.push(current.slice(0, cut));
      current = current.slice(cut);
    }
  }
  lines.push(current);
  return lines;
}
