import { ToolregError } from "../errors/toolreg-error.js";

/** A tool's input schema that a provider's format cannot express, such as a recursive `$ref` for Gemini. */
export class CatalogSchemaError extends ToolregError {
  constructor(message: string) {
    super("catalog_schema", message);
    this.name = "CatalogSchemaError";
  }
}
