/**
 * @module LangChain v1 agent middleware that asks the agent's human about the calls toolreg would park,
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
/** Where the calls to ask about are kept, between the node that works them out and the one that asks. */
const ASKED_CALLS = "_toolregAskedCalls";

/** Each approved call by its tool-call id: the tool and the arguments the human approved (canonical JSON). */
const approvedCallsSchema = z.record(z.string(), z.object({ name: z.string(), args: z.string() }));
type ApprovedCalls = z.infer<typeof approvedCallsSchema>;

/**
 * The calls to ask about, tied to the model's message they were worked out for: its id, all its tool
 * calls (canonical JSON of id, name and arguments), and the ids of those the human is to be asked about.
 */
const askedCallsSchema = z.object({
  messageId: z.string(),
  toolCalls: z.string(),
  askedIds: z.array(z.string()),
});
type AskedCalls = z.infer<typeof askedCallsSchema>;

const approvalState = z.object({
  [APPROVED_CALLS]: approvedCallsSchema.optional(),
  [ASKED_CALLS]: askedCallsSchema.optional(),
});

export interface ApprovalMiddlewareSettings {
  /** The decisions the human may make; all three by default (approve, edit, reject). */
  allowedDecisions?: DecisionType[];
  /** Heads each request's description, as humanInTheLoopMiddleware's `descriptionPrefix` does. */
  descriptionPrefix?: string;
}

/**
 * Spread it into `createAgent({ middleware: [...toolregApprovalMiddleware(options)] })` (with a
 * checkpointer, as any interrupt needs) in place of humanInTheLoopMiddleware for toolreg's tools. After
 * each model turn it asks the seam which calls would park; when some would, the run interrupts with one
 * `HITLRequest` for them. Approved, a call runs once, approved in toolreg as `options.approver`; edited,
 * the edited call is what was approved and runs; rejected, it never runs and the model hears the
 * rejection. Each decision stands for its own call. Without an approver it never asks, and a call that
 * needs approval parks in toolreg as before.
 *
 * Two middlewares, in this order: LangGraph re-runs an interrupted node from its start on resume and
 * keeps none of its writes, so the calls asked about are worked out and saved by a node of their own
 * (the second: createAgent runs `afterModel` hooks last to first), and the node that asks reads them
 * back. A resume, in whichever process, applies the decisions to the very calls the human was shown,
 * whatever the policy or the config says by then.
 */
export function toolregApprovalMiddleware(
  options: SeamAdapterOptions,
  settings: ApprovalMiddlewareSettings = {},
) {
  return [askingMiddleware(settings), recordingMiddleware(options)] as const;
}

/** Saves, after each model turn, which of its calls toolreg would park: the ones the human will be asked about. */
function recordingMiddleware(options: SeamAdapterOptions) {
  return createMiddleware({
    name: "ToolregApprovalRecorder",
    stateSchema: approvalState,
    afterModel: async (state) => {
      const last = state.messages.findLast((message) => AIMessage.isInstance(message));
      if (!AIMessage.isInstance(last)) return undefined;
      if (last.id === undefined) {
        // LangGraph's messages reducer gives every message an id; without one, a record could not be tied.
        throw new Error("the model's message has no id to tie the calls asked about to");
      }
      const offered = new Set(adaptedTools(options).map((tool) => tool.name));
      const askedIds: string[] = [];
      for (const call of last.tool_calls ?? []) {
        if (call.id === undefined || !offered.has(call.name)) continue;
        if (await frameworkNeedsApproval(options, call.name, call.args, call.id)) askedIds.push(call.id);
      }
      const asked: AskedCalls = { messageId: last.id, toolCalls: toolCallsOf(last), askedIds };
      return { [ASKED_CALLS]: asked };
    },
  });
}

/** Asks the human about the calls recorded for the model's last message, and keeps each yes in the state. */
function askingMiddleware(settings: ApprovalMiddlewareSettings) {
  const allowedDecisions = settings.allowedDecisions ?? ["approve", "edit", "reject"];
  const prefix = settings.descriptionPrefix ?? "Tool execution requires approval";
  return createMiddleware({
    name: "ToolregApprovalMiddleware",
    stateSchema: approvalState,
    afterModel: {
      canJumpTo: ["model"],
      hook: async (state) => {
        const last = state.messages.findLast((message) => AIMessage.isInstance(message));
        if (!AIMessage.isInstance(last) || !last.tool_calls?.length) return undefined;
        const recorded = state[ASKED_CALLS];
        // A record for another message, or for calls changed since, would put a decision on a call the
        // human was not shown: refuse rather than guess.
        if (recorded === undefined || recorded.messageId !== last.id) {
          throw new Error(
            `the calls to ask about were not recorded for the model's message ${last.id}: spread ` +
              "toolregApprovalMiddleware(...) into the middleware list, its two parts in their order",
          );
        }
        if (recorded.toolCalls !== toolCallsOf(last)) {
          throw new Error(
            `the tool calls of the model's message ${last.id} changed after the calls to ask about were recorded`,
          );
        }
        const asked = last.tool_calls.filter((call): call is AskedCall =>
          recorded.askedIds.includes(call.id ?? ""),
        );
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

/** A message's tool calls as one comparable text: each call's id, tool and arguments, in order. */
function toolCallsOf(message: AIMessage): string {
  return canonicalJson((message.tool_calls ?? []).map(({ id, name, args }) => ({ id, name, args })));
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
  const parsed = approvalState.safeParse(state);
  const approved = parsed.success ? parsed.data[APPROVED_CALLS]?.[call.id] : undefined;
  return approved?.name === call.name && approved.args === canonicalJson(call.args);
}
