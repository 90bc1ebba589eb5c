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

const channels = new Map<string, McpClientChannel>();
// Every part of who is calling, not the tool-call id alone: a caller of the HTTP API chooses its own
// tool-call id, and must not be able to name another principal's call and reach that call's client.
const keyOf = (call: CallIdentity) =>
  JSON.stringify([call.tenantId, call.principalId, call.runId, call.toolCallId]);

/** The channel to the client of the MCP call `context` belongs to, or undefined outside one (an HTTP API call …). */
export function mcpClientOf(context: CallIdentity): McpClientChannel | undefined {
  return channels.get(keyOf(context));
}

/**
 * Runs `work` (the seam's call for `call`) with `channel` as that call's MCP client. A call whose identity
 * is already registered runs without one rather than take or end another's.
 */
export async function withMcpClient<T>(
  call: CallIdentity,
  channel: McpClientChannel,
  work: () => Promise<T>,
): Promise<T> {
  const key = keyOf(call);
  if (channels.has(key)) return work();
  channels.set(key, channel);
  try {
    return await work();
  } finally {
    channels.delete(key);
  }
}
