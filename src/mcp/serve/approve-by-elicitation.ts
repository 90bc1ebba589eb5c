/**
 * @module A parked call put to the person at the MCP client, where the client can be asked
 * (`elicitation/create`): accept approves it as the caller and runs it, decline denies it, and anything
 * else (cancel, no answer, a client that fails) leaves it pending under its approval id. A call that asks
 * questions (ask_questions) is put as a form of its questions, and accepting answers them.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { ExecutionContext } from "../../seam/context.js";
import { describeCall } from "../../seam/describe-call.js";
import { type Envelope, failure } from "../../seam/envelope.js";
import type { Seam } from "../../seam/seam.js";
import { type AskedQuestion, answersFromForm, questionsForm } from "./questions-form.js";

/** How long a person has to answer; the client's own timeout on the `tools/call` may be shorter. */
export const APPROVAL_ELICITATION_TIMEOUT_MS = 10 * 60_000;

export interface ParkedCall {
  name: string;
  input: unknown;
  approvalId: string;
  /** The parked envelope, returned as it is when nobody decides. */
  envelope: Envelope;
}

/** Whether the client said, at `initialize`, that it can show its user a form. */
export function canElicit(server: Server): boolean {
  return server.getClientCapabilities()?.elicitation?.form !== undefined;
}

/** Asks the client's user about a parked call, within the `tools/call` request it was parked by. */
export async function approveByElicitation(
  server: Server,
  seam: Seam,
  context: ExecutionContext,
  parked: ParkedCall,
  request: { requestId: RequestId; signal: AbortSignal },
): Promise<Envelope> {
  const { name, input, approvalId } = parked;
  const tool = seam.registry.get(name);
  const call = tool ? describeCall(tool, input) : name;
  const questions = tool?.asksHuman?.checkAnswers ? questionsOf(input) : undefined;
  try {
    const answer = await server.elicitInput(
      questions
        ? {
            mode: "form",
            message: `${contextOf(input)}Your agent asks you ${questions.length === 1 ? "a question" : `${questions.length} questions`}. Accept sends your answers, decline tells it you will not answer. (toolreg approval ${approvalId})`,
            requestedSchema: questionsForm(questions),
          }
        : {
            mode: "form",
            message: `${call}\n\nApprove this call? Accept runs it now, decline refuses it. (toolreg approval ${approvalId})`,
            requestedSchema: {
              type: "object",
              properties: {
                note: { type: "string", title: "Note", description: "Kept with the decision (optional)" },
              },
            },
          },
      {
        relatedRequestId: request.requestId,
        signal: request.signal,
        timeout: APPROVAL_ELICITATION_TIMEOUT_MS,
      },
    );
    if (answer.action === "cancel") return parked.envelope;
    // The note field is the plain approval form's; in a questions form, a field named note is a question's.
    const written = questions ? undefined : answer.content?.note;
    const note = typeof written === "string" ? written : "";
    const decision = {
      tenantId: context.tenantId,
      approvalId,
      by: context.principalId,
      ...(note ? { note } : {}),
    };
    if (answer.action === "accept") {
      // Decided meanwhile by someone else (the console): resume says what became of it either way.
      if (questions) {
        const answered = await seam.answer(decision, answersFromForm(questions, answer.content));
        // Answers the form let through but the questions refuse: still open, in the inbox.
        if (!answered.ok && answered.reason === "invalid_answers") return parked.envelope;
        // The tool failed checking them: still open, and the model is told why nothing came back.
        if (!answered.ok && answered.reason === "internal") return failure("internal", answered.message);
      } else {
        await seam.approve(decision);
      }
      return await seam.resume(context, approvalId);
    }
    const denied = await seam.deny(decision);
    // A question to a person says itself that it was declined, as a result the model acts on.
    if (!denied.ok || tool?.asksHuman) return await seam.resume(context, approvalId);
    return failure(
      "approval_denied",
      `${name} was declined by ${context.principalId}; approval ${approvalId} is denied and the call did not run`,
    );
  } catch (error) {
    context.logger.warn({ err: error, approvalId, tool: name }, "no decision from the client; left pending");
    return parked.envelope;
  }
}

/** The questions of a parked ask_questions call, as the seam validated them before parking. */
function questionsOf(input: unknown): AskedQuestion[] | undefined {
  const questions = (input as { questions?: unknown } | null)?.questions;
  return Array.isArray(questions) ? (questions as AskedQuestion[]) : undefined;
}

function contextOf(input: unknown): string {
  const context = (input as { context?: unknown } | null)?.context;
  return typeof context === "string" ? `${context}\n\n` : "";
}
