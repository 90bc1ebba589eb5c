import { ToolregError } from "./toolreg-error.js";

/** A registry that cannot be built or changed as asked, such as a duplicate tool name. */
export class RegistryError extends ToolregError {
  constructor(message: string) {
    super("registry", message);
    this.name = "RegistryError";
  }
}
