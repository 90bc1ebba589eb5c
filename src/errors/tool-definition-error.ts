import { ToolregError } from "./toolreg-error.js";

/** A declaration the registry refuses to construct; names the tool and the offending field. */
export class ToolDefinitionError extends ToolregError {
  readonly toolName: string;
  readonly field: string;

  constructor(toolName: string, field: string, problem: string) {
    super("tool_definition", `tool "${toolName}": ${field}: ${problem}`);
    this.name = "ToolDefinitionError";
    this.toolName = toolName;
    this.field = field;
  }
}
