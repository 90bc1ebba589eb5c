/**
 * @module A LangChain v1 agent middleware that asks the agent's human about the calls toolreg would park,
 * with humanInTheLoopMiddleware's own request and answer, and keeps the yes in the agent's state, where
 * the tool reads it back as the toolreg approval.
 *
 * Why a middleware of our own rather than humanInTheLoopMiddleware itself: an approve leaves no trace in
 * the state it saves (the tool call runs unchanged, exactly as one it never asked about), so a tool cannot
 * tell a human's yes from no question at all. This one asks the same question (`HITLRequest`, answered by
 * `Command({ resume: HITLResponse })`, so an app's approval screen works unchanged) and records each yes in
 * a private state key: LangGraph saves it in the checkpoint, so a run interrupted in one process and
 * resumed in another finds it, and a private key is no part of the agent's input, so no caller can set it.
 */
import { AIMessage, type ToolCall, ToolMessage } from "@langchain/core/messages";
import { interrupt } from "@langchain/langgraph";
import {
  createMiddleware,
  type Decision,
  type DecisionType,
  type HITLRequest,
  type HITLResponse,
} from "langchain";
import { z } from "zod";
import { canonicalJson } from "../../declaration/tool-hash.js";
import { adaptedTools, frameworkNeedsApproval, type SeamAdapterOptions } from "../seam-bridge.js";

/** Where the yes is kept: the leading underscore makes the key private to the agent's graph. */
const APPROVED_CALLS = "_toolregApprovedCalls";

/** Each approved call by its tool-call id: the tool and the arguments the human approved (canonical JSON). */
const approvedCallsSchema = z.record(z.string(), z.object({ name: z.string(), args: z.string() }));
type ApprovedCalls = z.infer<typeof approvedCallsSchema>;

const stateWithApprovals = z.object({ [APPROVED_CALLS]: approvedCallsSchema.optional() });

export interface ApprovalMiddlewareSettings {
  /** The decisions the human may make; all three by default (approve, edit, reject). */
  allowedDecisions?: DecisionType[];
  /** Heads each request's description, as humanInTheLoopMiddleware's `descriptionPrefix` does. */
  descriptionPrefix?: string;
}

/**
 * Put it in `createAgent({ middleware: [...] })` (with a checkpointer, as any interrupt needs) in place of
 * humanInTheLoopMiddleware for toolreg's tools. After each model turn it asks the seam which calls would
 * park; when some would, the run interrupts with one `HITLRequest` for them. Approved, a call runs once,
 * approved in toolreg as `options.approver`; edited, the edited call is what was approved and runs;
 * rejected, it never runs and the model hears the rejection. Each decision stands for its own call. Without
 * an approver it never asks, and a call that needs approval parks in toolreg as before.
 */
export function toolregApprovalMiddleware(
  options: SeamAdapterOptions,
  settings: ApprovalMiddlewareSettings = {},
) {
  const allowedDecisions = settings.allowedDecisions ?? ["approve", "edit", "reject"];
  const prefix = settings.descriptionPrefix ?? "Tool execution requires approval";
  return createMiddleware({
    name: "ToolregApprovalMiddleware",
    stateSchema: stateWithApprovals,
    afterModel: {
      canJumpTo: ["model"],
      hook: async (state) => {
        const last = state.messages.findLast((message) => AIMessage.isInstance(message));
        if (!AIMessage.isInstance(last) || !last.tool_calls?.length) return undefined;
        const offered = new Set(adaptedTools(options).map((tool) => tool.name));
        const asked: AskedCall[] = [];
        for (const call of last.tool_calls) {
          if (call.id === undefined || !offered.has(call.name)) continue;
          if (await frameworkNeedsApproval(options, call.name, call.args, call.id))
            asked.push(call as AskedCall);
        }
        // Every model turn replaces the record, so a yes never outlives the turn it was given for.
        if (asked.length === 0) return { [APPROVED_CALLS]: {} };

        const request: HITLRequest = {
          actionRequests: asked.map((call) => ({
            name: call.name,
            args: call.args,
            description: `${prefix}\n\nTool: ${call.name}\nArgs: ${JSON.stringify(call.args, null, 2)}`,
          })),
          reviewConfigs: asked.map((call) => ({ actionName: call.name, allowedDecisions })),
        };
        const { decisions } = interrupt<HITLRequest, HITLResponse>(request) ?? {};
        if (!Array.isArray(decisions) || decisions.length !== asked.length) {
          throw new Error(`expected ${asked.length} decision(s), one per action request, in the same order`);
        }

        const approved: ApprovedCalls = {};
        const rejections: ToolMessage[] = [];
        const revised = last.tool_calls.map((call) => {
          const index = asked.indexOf(call as AskedCall);
          if (index < 0) return call;
          const outcome = decide(call as AskedCall, decisions[index], allowedDecisions);
          if ("rejection" in outcome) {
            rejections.push(outcome.rejection);
            return call;
          }
          approved[outcome.call.id] = { name: outcome.call.name, args: canonicalJson(outcome.call.args) };
          return outcome.call;
        });

        // As humanInTheLoopMiddleware does: the revised AI message replaces the old one (same id), and a
        // rejection answers its call, so the tool node skips it; with every call answered, back to the model.
        last.tool_calls = revised;
        const allRejected = rejections.length === revised.length;
        return {
          messages: [last, ...rejections],
          [APPROVED_CALLS]: approved,
          ...(allRejected ? { jumpTo: "model" as const } : {}),
        };
      },
    },
  });
}

/** A tool call the human was asked about: one with an id. */
type AskedCall = ToolCall & { id: string };

/** One decision applied to its call: the call to run (as approved or edited), or the answer that rejects it. */
function decide(
  call: AskedCall,
  decision: Decision | undefined,
  allowedDecisions: readonly DecisionType[],
): { call: AskedCall } | { rejection: ToolMessage } {
  if (decision === undefined || !allowedDecisions.includes(decision.type)) {
    throw new Error(
      `decision ${JSON.stringify(decision)} for ${call.name} is not one of ${allowedDecisions}`,
    );
  }
  if (decision.type === "approve") return { call };
  if (decision.type === "reject") {
    return {
      rejection: new ToolMessage({
        content: decision.message ?? `User rejected the tool call for \`${call.name}\` with id ${call.id}`,
        name: call.name,
        tool_call_id: call.id,
        status: "error",
      }),
    };
  }
  const { name, args } = decision.editedAction ?? {};
  if (typeof name !== "string" || typeof args !== "object" || args === null) {
    throw new Error(`the edited action for ${call.name} needs a name and an args object`);
  }
  return { call: { type: "tool_call", id: call.id, name, args } };
}

/**
 * Whether the human approved this very call: its id, tool and arguments, read from the agent state the
 * tool runs with. False for a call never asked about, and for one whose arguments changed since.
 */
export function approvedInState(state: unknown, call: { id: string; name: string; args: unknown }): boolean {
  const parsed = stateWithApprovals.safeParse(state);
  const approved = parsed.success ? parsed.data[APPROVED_CALLS]?.[call.id] : undefined;
  return approved?.name === call.name && approved.args === canonicalJson(call.args);
}
