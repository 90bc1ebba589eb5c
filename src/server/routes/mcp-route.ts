/**
 * @module `/mcp`: MCP over Streamable HTTP with the same keys, callers and seam as the API. An `initialize`
 * opens a session (SSE answers, server-to-client requests, `list_changed` on GET) that only its key may
 * use, held by this instance alone: its id begins with the instance's token, for a load balancer to route
 * by. A POST naming no session is answered statelessly as JSON, by any instance. A call asked for as an
 * MCP task is the key's, in any of its sessions, until its ttl; tasks live on this instance. Every tool
 * call counts as in flight, so a shutdown waits for it; the sessions and tasks end when the server stops.
 */

import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { McpCallTasks } from "../../mcp/serve/call-tasks.js";
import { createMcpServer } from "../../mcp/serve/create-mcp-server.js";
import { McpHttpSessions, SESSION_HEADER } from "../../mcp/serve/mcp-http-sessions.js";
import { isLoopbackAddress, rebindingRefusal } from "../../mcp/serve/rebinding-refusal.js";
import type { Caller } from "../../ports/auth-store.js";
import { createExecutionContext } from "../../seam/context.js";
import { problem } from "../problem.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { answersOwnQuestions, canDecide } from "./approvals-routes.js";

/**
 * The scope an operator grants a key (`toolreg keys create --scopes approvals:elicit`) so that the person
 * at its MCP client approves the key's own parked calls there, by elicitation: a self-approval this key
 * alone may make, in the client's form only, whatever the deployment says of self-approval elsewhere.
 */
export const ELICIT_SCOPE = "approvals:elicit";

/**
 * Which parked calls of this key are put to its client's user: any, with the operator's grant or what
 * deciding needs; otherwise only the questions the caller asked (every call parked here is the caller's own),
 * which are theirs to answer as over the API.
 */
const approvesByElicitation = (caller: Caller, deps: ServerDeps): boolean | ((toolName: string) => boolean) =>
  caller.scopes.includes(ELICIT_SCOPE) ||
  (deps.allowSelfApproval && canDecide(caller)) ||
  ((toolName) => answersOwnQuestions(caller, caller.principalId, deps.registry.get(toolName)));

export function mcpRoute(
  app: Hono<ServerEnv>,
  deps: ServerDeps,
  authenticated: MiddlewareHandler<ServerEnv>,
): void {
  // Session ids begin with this instance's token: a load balancer routes by it (docs/decisions/0015).
  const sessions = new McpHttpSessions({ instance: deps.instance, logger: deps.logger });
  deps.logger.info({ instance: deps.instance }, "MCP session ids of this instance begin with its token");
  // The hub closes when the server stops, after the running calls drained: the sessions' streams end too.
  // Tasks outlive their sessions, as long as their ttl; they stop waiting when the server stops.
  const tasks = new McpCallTasks();
  deps.hub.subscribe(
    () => {},
    () => {
      tasks.close();
      void sessions.close();
    },
  );
  // A task waiting on an approval looks at it as soon as any instance's decision is heard.
  const approvalChanges = (listener: (approvalId: string) => void) =>
    deps.hub.subscribe((event) => {
      if ("approvalId" in event) listener(event.approvalId);
    });
  const serverFor = (caller: Caller) => (sessionId: string | undefined) => {
    const runId = `mcp-${sessionId ?? randomUUID()}`;
    return createMcpServer({
      seam: deps.seam,
      context: ({ toolCallId, signal, idempotencyKey }) =>
        createExecutionContext({
          tenantId: caller.tenantId,
          principalId: caller.principalId,
          scopes: caller.scopes,
          mode: caller.mode,
          keyId: caller.keyId,
          runId,
          toolCallId,
          signal,
          logger: deps.logger,
          // The store scopes it by tenant, whichever instance or session the call arrives in.
          ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
          ...(deps.credentials ? { credentials: deps.credentials } : {}),
        }),
      // A stateless server lives for one request: there is no one to tell of a change.
      ...(sessionId === undefined ? {} : { registry: deps.registry }),
      // Accepting at the client approves as the caller: a self-approval, so it needs the operator's grant
      // for this key, or what deciding over the API needs and the deployment's leave to approve one's own;
      // answering one's own questions needs neither.
      elicitApprovals: approvesByElicitation(caller, deps),
      tasks: { tasks, owner: caller.keyId, approvals: deps.stores.approvals, approvalChanges },
      track: (call) => deps.inflight.track(call),
      // Each read answers to this caller, as a call would: their tenant, principal and visible tools.
      resources: deps.mcpResources,
      // The caller's tenant's skills, as prompts.
      ...(deps.skills ? { skills: deps.skills } : {}),
    });
  };

  // Ahead of authentication: a rebound request is refused for where it came from, whatever it carries.
  app.use("/mcp", async (c, next) => {
    const refusal = rebindingRefusal(c.req.raw.headers, fromLoopback(c), deps.corsOrigins);
    if (refusal) return problem(403, "host_not_allowed", refusal);
    return next();
  });
  app.use("/mcp", authenticated);
  app.on(["GET", "POST", "DELETE"], "/mcp", async (c) => {
    let body: unknown;
    if (c.req.method === "POST") {
      const read = await readJsonBody(c, { timeoutMs: deps.bodyTimeoutMs });
      if (!read.ok) return read.response;
      body = read.value;
    }
    // No new calls once stopping; a running call may still get the answer it asked its client for.
    const answering = c.req.header(SESSION_HEADER) !== undefined && McpHttpSessions.onlyAnswers(body);
    if (deps.inflight.closed && !answering) {
      return problem(
        503,
        "shutting_down",
        "the server is shutting down; retry against another instance",
        {},
        { "retry-after": "1" },
      );
    }
    const caller = c.get("caller");
    return sessions.answer({ request: c.req.raw, body, owner: caller.keyId, server: serverFor(caller) });
  });
}

/** Whether the request's peer is this machine, over loopback; unknown (no socket, as in tests) is not. */
function fromLoopback(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return isLoopbackAddress(incoming?.socket.remoteAddress);
}
