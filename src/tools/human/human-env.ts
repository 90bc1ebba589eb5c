/** @module What the human toolkit runs against: nothing but the seam's approval machinery, which parks its calls. */
import { ToolFailure } from "../../errors/tool-failure.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export const humanTool = toolFor<Record<string, never>>();

/** Why a question tool's call asks for approval: asking a human is the call itself. */
export const ASKING_IS_THE_CALL =
  "the call is a question to a human: it parks until one replies, so the seam's durable approvals carry it (answered once, across restarts)";

/** A question tool runs only from a human's reply; reached any other way, it says so. */
export function notParked(name: string): never {
  throw new ToolFailure("internal", `${name} runs only once a human has replied to it through its approval`);
}

/** When, for a model: ISO 8601 in UTC. */
export const isoTime = (at: number) => new Date(at).toISOString();
