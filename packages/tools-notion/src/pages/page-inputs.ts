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
