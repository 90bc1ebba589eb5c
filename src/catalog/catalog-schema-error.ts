import { ToolregError } from "../errors/toolreg-error.js";

/** An input schema a provider's renderer cannot read, such as a `$ref` outside the document for Gemini. */
export class CatalogSchemaError extends ToolregError {
  constructor(message: string) {
    super("catalog_schema", message);
    this.name = "CatalogSchemaError";
  }
}
