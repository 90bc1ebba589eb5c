import { ToolregError } from "../errors/toolreg-error.js";

/** Thrown when a sandbox cannot run here (no engine, no binary) or was built without a required opt-in. */
export class SandboxUnavailableError extends ToolregError {
  readonly sandbox: string;

  constructor(sandbox: string, message: string, options?: { cause?: unknown }) {
    super("sandbox_unavailable", message, options);
    this.name = "SandboxUnavailableError";
    this.sandbox = sandbox;
  }
}
