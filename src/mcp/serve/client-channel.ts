/**
 * @module What a tool may ask of the MCP client whose `tools/call` it is running under: progress, log
 * messages, sampling and elicitation. The seam runs the tool as ever; the channel is found by the call's
 * identity (tenant, principal, run and tool-call id, fresh for every MCP call), so nothing MCP-shaped
 * enters the seam or the tool's declared context. A list of the calls in flight, not AsyncLocalStorage: on
 * Node 20, once used, that makes every await in the process slower, API calls included.
 */
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  ListRootsResult,
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
  /** `roots/list`: the client's roots. Throws when the client cannot be asked. */
  listRoots(): Promise<ListRootsResult>;
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
  call: CallIdentity;
  make: () => McpClientChannel;
  made: McpClientChannel | undefined;
  /** Where the slot stands in `inFlight`, so releasing it is a swap, not a search. */
  index: number;
}

// The calls in flight, in a plain array: a Map keyed by each call's fresh id cost about 0.8 µs a call to
// add and remove (measured; hashing a new string key is the cost), more than the rest of the channel's
// work. Opening and releasing are constant time; finding a channel scans, but only a tool that asks for
// its client looks.
const inFlight: ChannelSlot[] = [];

const sameCall = (left: CallIdentity, right: CallIdentity) =>
  left.toolCallId === right.toolCallId &&
  left.runId === right.runId &&
  left.principalId === right.principalId &&
  left.tenantId === right.tenantId;

/**
 * The channel to the client of the MCP call `context` belongs to, or undefined outside one (an HTTP API
 * call …). Two calls in flight under one identity (a host that reused a tool-call id) get none: neither
 * may take the other's client.
 */
export function mcpClientOf(context: CallIdentity): McpClientChannel | undefined {
  let found: ChannelSlot | undefined;
  for (const slot of inFlight) {
    if (!sameCall(slot.call, context)) continue;
    if (found) return undefined;
    found = slot;
  }
  if (!found) return undefined;
  found.made ??= found.make();
  return found.made;
}

/**
 * Makes `makeChannel`'s channel the MCP client of `call` until the returned release runs; the caller
 * releases it as the seam's call settles (in a `finally`, which costs no promise, unlike
 * `Promise.prototype.finally`). Releasing twice is harmless.
 */
export function openMcpClient(call: CallIdentity, makeChannel: () => McpClientChannel): () => void {
  const slot: ChannelSlot = { call, make: makeChannel, made: undefined, index: inFlight.length };
  inFlight.push(slot);
  return () => {
    if (inFlight[slot.index] !== slot) return;
    const last = inFlight.pop() as ChannelSlot;
    if (last === slot) return;
    inFlight[slot.index] = last;
    last.index = slot.index;
  };
}
