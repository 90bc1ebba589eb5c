/**
 * @module One `tools/call` run as an MCP task, after its request was answered with the task: the call
 * through the seam; if it parks, a wait for the approval's decision wherever it is taken, then the
 * seam's resume, which runs an approved call once (or waits for the run an approver started) and answers
 * a denied, expired or interrupted one with its failure; then the result, kept for `tasks/result`.
 */
import type { ApprovalStore } from "../../ports/stores.js";
import type { ExecutionContext } from "../../seam/context.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";
import type { Seam } from "../../seam/seam.js";
import { type ApprovalChanges, approvalDecided } from "./call-task-decision.js";
import type { McpCallTasks } from "./call-tasks.js";
import { callToolResult } from "./call-tool-result.js";

/** What a host gives for calls to run as tasks: where the tasks live, and where approvals are decided. */
export interface McpTaskOptions {
  tasks: McpCallTasks;
  /** Whose tasks these are: only the same owner reads them (an API key's id; the operator on stdio). */
  owner: string;
  /** The approvals, read while a task waits for one: the truth, whoever decides it and wherever. */
  approvals: Pick<ApprovalStore, "get">;
  /** Approval events the host hears (its event hub), so a waiting task looks at once rather than at its next poll. */
  approvalChanges?: ApprovalChanges;
  /** How often a waiting task reads its approval; 5 seconds unless given. */
  decisionPollMs?: number;
}

export interface CallTaskRun {
  taskId: string;
  seam: Seam;
  /** The call's context, its signal the task's own (`McpCallTasks.signalOf`). */
  context: ExecutionContext;
  name: string;
  input: unknown;
  /** Runs each step that may run the tool, so a host counts it in flight (not the wait for a person). */
  track<T>(step: () => Promise<T>): Promise<T>;
}

/** Runs the task to its end; never throws (the seam answers every failure as an envelope). */
export async function runCallTask(options: McpTaskOptions, run: CallTaskRun): Promise<void> {
  const { tasks } = options;
  const { taskId, seam, context, name } = run;
  const signal = tasks.signalOf(taskId);
  const pollMs = options.decisionPollMs ?? 5_000;
  let envelope: Envelope = await run.track(() => seam.call(context, name, run.input));
  let previous: string | undefined;
  // A resumed call parks again when its tool changed since it was approved: a new approval, a new wait.
  for (
    let approvalId = approvalIdOf(envelope);
    approvalId !== undefined;
    approvalId = approvalIdOf(envelope)
  ) {
    const parked = approvalId;
    // Still pending by the seam's reckoning (its clock may differ from this one's): look again later, not at once.
    if (parked === previous) await pause(pollMs, signal);
    previous = parked;
    // Still `working`, not `input_required`: the spec keeps that for a receiver with requests queued for the
    // requestor on tasks/result; this decision is a person's, taken elsewhere, and asks the client nothing.
    tasks.report(
      taskId,
      `parked as approval ${parked}: waiting for a person to decide it (console, API, toolreg approvals); ${name} has not run`,
    );
    tasks.onCancel(taskId, () => withdraw(seam, context, parked));
    const decided = await approvalDecided({
      approvals: options.approvals,
      tenantId: context.tenantId,
      approvalId: parked,
      signal,
      pollMs,
      ...(options.approvalChanges ? { changes: options.approvalChanges } : {}),
    });
    tasks.onCancel(taskId, undefined);
    if (!decided || signal.aborted) return;
    tasks.report(taskId, `approval ${parked} was decided; ${name} is being resumed`);
    envelope = await run.track(() => seam.resume(context, parked, { onInProgress: "wait" }));
  }
  tasks.finish(taskId, callToolResult(context.toolCallId, name, envelope));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * A cancelled task's approval is denied in its requester's name, so the call never runs: withdrawing
 * one's own request needs no approver, unlike approving it. One already approved runs all the same.
 */
async function withdraw(seam: Seam, context: ExecutionContext, approvalId: string): Promise<string> {
  const denied = await seam.deny({
    tenantId: context.tenantId,
    approvalId,
    by: context.principalId,
    note: "withdrawn by its requester (MCP tasks/cancel)",
  });
  if (denied.ok) return `cancelled: approval ${approvalId} is denied and the call will not run`;
  if (denied.reason === "store_unavailable") throw new Error(`${denied.message}; the task was not cancelled`);
  return `cancelled, but approval ${approvalId} could not be withdrawn (${denied.message}); its outcome is on the approval`;
}
