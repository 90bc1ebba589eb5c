/** @module The conversation as readable steps: what the user, the model, the tools and the human did. */
import type { ModelMessage, ToolResultPart } from "ai";

export type TranscriptStep =
  | { kind: "user"; text: string }
  | { kind: "model-text"; text: string }
  | { kind: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | { kind: "approval-request"; approvalId: string; toolCallId: string }
  | { kind: "approval-response"; approvalId: string; approved: boolean }
  | { kind: "tool-result"; toolCallId: string; toolName: string; output: string };

/** What the model read from a tool, as one string. */
function outputText(output: ToolResultPart["output"]): string {
  switch (output.type) {
    case "text":
    case "error-text":
      return output.value;
    case "execution-denied":
      return `(not run: ${output.reason ?? "denied"})`;
    default:
      return JSON.stringify(output.value);
  }
}

function stepsOf(message: ModelMessage): TranscriptStep[] {
  if (message.role === "system") return [];
  if (typeof message.content === "string") {
    return [{ kind: message.role === "user" ? "user" : "model-text", text: message.content }];
  }
  const steps: TranscriptStep[] = [];
  for (const part of message.content) {
    if (part.type === "text") {
      steps.push({ kind: message.role === "user" ? "user" : "model-text", text: part.text });
    } else if (part.type === "tool-call") {
      const { toolCallId, toolName, input } = part;
      steps.push({ kind: "tool-call", toolCallId, toolName, input });
    } else if (part.type === "tool-approval-request") {
      steps.push({ kind: "approval-request", approvalId: part.approvalId, toolCallId: part.toolCallId });
    } else if (part.type === "tool-approval-response") {
      steps.push({ kind: "approval-response", approvalId: part.approvalId, approved: part.approved });
    } else if (part.type === "tool-result") {
      const { toolCallId, toolName, output } = part;
      steps.push({ kind: "tool-result", toolCallId, toolName, output: outputText(output) });
    }
  }
  return steps;
}

/** The steps of a conversation, in order. */
export function transcriptOf(messages: readonly ModelMessage[]): TranscriptStep[] {
  return messages.flatMap(stepsOf);
}

/** A step as "who  what", continuation lines indented under "what". */
function line(who: string, what: string): string {
  return `${who.padEnd(12)} ${what.replaceAll("\n", `\n${" ".repeat(13)}`)}`;
}

/** One line (or an indented block) per step, for a person to read. */
export function formatStep(step: TranscriptStep): string {
  switch (step.kind) {
    case "user":
      return line("user", step.text);
    case "model-text":
      return line("model", step.text);
    case "tool-call":
      return line("model", `calls ${step.toolName} ${JSON.stringify(step.input)} as ${step.toolCallId}`);
    case "approval-request":
      return line("ai sdk", `stops: ${step.toolCallId} needs a human's approval`);
    case "approval-response":
      return line("human", step.approved ? "approves" : "denies");
    case "tool-result":
      return line(step.toolName, step.output);
  }
}
