/**
 * @module `toolreg approvals list|approve|deny|retry|answer`: the approval inbox on the terminal. An
 * interrupted call (its run's outcome lost) is listed with what is known of the run, and runs again only
 * on `retry`. A call that asked questions (ask_questions) is answered with `answer`.
 */

import { APPROVAL_STATUSES, type ApprovalRecord, type ApprovalStatus } from "../../ports/stores.js";
import type { DecisionResult } from "../../seam/seam.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { CliState } from "../cli-state.js";
import { ellipsis, formatJson, formatTable } from "../format.js";
import { whatServes } from "../wiring-flags.js";

export async function listApprovals(
  state: CliState,
  options: { status?: string; json?: boolean; limit?: string },
  io: CliIo,
): Promise<number> {
  const status = options.status as ApprovalStatus | undefined;
  if (status !== undefined && !APPROVAL_STATUSES.includes(status)) {
    throw new UsageError(`--status must be one of ${APPROVAL_STATUSES.join(", ")}`);
  }
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError("--limit must be a positive whole number");
  const tenantId = state.context().tenantId;
  const records = await state.stores.approvals.list({ tenantId, limit, ...(status ? { status } : {}) });
  if (options.json) {
    io.stdout(formatJson(records));
    return 0;
  }
  io.stdout(
    formatTable(
      ["ID", "STATUS", "TOOL", "REQUESTED BY", "CREATED", "DESCRIPTION"],
      records.map((record) => [
        record.id,
        record.status,
        record.toolName,
        record.requestedBy,
        new Date(record.createdAt).toISOString(),
        ellipsis(record.status === "interrupted" ? interruptionOf(record) : record.description, 60),
      ]),
    ),
  );
  return 0;
}

/** What an operator reads before retrying, the run's place first (the table cuts the rest; --json has it all). */
function interruptionOf(record: ApprovalRecord): string {
  const known = record.interruption;
  if (!known) return "outcome unknown";
  const at = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : "?");
  const how = known.reason === "shutdown" ? "stopped at shutdown" : "process lost";
  return `outcome unknown: ${how} on ${known.holder || "?"}; last heartbeat ${at(known.lastHeartbeat)}`;
}

/** Records the decision; an approval is then run at once on behalf of whoever asked for it. */
export async function decideApproval(
  state: CliState,
  decision: "approve" | "deny" | "retry",
  id: string,
  options: { note?: string },
  io: CliIo,
): Promise<number> {
  const operator = state.context();
  const request = {
    tenantId: operator.tenantId,
    approvalId: id,
    by: operator.principalId,
    ...(options.note === undefined ? {} : { note: options.note }),
  };
  if (decision === "retry") {
    const record = await state.stores.approvals.get({ tenantId: operator.tenantId, id });
    const requester = state.context({ principal: record?.requestedBy ?? operator.principalId });
    const { decision: retried, envelope } = await state.seam.retry(request, requester);
    if (!retried.ok || !envelope) return refused(retried, io);
    io.stdout(formatJson(envelope));
    return envelope.ok ? 0 : 1;
  }
  const decided = decision === "approve" ? await state.seam.approve(request) : await state.seam.deny(request);
  if (!decided.ok) return refused(decided, io);
  if (decision === "deny") {
    io.stdout(`denied approval ${id} (${decided.approval.toolName})\n`);
    return 0;
  }
  const requester = state.context({ principal: decided.approval.requestedBy });
  const envelope = await state.seam.resume(requester, id);
  io.stdout(formatJson(envelope));
  return envelope.ok ? 0 : 1;
}

/**
 * Answers a parked call's questions and runs it at once for whoever asked. `--answer id=value` (repeated
 * for several choices of one question): a value that names a choice picks it, any other is written;
 * `--answers-json` gives the whole `{ id: answer }` object instead.
 */
export async function answerApproval(
  state: CliState,
  id: string,
  options: { answer?: string[]; answersJson?: string; note?: string },
  io: CliIo,
): Promise<number> {
  const answers = answersOf(options.answer ?? [], options.answersJson);
  const operator = state.context();
  const decided = await state.seam.answer(
    {
      tenantId: operator.tenantId,
      approvalId: id,
      by: operator.principalId,
      ...(options.note === undefined ? {} : { note: options.note }),
    },
    answers,
  );
  if (!decided.ok) return refused(decided, io);
  const envelope = await state.seam.resume(state.context({ principal: decided.approval.requestedBy }), id);
  io.stdout(formatJson(envelope));
  return envelope.ok ? 0 : 1;
}

function answersOf(pairs: readonly string[], json: string | undefined): Record<string, unknown> {
  if (json !== undefined) {
    if (pairs.length > 0) throw new UsageError("give --answer or --answers-json, not both");
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`--answers-json is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError('--answers-json is an object of question id → answer, e.g. {"q1":"yes"}');
    }
    return parsed as Record<string, unknown>;
  }
  const given = new Map<string, string[]>();
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--answer ${pair.slice(0, 40)}: write it as question-id=answer`);
    const values = given.get(pair.slice(0, at)) ?? [];
    values.push(pair.slice(at + 1));
    given.set(pair.slice(0, at), values);
  }
  return Object.fromEntries(
    [...given].map(([question, values]) => [question, values.length === 1 ? values[0] : values]),
  );
}

function refused(result: DecisionResult, io: CliIo): number {
  if (result.ok) return 0;
  const hint =
    result.reason === "not_served" && result.approval
      ? `; ${whatServes(result.approval.toolName)}: run this command with the flags of the one that parked it`
      : "";
  io.stderr(`error: ${result.message}${hint}\n`);
  return 1;
}
