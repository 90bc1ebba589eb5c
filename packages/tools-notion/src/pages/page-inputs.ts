/** @module The inputs notion_create_page and notion_update_page share: a title, properties, markdown content. */
import { ToolFailure } from "toolreg/toolkit";
import { MARKDOWN_MAX_CHARS } from "../blocks/markdown-to-blocks.js";
import { textField } from "../notion-inputs.js";
import type { PageSchema } from "../properties/property-schema.js";
import { type PropertyInput, titlePropertyOf } from "../properties/property-values.js";

export const titleField = textField(
  2000,
  "the page's title (set on its title property, whatever it is named)",
);

export const markdownField = textField(
  MARKDOWN_MAX_CHARS,
  "content as markdown: headings, lists, to-dos (- [ ]), quotes, fenced code, dividers and paragraphs; inline markup stays as typed",
  { lines: true },
);

/**
 * Notion refuses a request body over 500 KB (developers.notion.com/reference/request-limits, "Size limits").
 * A create sends its properties and its first hundred blocks in one body: their text is held to 400 KB of
 * JSON, leaving the rest for the objects Notion's shapes wrap around it. Checked with the input, before approval.
 */
export const REQUEST_TEXT_MAX_BYTES = 400_000;

/** Whether the text of properties and markdown sent in one request stays under REQUEST_TEXT_MAX_BYTES. */
export function fitsOneRequest(properties: unknown, markdown: string | undefined): boolean {
  const bytes =
    Buffer.byteLength(JSON.stringify(properties ?? {})) +
    (markdown === undefined ? 0 : Buffer.byteLength(JSON.stringify(markdown)));
  return bytes <= REQUEST_TEXT_MAX_BYTES;
}

/** The properties with `title` set on the schema's title property, whatever it is named; refused when given twice. */
export function withTitle(
  properties: Readonly<Record<string, PropertyInput>>,
  title: string | undefined,
  schema: PageSchema,
): Readonly<Record<string, PropertyInput>> {
  if (title === undefined) return properties;
  const name = titlePropertyOf(schema);
  if (name === undefined) {
    throw new ToolFailure("precondition_failed", `${schema.where} has no title property to set`, {
      retryable: false,
    });
  }
  if (Object.hasOwn(properties, name)) {
    throw new ToolFailure(
      "invalid_input",
      `the title is given twice: as title and as the property "${name}"; give one`,
      {
        retryable: false,
      },
    );
  }
  return { ...properties, [name]: title };
}
