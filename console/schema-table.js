/** @module A tool's input JSON Schema as a table a person can read: one row per argument. */
import { el } from "./dom.js";

/** The arguments of an object schema; a schema without properties says so instead. */
export function argumentTable(schema) {
  const properties = isObject(schema?.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length === 0) return el("p", { class: "muted" }, "This tool takes no arguments.");
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const cell = (label, ...children) => el("td", { "data-label": label }, ...children);
  return el(
    "table",
    { class: "table arguments" },
    el("caption", { class: "visually-hidden" }, "Arguments"),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ["Argument", "Type", "Required", "Description"].map((title) => el("th", { scope: "col" }, title)),
      ),
    ),
    el(
      "tbody",
      {},
      names.map((name) => {
        const property = properties[name];
        const notes = constraintsOf(property);
        return el(
          "tr",
          {},
          cell("Argument", el("code", {}, name)),
          cell("Type", el("code", {}, typeOf(property))),
          cell("Required", required.has(name) ? "yes" : "no"),
          cell(
            "Description",
            // One child, so the stacked phone layout keeps the text and its limits in one column.
            el(
              "span",
              {},
              typeof property?.description === "string" ? property.description : "",
              notes.length > 0 && el("span", { class: "constraints" }, notes.join(" · ")),
            ),
          ),
        );
      }),
    ),
  );
}

/** A short type: `string`, `array of string`, `"a" | "b"`, `integer | null`. */
export function typeOf(property) {
  if (!isObject(property)) return "any";
  if ("const" in property) return JSON.stringify(property.const);
  if (Array.isArray(property.enum)) return property.enum.map((value) => JSON.stringify(value)).join(" | ");
  const union = property.anyOf ?? property.oneOf;
  if (Array.isArray(union)) return union.map(typeOf).join(" | ");
  if (typeof property.$ref === "string") return property.$ref.split("/").at(-1);
  return [property.type ?? "any"]
    .flat()
    .map((type) => (type === "array" ? `array of ${typeOf(property.items)}` : String(type)))
    .join(" | ");
}

/** Limits worth knowing before calling; a pattern only when no format names it more kindly. */
function constraintsOf(property) {
  if (!isObject(property)) return [];
  const notes = [];
  if (property.format) notes.push(`format ${property.format}`);
  else if (property.pattern) notes.push(`pattern ${property.pattern}`);
  const range = (low, high, unit) => {
    if (low !== undefined && high !== undefined) notes.push(`${low}–${high}${unit}`);
    else if (low !== undefined) notes.push(`at least ${low}${unit}`);
    else if (high !== undefined) notes.push(`at most ${high}${unit}`);
  };
  range(property.minLength, property.maxLength, " characters");
  range(property.minItems, property.maxItems, " items");
  range(property.minimum, property.maximum, "");
  if ("default" in property) notes.push(`default ${JSON.stringify(property.default)}`);
  return notes;
}

function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
