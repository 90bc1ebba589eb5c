/**
 * @module What a tool may ask of the MCP client whose `tools/call` it is running under: progress, log
 * messages, sampling and elicitation. The seam runs the tool as ever; the channel is found by the call's
 * tenant and tool-call id (fresh for every MCP call), so nothing MCP-shaped enters the seam or the tool's
 * declared context. A map, not AsyncLocalStorage: on Node 20, once used, that makes every await in the
 * process slower, API calls included.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";

export interface McpClientChannel {
  /**
   * What the client declared at `initialize`. Undefined over stateless HTTP, where the server that runs a
   * call never saw the handshake: there a tool cannot ask the client anything.
   */
  readonly capabilities: ClientCapabilities | undefined;
  /** A `notifications/progress`, when the client asked for progress (sent a progress token); else nothing. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** A `notifications/message`, unless its level is below the one the client set. */
  log(level: LoggingLevel, data: unknown): Promise<void>;
  /** `sampling/createMessage`: asks the client's model. Throws when the client cannot be asked. */
  createMessage(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /** `elicitation/create` as a form: asks the client's user. Throws when the client cannot be asked. */
  elicitInput(params: Omit<ElicitRequestFormParams, "mode">): Promise<ElicitResult>;
}

/** Who a call is, as the tool's context says: enough to find its channel, and only its own. */
export interface CallIdentity {
  readonly tenantId: string;
  readonly principalId: string;
  readonly runId: string;
  readonly toolCallId: string;
}

/** A call's channel, made the first time its tool asks for it: most tools never do. */
interface ChannelSlot {
  make: () => McpClientChannel;
  made: McpClientChannel | undefined;
}

const channels = new Map<string, ChannelSlot>();
// All four are identifiers (createExecutionContext refuses anything else), so none holds a NUL.
const keyOf = (call: CallIdentity) =>
  `${call.tenantId}\u0000${call.principalId}\u0000${call.runId}\u0000${call.toolCallId}`;

/** The channel to the client of the MCP call `context` belongs to, or undefined outside one (an HTTP API call …). */
export function mcpClientOf(context: CallIdentity): McpClientChannel | undefined {
  const slot = channels.get(keyOf(context));
  if (!slot) return undefined;
  slot.made ??= slot.make();
  return slot.made;
}

/**
 * Makes `makeChannel`'s channel the MCP client of `call` until the returned release runs; the caller
 * releases it as the seam's call settles (in a `finally`, which costs no promise, unlike
 * `Promise.prototype.finally`). A call whose identity is already registered gets no channel (the release
 * does nothing) rather than take or end another's.
 */
export function openMcpClient(call: CallIdentity, makeChannel: () => McpClientChannel): () => void {
  const key = keyOf(call);
  if (channels.has(key)) return keepOthers;
  channels.set(key, { make: makeChannel, made: undefined });
  return () => {
    channels.delete(key);
  };
}

const keepOthers = () => {};
