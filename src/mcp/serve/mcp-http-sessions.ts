/**
 * @module MCP over Streamable HTTP, with sessions for the clients that want them: an `initialize` opens
 * one, kept in memory with its own server and answered over SSE, so a call in it can report progress,
 * send log messages and ask the client (sampling, elicitation), and `list_changed` reaches a client that
 * listens on GET; a stream that breaks mid-call is resumed with `Last-Event-ID` from the session's own
 * event store. A request naming no session is answered statelessly, as before. A session id names
 * the instance that holds it (`<instance>.<random>`), so a load balancer can route by its prefix.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../../seam/context.js";
import { answerMcpHttpRequest } from "./answer-http-request.js";
import { SessionEventStore } from "./session-event-store.js";

export const SESSION_HEADER = "mcp-session-id";

/** What an instance token looks like: hex, so it needs no escaping in a load balancer's pattern. */
const INSTANCE = /^[0-9a-f]{10}$/;

/**
 * The token a process's session ids begin with: a short hash of its holder (`host:pid` by default), so it
 * names the instance for a load balancer without telling a client the host's name.
 */
export function instanceToken(holder: string): string {
  return createHash("sha256").update(holder).digest("hex").slice(0, 10);
}

export interface McpHttpSessionsOptions {
  /**
   * A session no request has used for this long, and with no stream open (a GET a client listens on, a
   * call still answering), is closed; 30 minutes unless given.
   */
  idleMs?: number;
  /**
   * Sessions one owner may hold on this instance (sessions live per instance, so behind a load balancer
   * a key may hold this many on each); opening one more closes its least recently used. 32 unless given.
   */
  perOwner?: number;
  /** Sessions in all on this instance; past this a new one is refused until some close. 1,000 unless given. */
  limit?: number;
  /** This instance's token (`instanceToken`), the prefix of the session ids it gives; a random one unless given. */
  instance?: string;
  /** Where a request for another instance's session is reported: a load balancer that does not route by prefix. */
  logger?: Pick<Logger, "warn">;
  now?: () => number;
}

export interface McpHttpRequest {
  request: Request;
  /** The parsed JSON body of a POST; undefined for GET and DELETE. */
  body: unknown;
  /** Who asks (an API key's id): a session answers only the owner that opened it. */
  owner: string;
  /** A server for a new session (given its id), or for one stateless request (no id). */
  server(sessionId: string | undefined): Server;
}

interface Session {
  owner: string;
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
  /** Responses still streaming: a client listening on GET is not idle, however long it only listens. */
  streaming: number;
}

export class McpHttpSessions {
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #perOwner: number;
  readonly #limit: number;
  readonly #instance: string;
  readonly #logger: Pick<Logger, "warn"> | undefined;
  readonly #now: () => number;
  readonly #sweeper: NodeJS.Timeout;
  #closed = false;

