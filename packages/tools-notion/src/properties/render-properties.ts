/**
 * @module A page's property values as short text for a model to read (developers.notion.com/reference/
 * page-property-values): names, numbers, dates and ids as written, and any type not listed as its type name.
 */
import type { PageObjectResponse } from "@notionhq/client";
import { oneLine } from "toolreg/toolkit";
import { plainText } from "../blocks/rich-text.js";

type PropertyValue = PageObjectResponse["properties"][string];

/**
 * A page read carries at most 25 references in one property (developers.notion.com/reference/retrieve-a-page,
 * "Limits"): a relation says `has_more` (which the SDK's types leave out), people say nothing, so 25 of them
 * may be more. Either is marked, never cut silently.
 */
const REFERENCE_LIMIT = 25;
const MORE = "… more (Notion lists 25 here; open the page in Notion for the rest)";

/** Each property of a page as `name: value` text, values on one line and bounded. */
export function renderProperties(page: PageObjectResponse, maxChars = 500): Record<string, string> {
  return Object.fromEntries(
    Object.entries(page.properties).map(([name, value]) => [
      oneLine(name, 200),
      oneLine(renderValue(value), maxChars),
    ]),
  );
}

/** A page's title: the text of its title property, whatever that property is named. */
export function pageTitle(page: PageObjectResponse): string {
  const title = Object.values(page.properties).find((value) => value.type === "title");
  return title?.type === "title" ? plainText(title.title) : "";
}

export function renderValue(value: PropertyValue): string {
  switch (value.type) {
    case "title":
      return plainText(value.title);
    case "rich_text":
      return plainText(value.rich_text);
    case "number":
      return value.number === null ? "" : String(value.number);
    case "checkbox":
      return value.checkbox ? "yes" : "no";
    case "select":
      return value.select?.name ?? "";
    case "status":
      return value.status?.name ?? "";
    case "multi_select":
      return value.multi_select.map((option) => option.name).join(", ");
    case "date":
      return value.date === null ? "" : `${value.date.start}${value.date.end ? ` → ${value.date.end}` : ""}`;
    case "url":
      return value.url ?? "";
    case "email":
      return value.email ?? "";
    case "phone_number":
      return value.phone_number ?? "";
    case "people":
      return withMore(
        value.people.map((person) => ("name" in person && person.name ? person.name : person.id)),
        value.people.length >= REFERENCE_LIMIT,
      );
    case "relation":
      return withMore(
        value.relation.map((related) => related.id),
        (value as { has_more?: boolean }).has_more === true,
      );
    case "created_time":
      return value.created_time;
    case "last_edited_time":
      return value.last_edited_time;
    case "unique_id":
      return `${value.unique_id.prefix ? `${value.unique_id.prefix}-` : ""}${value.unique_id.number ?? ""}`;
    case "formula": {
      const formula = value.formula;
      if (formula.type === "string") return formula.string ?? "";
      if (formula.type === "number") return formula.number === null ? "" : String(formula.number);
      if (formula.type === "boolean") return formula.boolean === null ? "" : String(formula.boolean);
      if (formula.type === "date") return formula.date?.start ?? "";
      return `[formula]`;
    }
    default:
      return `[${value.type}]`;
  }
}

function withMore(names: string[], more: boolean): string {
  return more ? [...names, MORE].join(", ") : names.join(", ");
}
