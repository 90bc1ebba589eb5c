/**
 * @module `GET /api/v1/schedules` and `DELETE /api/v1/schedules/{id}`: the caller's own schedules (what
 * schedule_create made as them), listed and cancelled; an operator's key reaches every schedule of its tenant.
 */
import type { Hono } from "hono";
import { z } from "zod";
import type { Caller } from "../../ports/auth-store.js";
import { SCHEDULE_LIMITS, SCHEDULE_STATUSES, type ScheduleScope } from "../../ports/schedule-store.js";
import { problem } from "../problem.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export const ScheduleListQuery = z.object({ status: z.enum(SCHEDULE_STATUSES).optional() });

const scopeOf = (caller: Caller): ScheduleScope =>
  caller.operator
    ? { tenantId: caller.tenantId }
    : { tenantId: caller.tenantId, principalId: caller.principalId };

export function schedulesRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const { schedules } = deps;
  if (!schedules) return;
  app.get("/api/v1/schedules", async (c) => {
    const parsed = ScheduleListQuery.safeParse(c.req.query());
    if (!parsed.success) return problem(400, "invalid_query", z.prettifyError(parsed.error));
    const listed = await schedules.list(scopeOf(c.get("caller")), { status: parsed.data.status });
    // A full page may not be all there is: `truncated` says so, and narrowing by status finds the rest.
    return c.json({ schedules: listed, truncated: listed.length >= SCHEDULE_LIMITS.listed });
  });
  app.delete("/api/v1/schedules/:id", async (c) => {
    const scope = scopeOf(c.get("caller"));
    const id = c.req.param("id");
    const schedule = await schedules.cancel(scope, id);
    if (!schedule)
      return problem(404, "schedule_not_found", `there is no schedule "${id.slice(0, 100)}" you may cancel`);
    return c.json({ schedule });
  });
}
