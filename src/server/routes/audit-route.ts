/** @module `GET /api/v1/audit`: the tenant's audit trail, newest first, a page at a time. */
import type { Hono } from "hono";
import { z } from "zod";
import type { AuditCursor } from "../../ports/stores.js";
import { problem } from "../problem.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

/** The scope that lets a non-operator key read its tenant's audit trail. */
export const AUDIT_SCOPE = "audit:read";

export const AuditQuery = z.object({
  tool: z.string().min(1).max(64).optional(),
  since: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** The `next` cursor of the previous page. */
  before: z.string().max(300).optional(),
});

export function auditRoute(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.get("/api/v1/audit", async (c) => {
    const caller = c.get("caller");
    if (!caller.operator && !caller.scopes.includes(AUDIT_SCOPE)) {
      return problem(
        403,
        "not_an_auditor",
        `reading the audit trail needs an operator key or the ${AUDIT_SCOPE} scope`,
      );
    }
    const parsed = AuditQuery.safeParse(c.req.query());
    if (!parsed.success) return problem(400, "invalid_query", z.prettifyError(parsed.error));
    const { tool, since, limit, before } = parsed.data;
    const cursor = before === undefined ? undefined : decodeCursor(before);
    if (before !== undefined && !cursor)
      return problem(400, "invalid_cursor", "before must be a `next` value from a previous page");
    const events = await deps.stores.audit.list({
      tenantId: caller.tenantId,
      limit,
      ...(tool ? { tool } : {}),
      ...(since === undefined ? {} : { since }),
      ...(cursor ? { before: cursor } : {}),
    });
    const last = events.at(-1);
    return c.json({ events, next: events.length === limit && last ? encodeCursor(last) : null });
  });
}

function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString("base64url");
}

function decodeCursor(text: string): AuditCursor | undefined {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as unknown[];
    return typeof at === "number" && typeof id === "string" ? { at, id } : undefined;
  } catch {
    return undefined;
  }
}
