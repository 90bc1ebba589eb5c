/**
 * @module `toolreg approvals list|approve|deny|retry`: the approval inbox on the terminal. An interrupted
 * call (its run's outcome lost) is listed with what is known of the run, and runs again only on `retry`.
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

function refused(result: DecisionResult, io: CliIo): number {
  if (result.ok) return 0;
  const hint =
    result.reason === "not_served" && result.approval
      ? `; ${whatServes(result.approval.toolName)}: run this command with the flags of the one that parked it`
      : "";
  io.stderr(`error: ${result.message}${hint}\n`);
  return 1;
}
