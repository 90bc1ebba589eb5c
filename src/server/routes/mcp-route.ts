/**
 * @module `POST /mcp`: MCP over Streamable HTTP (stateless, JSON responses) with the same keys, callers and
 * seam as the API; one run per HTTP request, counted as in flight so a shutdown waits for it.
 */
import { randomUUID } from "node:crypto";
import type { Hono, MiddlewareHandler } from "hono";
import { answerMcpHttpRequest } from "../../mcp/serve/answer-http-request.js";
import { createExecutionContext } from "../../seam/context.js";
import { problem } from "../problem.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export function mcpRoute(
  app: Hono<ServerEnv>,
  deps: ServerDeps,
  authenticated: MiddlewareHandler<ServerEnv>,
): void {
  app.use("/mcp", authenticated);
  app.post("/mcp", (c) => {
    if (deps.inflight.closed) {
      return problem(
        503,
        "shutting_down",
        "the server is shutting down; retry against another instance",
        {},
        { "retry-after": "1" },
      );
    }
    const caller = c.get("caller");
    const runId = `mcp-${randomUUID()}`;
    const context = ({ toolCallId, signal }: { toolCallId: string; signal: AbortSignal }) =>
      createExecutionContext({
        tenantId: caller.tenantId,
        principalId: caller.principalId,
        scopes: caller.scopes,
        mode: caller.mode,
        runId,
        toolCallId,
        signal,
        logger: deps.logger,
      });
    return deps.inflight.track(() => answerMcpHttpRequest(c.req.raw, { seam: deps.seam, context }));
  });
}
