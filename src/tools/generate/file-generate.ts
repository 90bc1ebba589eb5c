/** @module `file_generate`: a CSV, Markdown or PDF file from structured input, stored as an artifact. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { generateTool } from "./generate-env.js";
import { renderCsv } from "./render-csv.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderPdf } from "./render-pdf.js";

export const FILE_GENERATE_LIMITS = {
  textChars: 200_000,
  rows: 10_000,
  columns: 200,
  cellChars: 10_000,
  pdfPages: 200,
};

const cell = z.union([z.string().max(FILE_GENERATE_LIMITS.cellChars), z.number(), z.boolean(), z.null()]);
const name = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/, "a plain file name: letters, digits, . _ -, no folders")
  .describe('file name, e.g. "q3-report"; the extension is added when missing');

// One object with a `format` switch, not a union: providers want a plain object at the top of a schema.
const input = z
  .object({
    format: z.enum(["csv", "markdown", "pdf"]),
    name,
    columns: z
      .array(z.string().max(200))
      .min(1)
      .max(FILE_GENERATE_LIMITS.columns)
      .optional()
      .describe("csv: the header row"),
    rows: z
      .array(z.array(cell).max(FILE_GENERATE_LIMITS.columns))
      .max(FILE_GENERATE_LIMITS.rows)
      .optional()
      .describe("csv: the data rows, each as long as columns"),
    title: z.string().max(500).optional().describe("pdf: a heading on the first page"),
    text: z
      .string()
      .max(FILE_GENERATE_LIMITS.textChars)
      .optional()
      .describe("markdown and pdf: the text; blank lines separate paragraphs"),
  })
  .superRefine((value, issues) => {
    const needed = value.format === "csv" ? (["columns", "rows"] as const) : (["text"] as const);
    for (const field of needed) {
      if (value[field] === undefined) {
        issues.addIssue({ code: "custom", path: [field], message: `is required for format ${value.format}` });
      }
    }
  });

const MEDIA = { csv: "text/csv", markdown: "text/markdown", pdf: "application/pdf" } as const;
const EXTENSION = { csv: ".csv", markdown: ".md", pdf: ".pdf" } as const;

export const fileGenerateSpec = generateTool({
  name: "file_generate",
  description:
    "Creates a downloadable file — a CSV table, a Markdown document or a PDF of plain text — and returns its artifact id and URI. The same input always gives the same file. Use it when the user asks for a file, not for showing text in the chat.",
  category: "files",
  effect: "internal-write",
  input,
  async run(request, context, { artifacts }) {
    let bytes: Uint8Array;
    let notes: Record<string, unknown> = {};
    if (request.format === "csv") {
      const columns = request.columns ?? [];
      const rows = request.rows ?? [];
      const ragged = rows.findIndex((row) => row.length !== columns.length);
      if (ragged !== -1) {
        throw new ToolFailure(
          "invalid_input",
          `row ${ragged + 1} has ${rows[ragged]?.length} cells but there are ${columns.length} columns`,
        );
      }
      bytes = renderCsv(columns, rows);
    } else if (request.format === "markdown") {
      bytes = renderMarkdown(request.text ?? "");
    } else {
      try {
        const pdf = await renderPdf(request.title, request.text ?? "", FILE_GENERATE_LIMITS.pdfPages);
        bytes = pdf.bytes;
        notes = { pages: pdf.pages, replacedCharacters: pdf.replacedCharacters };
      } catch (error) {
        if (error instanceof RangeError) throw new ToolFailure("invalid_input", error.message);
        throw error;
      }
    }
    const fileName = request.name.endsWith(EXTENSION[request.format])
      ? request.name
      : `${request.name}${EXTENSION[request.format]}`;
    const artifact = await artifacts.put({
      tenantId: context.tenantId,
      name: fileName,
      mediaType: MEDIA[request.format],
      bytes,
    });
    const replaced = typeof notes.replacedCharacters === "number" && notes.replacedCharacters > 0;
    return {
      content: `Created ${artifact.name} (${artifact.size} bytes): ${artifact.uri}${
        replaced
          ? ` — ${notes.replacedCharacters} characters the PDF font cannot draw were printed as "?"`
          : ""
      }`,
      data: { ...artifact, ...notes },
    };
  },
});
