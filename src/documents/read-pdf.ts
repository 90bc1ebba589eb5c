/**
 * @module A PDF as markdown page by page, with pdf.js (through unpdf's build, which runs in Node without a
 * worker or a canvas). Only the pages asked for are parsed, at most `maxPages` of them, and the read stops
 * early once it holds more than `maxChars`; the abort signal is honoured between pages. The title is the
 * document's own (its metadata), else its first heading. How far its streams inflate is proved first, so a
 * PDF bomb never reaches pdf.js.
 */
import { getDocumentProxy } from "unpdf";
import { ToolFailure } from "../errors/tool-failure.js";
import type { DocumentSection, ExtractedDocument, ExtractRequest } from "../ports/document-extractor.js";
import {
  firstHeading,
  type HeadingTrail,
  headingsOf,
  markdownSections,
  withinChars,
} from "./markdown-sections.js";
import { checkPdfInflation } from "./pdf-inflation.js";
import { type PdfLine, pageLines, pageMarkdown, rankSizes, type TextRun } from "./pdf-lines.js";

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

export async function readPdf(request: ExtractRequest): Promise<ExtractedDocument> {
  await checkPdfInflation(request.bytes, request.signal);
  const pdf = await open(request.bytes);
  try {
    const pageCount = pdf.numPages;
    const { from, to } = selection(request.pages, pageCount);
    const last = Math.min(to, from + request.maxPages - 1);
    const pages: { number: number; lines: PdfLine[] }[] = [];
    let characters = 0;
    for (let number = from; number <= last && characters <= request.maxChars; number++) {
      request.signal?.throwIfAborted();
      const lines = await pageText(pdf, number);
      pages.push({ number, lines });
      characters += lines.reduce((sum, line) => sum + line.text.length, 0);
    }
    request.signal?.throwIfAborted();

    // Heading sizes are ranked over every page read, so a heading is one level wherever it falls.
    const ranks = rankSizes(pages.flatMap((page) => page.lines));
    const trail: HeadingTrail = [];
    const sections: DocumentSection[] = pages.flatMap(({ number, lines }) => {
      const found = markdownSections(pageMarkdown(lines, ranks), number, trail);
      // A page with no text (a scan) is still a page read: it is there, empty.
      return found.length > 0 ? found : [{ text: "", page: number, headings: headingsOf(trail) }];
    });
    const read = withinChars(sections, request.maxChars);
    const stoppedBy = read.stoppedBy ?? (last < to ? "max_pages" : undefined);
    const title = (await metadataTitle(pdf)) ?? firstHeading(read.sections);
    return {
      ...(title ? { title } : {}),
      sections: read.sections,
      pageCount,
      ...(stoppedBy ? { stoppedBy } : {}),
    };
  } finally {
    await pdf.destroy();
  }
}

async function open(bytes: Uint8Array): Promise<PdfDocument> {
  try {
    // A copy: pdf.js may take the buffer it is given, and the caller's bytes are not ours to take.
    return await getDocumentProxy(new Uint8Array(bytes), {
      isEvalSupported: false,
      useSystemFonts: false,
      disableFontFace: true,
      verbosity: 0,
    });
  } catch (error) {
    throw unreadable(error);
  }
}

/** The pages to read, the end clamped to the document's; a start past its end is refused with how many it has. */
function selection(pages: ExtractRequest["pages"], pageCount: number): { from: number; to: number } {
  if (!pages) return { from: 1, to: pageCount };
  const { from, to } = pages;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from)
    throw new ToolFailure(
      "invalid_input",
      `pages ${from}-${to} is no range of pages: give from >= 1 and to >= from`,
    );
  if (from > pageCount) {
    throw new ToolFailure(
      "invalid_input",
      `the document has ${pageCount} ${pageCount === 1 ? "page" : "pages"}: page ${from} is past its end; ask for pages 1-${pageCount}`,
      { details: { pageCount } },
    );
  }
  return { from, to: Math.min(to, pageCount) };
}

async function pageText(pdf: PdfDocument, number: number): Promise<PdfLine[]> {
  try {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    page.cleanup();
    return pageLines(content.items.flatMap((item): TextRun[] => ("str" in item ? [item] : [])));
  } catch (error) {
    throw unreadable(error, `page ${number}`);
  }
}

async function metadataTitle(pdf: PdfDocument): Promise<string | undefined> {
  try {
    const { info } = await pdf.getMetadata();
    const title = (info as { Title?: unknown }).Title;
    const clean = typeof title === "string" ? title.replace(/\s+/g, " ").trim() : "";
    return clean === "" ? undefined : clean.slice(0, 300);
  } catch {
    // Damaged metadata takes nothing from the text: the first heading names the document instead.
    return undefined;
  }
}

function unreadable(error: unknown, where = "the PDF"): ToolFailure {
  const name = (error as { name?: unknown })?.name;
  if (name === "PasswordException")
    return new ToolFailure("invalid_input", "the PDF is encrypted: it cannot be read without its password");
  // pdf.js's message may quote the file's own names: it stays in `cause`, never in what the model reads.
  return new ToolFailure(
    "invalid_input",
    `${where} could not be read: the file may be cut short or damaged`,
    {
      cause: error,
    },
  );
}