  constructor(options: McpHttpSessionsOptions = {}) {
    this.#idleMs = options.idleMs ?? 30 * 60_000;
    this.#perOwner = options.perOwner ?? 32;
    this.#limit = options.limit ?? 1_000;
    this.#instance = options.instance ?? instanceToken(randomUUID());
    if (!INSTANCE.test(this.#instance)) {
      throw new TypeError("McpHttpSessions: instance must be a token made by instanceToken");
    }
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#sweeper = setInterval(() => this.#closeIdle(), Math.min(this.#idleMs, 60_000));
    this.#sweeper.unref();
  }

  /** The prefix of this instance's session ids, before the dot. */
  get instance(): string {
    return this.#instance;
  }

  /** Open sessions. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * Whether a body carries only answers to the server's own questions, and notifications: what a running
   * call may be waiting for, unlike a request, which would start something new.
   */
  static onlyAnswers(body: unknown): boolean {
    const messages = Array.isArray(body) ? body : [body];
    return (
      messages.length > 0 &&
      messages.every(
        (message) =>
          isJSONRPCResultResponse(message) ||
          isJSONRPCErrorResponse(message) ||
          isJSONRPCNotification(message),
      )
    );
  }

  async answer(input: McpHttpRequest): Promise<Response> {
    const id = input.request.headers.get(SESSION_HEADER);
    if (id !== null) return this.#answerInSession(id, input);
    const messages = Array.isArray(input.body) ? input.body : [input.body];
    if (input.request.method === "POST" && messages.some((message) => isInitializeRequest(message))) {
      return this.#open(input);
    }
    if (input.request.method !== "POST") {
      return jsonRpcError(400, -32000, `${input.request.method} needs the Mcp-Session-Id an initialize gave`);
    }
    return answerMcpHttpRequest(input.request, input.server(undefined), input.body);
  }

  /** Closes every session: the server is stopping. Later requests naming one are told it is gone. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(open.map((session) => session.server.close().catch(() => {})));
  }

  async #answerInSession(id: string, input: McpHttpRequest): Promise<Response> {
    const session = this.#sessions.get(id);
    // Someone else's session is as good as none: its existence is not theirs to learn.
    if (!session || session.owner !== input.owner) return this.#notFound(id);
    session.lastUsed = this.#now();
    session.streaming++;
    const done = () => {
      session.streaming--;
      session.lastUsed = this.#now();
    };
    try {
      const response = await session.transport.handleRequest(
        input.request,
        input.body === undefined ? undefined : { parsedBody: input.body },
      );
      return whenBodyEnds(response, done);
    } catch (error) {
      done();
      throw error;
    }
  }

  async #open(input: McpHttpRequest): Promise<Response> {
    if (this.#closed) return jsonRpcError(503, -32000, "the server is shutting down");
    this.#makeRoomFor(input.owner);
    if (this.#sessions.size >= this.#limit) {
      return jsonRpcError(503, -32000, "too many open MCP sessions; retry later or call without one");
    }
    const id = `${this.#instance}.${randomUUID()}`;
    const server = input.server(id);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      // Every message sent over SSE gets an id, so a stream that breaks mid-call resumes with Last-Event-ID;
      // the store lives and dies with the session, and only its owner reaches it (#answerInSession).
      eventStore: new SessionEventStore(),
      // The `retry` of the priming event: how long a client whose stream broke waits to resume it.
      retryInterval: 1_000,
      // A DELETE ends the session; the transport closes itself, and the server with it.
      onsessionclosed: () => {
        this.#sessions.delete(id);
      },
    });
    // Counted before the first await, so concurrent initializes cannot all pass the limits at once.
    this.#sessions.set(id, { owner: input.owner, server, transport, lastUsed: this.#now(), streaming: 0 });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(input.request, { parsedBody: input.body });
      // A refused initialize makes no session; one that finished while the server stopped is closed too.
      if (transport.sessionId !== id || this.#closed) this.#end(id);
      return response;
    } catch (error) {
      this.#end(id);
      throw error;
    }
  }

  /**
   * The spec's 404, on which a client initializes again. An id naming another instance says so, read from
   * the id alone and the same for every key: the request was misrouted, or that instance is gone.
   */
  #notFound(id: string): Response {
    const dot = id.indexOf(".");
    const named = id.slice(0, dot);
    if (dot < 0 || named === this.#instance || !INSTANCE.test(named)) {
      return jsonRpcError(404, -32001, "Session not found");
    }
    this.#logger?.warn(
      { instance: this.#instance, named },
      "MCP request for a session of another instance: route by the Mcp-Session-Id prefix",
    );
    return jsonRpcError(
      404,
      -32001,
      "Session not found: it was opened on another instance (misrouted, or that instance stopped); initialize again",
    );
  }

  #makeRoomFor(owner: string): void {
    if (this.#sessions.size >= this.#limit) this.#closeIdle();
    const owned = [...this.#sessions].filter(([, session]) => session.owner === owner);
    if (owned.length < this.#perOwner) return;
    const [oldest] = owned.sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    if (oldest) this.#end(oldest[0]);
  }

  #closeIdle(): void {
    const cutoff = this.#now() - this.#idleMs;
    for (const [id, session] of this.#sessions) {
      if (session.streaming === 0 && session.lastUsed <= cutoff) this.#end(id);
    }
  }

  #end(id: string): void {
    const session = this.#sessions.get(id);
    this.#sessions.delete(id);
    session?.server.close().catch(() => {});
  }
}

/**
 * The response, telling `ended` once its body has been read to the end or cancelled (a client that goes
 * away cancels it), or at once when it has none.
 */
function whenBodyEnds(response: Response, ended: () => void): Response {
  const source = response.body;
  if (!source) {
    ended();
    return response;
  }
  let open = true;
  const end = () => {
    if (open) ended();
    open = false;
  };
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** An error in the shape the SDK's transport answers with, so a client reads ours as it reads its. */
function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}
