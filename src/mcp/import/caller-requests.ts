/**
 * @module What an upstream MCP server asks of its client during a call — sampling, elicitation, roots —
 * put to the MCP client of the toolreg call it belongs to, or refused with the reason. One per connection:
 * a connection serves many callers, and the SDK's client does not say which of its requests a server's
 * request came with (not on stdio, not on an HTTP stream), so a request is tied to a call only when
 * exactly one call is in flight on that connection; with none or several, no caller is asked: another's
 * client never is, nor a call on another connection (another user's, with per-user OAuth).
 */
import {
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type ListRootsResult,
  McpError,
  ErrorCode as McpErrorCode,
} from "@modelcontextprotocol/sdk/types.js";
import { type CallIdentity, type McpClientChannel, mcpClientOf } from "../serve/client-channel.js";

/** What an upstream may ask, as the import client answers it. */
export interface UpstreamRequests {
  createMessage(params: CreateMessageRequest["params"]): Promise<CreateMessageResult>;
  elicitInput(params: ElicitRequest["params"]): Promise<ElicitResult>;
  listRoots(): Promise<ListRootsResult>;
}

export class CallerRequests implements UpstreamRequests {
  readonly #server: string;
  readonly #calls = new Set<CallIdentity>();

  constructor(server: string) {
    this.#server = server;
  }

  /** Marks `call` as in flight on this connection until the returned release runs. */
  enter(call: CallIdentity): () => void {
    this.#calls.add(call);
    return () => this.#calls.delete(call);
  }

  createMessage(params: CreateMessageRequest["params"]): Promise<CreateMessageResult> {
    return this.#channel("sampling/createMessage", "sampling").createMessage(params);
  }

  elicitInput(params: ElicitRequest["params"]): Promise<ElicitResult> {
    // A URL elicitation sends the user to a page the upstream names; toolreg passes on forms only.
    if (params.mode === "url") {
      throw new McpError(
        McpErrorCode.InvalidParams,
        `toolreg passes on form elicitations only; the MCP server ${this.#server} asked for a URL one`,
      );
    }
    const { mode: _mode, ...form } = params;
    const channel = this.#channel("elicitation/create", "elicitation");
    // The caller's user sees who asks: the upstream, not toolreg.
    return channel.elicitInput({
      ...form,
      message: `${this.#server} (an imported MCP server) asks: ${form.message}`,
    });
  }

  listRoots(): Promise<ListRootsResult> {
    return this.#channel("roots/list", "roots").listRoots();
  }

  #channel(method: string, capability: "sampling" | "elicitation" | "roots"): McpClientChannel {
    const refuse = (why: string) =>
      new McpError(McpErrorCode.InvalidRequest, `toolreg cannot pass on ${method}: ${why}`);
    const calls = [...this.#calls];
    if (calls.length === 0) {
      throw refuse(`no call to the MCP server ${this.#server} is in flight on this connection`);
    }
    if (calls.length > 1) {
      throw refuse(
        `${calls.length} calls to the MCP server ${this.#server} are in flight and it cannot tell which one asks, so it asks none of their clients`,
      );
    }
    const channel = mcpClientOf(calls[0] as CallIdentity);
    if (!channel) {
      throw refuse(
        "the call was not made by an MCP client toolreg can ask (an HTTP API call, or MCP over stateless HTTP)",
      );
    }
    if (!channel.capabilities?.[capability]) {
      throw refuse(`the calling MCP client did not declare the ${capability} capability`);
    }
    return channel;
  }
}
