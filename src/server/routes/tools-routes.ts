/**
 * @module Discovery and invocation: `GET /api/v1/tools` (filtered by runtime, category, effect, a search
 * and — always — what this caller may use), `GET /api/v1/tools/:name`, and `POST …/:name/invoke`
 * through the seam. A tool the caller may not use is absent, and asked for by name it is refused by name.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { searchIndexFor } from "../../catalog/meta/search-cache.js";
import { CATEGORIES } from "../../declaration/categories.js";
import { EFFECTS } from "../../declaration/effect.js";
import { parseRuntimeVersion, runsOnRuntime } from "../../declaration/runtime.js";
import type { AnyTool } from "../../registry/registry.js";
import type { Envelope, ErrorCode } from "../../seam/envelope.js";
import { nearestNames } from "../../seam/nearest-names.js";
import { withTraceFromHeaders } from "../../telemetry/trace-context.js";
import { callContext, viewContext } from "../call-context.js";
import { manifestEntry } from "../manifest.js";
import { problem } from "../problem.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export const DiscoveryQuery = z.object({
  runtime: z
    .string()
    .max(64)
    .refine((value) => parseRuntimeVersion(value) !== null, "must be a semver version such as 2.3.0")
    .optional(),
  category: z.enum(CATEGORIES).optional(),
  effect: z.enum(EFFECTS).optional(),
  q: z.string().trim().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
});

/** HTTP status for an envelope: 200 for a result, 202 for a parked call, the matching class otherwise. */
/** The HTTP status of a failed call, by its envelope code. */
export const STATUS_OF: Record<ErrorCode, number> = {
  unknown_tool: 404,
  not_authorized: 403,
  invalid_input: 422,
  precondition_failed: 412,
  rate_limited: 429,
  approval_required: 202,
  approval_denied: 403,
  // Parked like approval_required: accepted, not run, waiting on a person.
  auth_required: 202,
  in_progress: 409,
  idempotency_conflict: 409,
  timeout: 504,
  egress_refused: 403,
  sandbox_violation: 403,
  upstream_error: 502,
  upstream_rate_limited: 503,
  output_invalid: 502,
  internal: 500,
};

/**
 * The HTTP status of an envelope. A retryable `internal` failure (the store or the audit trail cannot be
 * written for now, and nothing ran) is the service being unavailable, not broken: 503, with Retry-After.
 */
export function statusOf(envelope: Envelope): number {
  if (envelope.ok) return 200;
  if (envelope.error.code === "internal" && envelope.error.retryable) return 503;
  return STATUS_OF[envelope.error.code];
}

export function toolsRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const visible = (caller: Parameters<typeof viewContext>[0]) =>
    deps.seam.visibleTools(viewContext(caller, deps.logger));

  app.get("/api/v1/tools", (c) => {
    const parsed = DiscoveryQuery.safeParse(c.req.query());
    if (!parsed.success) return problem(400, "invalid_query", z.prettifyError(parsed.error));
    const { runtime, category, effect, q, limit } = parsed.data;
    const matches = (tool: AnyTool) =>
      (!category || tool.category === category) &&
      (!effect || tool.effect === effect) &&
      (!runtime || runsOnRuntime(tool, runtime));
    let tools = visible(c.get("caller")).filter(matches);
    if (q) {
      const allowed = new Set(tools.map((tool) => tool.name));
      tools = searchIndexFor(deps.registry)
        .search(q, { limit, filter: (document) => allowed.has(document.name) })
        .map((hit) => deps.registry.get(hit.name) as AnyTool);
    }
    return c.json({ revision: deps.registry.revision, tools: tools.slice(0, limit).map(manifestEntry) });
  });

  app.get("/api/v1/tools/:name", (c) => {
    const name = c.req.param("name");
    const tools = visible(c.get("caller"));
    const tool = tools.find((candidate) => candidate.name === name);
    if (!tool) return unknownTool(name, tools);
    return c.json(manifestEntry(tool));
  });

  app.post("/api/v1/tools/:name/invoke", async (c) => {
    if (deps.inflight.closed) {
      return problem(
        503,
        "shutting_down",
        "the server is shutting down; retry against another instance",
        {},
        { "retry-after": "1" },
      );
    }
    const body = await readJsonBody(c, { optional: true, timeoutMs: deps.bodyTimeoutMs });
    if (!body.ok) return body.response;
    const prepared = callContext(c, c.get("caller"), deps.logger, deps.credentials);
    if (!prepared.ok) return prepared.response;
    const envelope = await deps.inflight.track(() =>
      withTraceFromHeaders(c.req.raw.headers, () =>
        deps.seam.call(prepared.context, c.req.param("name"), body.value ?? {}),
      ),
    );
    const status = statusOf(envelope);
    const headers: Record<string, string> = { "x-toolreg-tool-call-id": prepared.context.toolCallId };
    if (!envelope.ok && envelope.error.retryAfterMs !== undefined) {
      headers["retry-after"] = String(Math.ceil(envelope.error.retryAfterMs / 1000));
    }
    return c.json(envelope, status as 200, headers);
  });
}

function unknownTool(name: string, tools: readonly AnyTool[]): Response {
  const nearest = nearestNames(
    name,
    tools.map((tool) => tool.name),
  );
  const hint = nearest.length > 0 ? ` Did you mean ${nearest.join(", ")}?` : "";
  return problem(404, "unknown_tool", `no tool named "${name.slice(0, 100)}" is available to you.${hint}`, {
    nearest,
  });
}
