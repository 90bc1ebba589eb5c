/**
 * @module The approval inbox over HTTP. A tenant's operators see and decide its approvals; anyone else sees
 * only what they asked for. Nobody decides their own request unless the deployment allows it. An approved
 * call runs at once, as the principal who asked and with that principal's current grant — a key revoked
 * meanwhile means the call is refused, not run. An interrupted call (its outcome lost) runs again only
 * when an approver retries it, under the same rules. A call that asked questions (ask_questions) is
 * answered with `POST …/answer`, by an approver or by the person who asked, who may also decline it:
 * their own questions are theirs to answer, not a request to approve.
 */
import type { Hono } from "hono";
import { z } from "zod";
import type { Caller } from "../../ports/auth-store.js";
import { APPROVAL_STATUSES, type ApprovalRecord } from "../../ports/stores.js";
import type { AnyTool } from "../../registry/registry.js";
import { createExecutionContext, type ExecutionContext } from "../../seam/context.js";
import type { Envelope } from "../../seam/envelope.js";
import type { DecisionFailure, DecisionResult } from "../../seam/seam.js";
import { withTraceFromHeaders } from "../../telemetry/trace-context.js";
import { newestLiveKey } from "../newest-live-key.js";
import { problem } from "../problem.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export const ApprovalListQuery = z.object({
  status: z.enum(APPROVAL_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export const DecisionBody = z.object({ note: z.string().max(2_000).optional() }).strict();
/** The answers are checked against the call's own questions by the seam; here only their envelope. */
export const AnswerBody = z
  .object({ answers: z.record(z.string(), z.unknown()), note: z.string().max(2_000).optional() })
  .strict();

/** The statuses of a refused decision other than a conflict with its state (409). */
const DECISION_REFUSALS: Partial<Record<DecisionFailure, number>> = { invalid_answers: 422, internal: 500 };

/** The scope that lets a non-operator key decide approvals of its tenant. */
export const DECIDE_SCOPE = "approvals:decide";

/** Who may decide approvals: an operator, or a key with the decide scope. */
export const canDecide = (caller: Caller) => caller.operator || caller.scopes.includes(DECIDE_SCOPE);
/**
 * Whether the caller is the one who asked this tool's questions (ask_questions): theirs to answer or
 * decline, with no approver rights and whatever the deployment says of self-approval. The approvals API
 * and /mcp's elicitation both ask this.
 */
export const answersOwnQuestions = (caller: Caller, askedBy: string, tool: AnyTool | undefined) =>
  askedBy === caller.principalId && tool?.asksHuman?.checkAnswers !== undefined;
const canSee = (caller: Caller, record: ApprovalRecord) =>
  canDecide(caller) || record.requestedBy === caller.principalId;

export function approvalsRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.get("/api/v1/approvals", async (c) => {
    const parsed = ApprovalListQuery.safeParse(c.req.query());
    if (!parsed.success) return problem(400, "invalid_query", z.prettifyError(parsed.error));
    const caller = c.get("caller");
    const records = await deps.stores.approvals.list({
      tenantId: caller.tenantId,
      limit: parsed.data.limit,
      ...(parsed.data.status ? { status: parsed.data.status } : {}),
    });
    return c.json({ approvals: records.filter((record) => canSee(caller, record)) });
  });

  app.get("/api/v1/approvals/:id", async (c) => {
    const caller = c.get("caller");
    const record = await deps.stores.approvals.get({ tenantId: caller.tenantId, id: c.req.param("id") });
    if (!record || !canSee(caller, record)) return notFound(c.req.param("id"));
    return c.json(record);
  });

  for (const decision of ["approve", "deny", "retry", "answer"] as const) {
    app.post(`/api/v1/approvals/:id/${decision}`, async (c) => {
      const caller = c.get("caller");
      const id = c.req.param("id");
      const body = await readJsonBody(c, { optional: decision !== "answer", timeoutMs: deps.bodyTimeoutMs });
      if (!body.ok) return body.response;
      const parsed = (decision === "answer" ? AnswerBody : DecisionBody).safeParse(body.value ?? {});
      if (!parsed.success) return problem(422, "invalid_body", z.prettifyError(parsed.error));
      const record = await deps.stores.approvals.get({ tenantId: caller.tenantId, id });
      if (!record || !canSee(caller, record)) return notFound(id);
      const ownQuestions =
        decision !== "retry" &&
        answersOwnQuestions(caller, record.requestedBy, deps.registry.get(record.toolName));
      if (!canDecide(caller) && !ownQuestions) {
        return problem(
          403,
          "not_an_approver",
          `deciding approvals needs an operator key or the ${DECIDE_SCOPE} scope`,
        );
      }
      if (record.requestedBy === caller.principalId && !deps.allowSelfApproval && !ownQuestions) {
        return problem(403, "self_approval", "nobody decides their own request; ask another approver");
      }
      if (decision !== "deny" && deps.inflight.closed) {
        // An approval decided now could not run here: it stays pending for an instance that can.
        return problem(
          503,
          "shutting_down",
          "the server is shutting down; decide this on another instance",
          {},
          { "retry-after": "1" },
        );
      }
      const request = {
        tenantId: caller.tenantId,
        approvalId: id,
        by: caller.principalId,
        ...(parsed.data.note === undefined ? {} : { note: parsed.data.note }),
      };
      const requester = await requesterContext(deps, record);
      // The approved call runs in the approver's trace: their request is what sets it going.
      let decided: DecisionResult;
      let result: Envelope | undefined;
      if (decision === "retry") {
        ({ decision: decided, envelope: result } = await deps.inflight.track(() =>
          withTraceFromHeaders(c.req.raw.headers, () =>
            deps.seam.retry(request, requester, { onInProgress: "wait" }),
          ),
        ));
      } else {
        decided =
          decision === "answer"
            ? await deps.seam.answer(request, "answers" in parsed.data ? parsed.data.answers : {})
            : decision === "approve"
              ? await deps.seam.approve(request)
              : await deps.seam.deny(request);
        if (decided.ok && decision !== "deny") {
          result = await deps.inflight.track(() =>
            withTraceFromHeaders(c.req.raw.headers, () =>
              deps.seam.resume(requester, id, { onInProgress: "wait" }),
            ),
          );
        }
      }
      if (!decided.ok) {
        const passing = decided.reason === "store_unavailable";
        return problem(
          passing ? 503 : (DECISION_REFUSALS[decided.reason] ?? 409),
          decided.reason,
          decided.message,
          decided.approval ? { approval: decided.approval } : {},
          passing ? { "retry-after": "1" } : {},
        );
      }
      if (result === undefined) return c.json({ approval: decided.approval });
      const settled = await deps.stores.approvals.get({ tenantId: caller.tenantId, id });
      return c.json({ approval: settled ?? decided.approval, result });
    });
  }
}

/**
 * The requester's context now: their newest live key's scopes and mode. Without one the context is
 * disabled, so the seam refuses the resume and records why.
 */
async function requesterContext(deps: ServerDeps, record: ApprovalRecord): Promise<ExecutionContext> {
  const key = await newestLiveKey(deps.auth, record.tenantId, record.requestedBy);
  return createExecutionContext({
    tenantId: record.tenantId,
    principalId: record.requestedBy,
    runId: record.runId,
    toolCallId: record.toolCallId,
    scopes: key?.scopes ?? [],
    mode: key?.mode ?? "disabled",
    logger: deps.logger,
    ...(deps.credentials ? { credentials: deps.credentials } : {}),
  });
}

function notFound(id: string): Response {
  return problem(404, "approval_not_found", `there is no approval "${id.slice(0, 100)}" you may see`);
}
