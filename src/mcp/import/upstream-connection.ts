/**
 * @module One connection to an upstream MCP server, kept up: connects, lists every page of tools, calls
 * them, follows `tools/list_changed`, and reconnects with backoff when the server goes away. A call never
 * hangs on a dead server: it fails when the transport closes, or when its deadline passes. The client
 * declares sampling, elicitation (forms, with their defaults applied to an accepted answer, SEP-1034) and
 * roots, and hands each such request from the server to `requests`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError,
  ErrorCode as McpErrorCode,
  ToolListChangedNotificationSchema,
  type Tool as UpstreamTool,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { metaWithTraceContext } from "../../telemetry/trace-context.js";
import type { UpstreamRequests } from "./caller-requests.js";

export interface ReconnectOptions {
  /** The first wait after a connection is lost; doubled on each failed attempt. Default 250 ms. */
  initialDelayMs?: number;
  /** The longest wait between attempts. Default 30 s. */
  maxDelayMs?: number;
}

export interface ConnectionEvents {
  /** The upstream said its tools changed, or a lost connection came back: list again. */
  onToolsChanged(): void;
  onDisconnected(error: unknown): void;
  onReconnectFailed(error: unknown, nextDelayMs: number): void;
}

/** Pages followed before a tool list is taken as endless (a server repeating its cursor). */
const MAX_PAGES = 1_000;

export class UpstreamConnection {
  readonly #server: string;
  readonly #openTransport: () => Promise<Transport>;
  readonly #events: ConnectionEvents;
  readonly #requests: UpstreamRequests;
  readonly #initialDelayMs: number;
  readonly #maxDelayMs: number;
  #client: Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(
    server: string,
    openTransport: () => Promise<Transport>,
    events: ConnectionEvents,
    requests: UpstreamRequests,
    reconnect: ReconnectOptions = {},
  ) {
    this.#server = server;
    this.#openTransport = openTransport;
    this.#events = events;
    this.#requests = requests;
    this.#initialDelayMs = reconnect.initialDelayMs ?? 250;
    this.#maxDelayMs = reconnect.maxDelayMs ?? 30_000;
  }

  /** Connects once; the first connection's failure is the caller's to report. */
  async connect(): Promise<void> {
    const client = new Client(
      { name: "toolreg", version: "1" },
      { capabilities: { sampling: {}, elicitation: { form: { applyDefaults: true } }, roots: {} } },
    );
    const requests = this.#requests;
    client.setRequestHandler(CreateMessageRequestSchema, (request) => requests.createMessage(request.params));
    client.setRequestHandler(ElicitRequestSchema, (request) => requests.elicitInput(request.params));
    client.setRequestHandler(ListRootsRequestSchema, () => requests.listRoots());
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (this.#client === client) this.#events.onToolsChanged();
    });
    await client.connect(await this.#openTransport());
    if (this.#closed) {
      await client.close();
      return;
    }
    // Set after connecting: closing a half-made connection must not schedule a reconnect.
    client.onclose = () =>
      this.#lost(client, new Error(`the MCP server ${this.#server} closed the connection`));
    this.#client = client;
  }

  /** Every tool the server lists, every page of it. */
  async listTools(): Promise<UpstreamTool[]> {
    const client = this.#require();
    const tools: UpstreamTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      let listed: Awaited<ReturnType<Client["listTools"]>>;
      try {
        listed = await client.listTools(cursor === undefined ? {} : { cursor });
      } catch (error) {
        this.#noticeForgottenSession(client, error);
        throw error;
      }
      tools.push(...listed.tools);
      cursor = listed.nextCursor;
      if (cursor === undefined) return tools;
      if (seen.has(cursor)) break;
      seen.add(cursor);
    }
    throw new Error(`the MCP server ${this.#server} pages its tool list without end`);
  }

  /** One tools/call; a lost connection, an abort or the deadline all end it. */
  async callTool(
    name: string,
    input: unknown,
    options: { signal: AbortSignal; timeoutMs: number; mayHaveActed: boolean },
  ): Promise<CallToolResult> {
    const client = this.#require();
    try {
      // A plain request, not the SDK's callTool: the structured content is checked against the output
      // schema by the seam, whose failure is an `output_invalid` envelope rather than a thrown error.
      // The call's trace goes on upstream: its `_meta` names the span this call runs in (SEP-414).
      const _meta = metaWithTraceContext(undefined);
      return await client.request(
        {
          method: "tools/call",
          params: { name, arguments: input as Record<string, unknown>, ...(_meta ? { _meta } : {}) },
        },
        CallToolResultSchema,
        { signal: options.signal, timeout: Math.max(1, options.timeoutMs) },
      );
    } catch (error) {
      this.#noticeForgottenSession(client, error);
      throw this.#failure(name, error, options.mayHaveActed);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.close();
  }

  #require(): Client {
    if (!this.#client) {
      throw new ToolFailure(
        "upstream_error",
        `the MCP server ${this.#server} is not connected; toolreg is reconnecting`,
        {
          retryable: true,
        },
      );
    }
    return this.#client;
  }

  #failure(name: string, error: unknown, mayHaveActed: boolean): ToolFailure {
    if (error instanceof ToolFailure) return error;
    const closed = error instanceof McpError && error.code === McpErrorCode.ConnectionClosed;
    if (closed) {
      return new ToolFailure(
        "upstream_error",
        `the MCP server ${this.#server} went away during ${name}${mayHaveActed ? "; whether it acted is unknown, so check before calling again" : ""}`,
        { retryable: !mayHaveActed, cause: error },
      );
    }
    const timedOut = error instanceof McpError && error.code === McpErrorCode.RequestTimeout;
    if (timedOut) {
      return new ToolFailure("timeout", `the MCP server ${this.#server} did not answer ${name} in time`, {
        retryable: !mayHaveActed,
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ToolFailure(
      "upstream_error",
      `the MCP server ${this.#server} failed ${name}: ${message.slice(0, 300)}`,
      {
        retryable: false,
        cause: error,
      },
    );
  }

  /**
   * An HTTP server that restarted no longer knows the session and answers 404; the SDK's client neither
   * closes nor starts a new one, so the connection is treated as lost and made again.
   */
  #noticeForgottenSession(client: Client, error: unknown): void {
    if (!(error instanceof StreamableHTTPError) || error.code !== 404) return;
    this.#lost(client, error);
    client.close().catch(() => {});
  }

  #lost(client: Client, error: unknown): void {
    if (this.#client !== client || this.#closed) return;
    this.#client = undefined;
    this.#events.onDisconnected(error);
    this.#scheduleReconnect(this.#initialDelayMs);
  }

  #scheduleReconnect(delayMs: number): void {
    if (this.#closed) return;
    // Jitter, so many toolreg processes do not knock on a restarted server in step.
    const wait = Math.round(delayMs * (0.8 + Math.random() * 0.4));
    this.#retry = setTimeout(async () => {
      try {
        await this.connect();
        if (this.#client) this.#events.onToolsChanged();
      } catch (error) {
        const next = Math.min(this.#maxDelayMs, delayMs * 2);
        this.#events.onReconnectFailed(error, next);
        this.#scheduleReconnect(next);
      }
    }, wait);
    // A server that stays away must not keep the process alive on its own.
    this.#retry.unref();
  }
}
