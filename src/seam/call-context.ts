/** @module The context one tool call runs with: the host's, plus what the seam decided for this call. */
import type { AssistantMode, CredentialResolver, ExecutionContext, Logger, ToolContext } from "./context.js";

/** A class, not a spread with a getter: the shape stays fast, and the AbortController is made only if read. */
export class CallContext implements ToolContext {
  readonly tenantId: string;
  readonly principalId: string;
  readonly runId: string;
  readonly toolCallId: string;
  readonly scopes: readonly string[];
  readonly mode: AssistantMode;
  readonly credentials: CredentialResolver;
  readonly logger: Logger;
  readonly deadline: number;
  readonly idempotencyKey: string | undefined;
  readonly approvalId: string | undefined;
  readonly keyId: string | undefined;
  #controller: AbortController | undefined;

  constructor(
    host: ExecutionContext,
    deadline: number,
    idempotencyKey: string | undefined,
    approvalId: string | undefined,
  ) {
    this.tenantId = host.tenantId;
    this.principalId = host.principalId;
    this.runId = host.runId;
    this.toolCallId = host.toolCallId;
    this.scopes = host.scopes;
    this.mode = host.mode;
    this.credentials = host.credentials;
    this.logger = host.logger;
    this.deadline = deadline;
    this.idempotencyKey = idempotencyKey;
    this.approvalId = approvalId;
    this.keyId = host.keyId;
  }

  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    return this.#controller.signal;
  }

  /** Aborts the signal the tool holds (or will get), on timeout or the host's abort. */
  abort(reason: unknown): void {
    this.#controller ??= new AbortController();
    this.#controller.abort(reason);
  }
}
