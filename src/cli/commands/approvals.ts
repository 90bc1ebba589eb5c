/** @module `toolreg approvals list|approve|deny`: the approval inbox on the terminal. */
import type { ApprovalStatus } from "../../stores/types.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { CliState } from "../cli-state.js";
import { ellipsis, formatJson, formatTable } from "../format.js";

const STATUSES: readonly ApprovalStatus[] = [
  "pending",
  "approved",
  "denied",
  "expired",
  "executed",
  "refused",
];

export async function listApprovals(
  state: CliState,
  options: { status?: string; json?: boolean; limit?: string },
  io: CliIo,
): Promise<number> {
  const status = options.status as ApprovalStatus | undefined;
  if (status !== undefined && !STATUSES.includes(status)) {
    throw new UsageError(`--status must be one of ${STATUSES.join(", ")}`);
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
        ellipsis(record.description, 60),
      ]),
    ),
  );
  return 0;
}

/** Records the decision; an approval is then run at once on behalf of whoever asked for it. */
export async function decideApproval(
  state: CliState,
  decision: "approve" | "deny",
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
  const decided = decision === "approve" ? await state.seam.approve(request) : await state.seam.deny(request);
  if (!decided.ok) {
    io.stderr(`error: ${decided.message}\n`);
    return 1;
  }
  if (decision === "deny") {
    io.stdout(`denied approval ${id} (${decided.approval.toolName})\n`);
    return 0;
  }
  const requester = state.context({ principal: decided.approval.requestedBy });
  const envelope = await state.seam.resume(requester, id);
  io.stdout(formatJson(envelope));
  return envelope.ok ? 0 : 1;
}
