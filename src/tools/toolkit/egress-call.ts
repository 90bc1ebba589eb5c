/** @module What a web tool passes the egress client from its call: the signal, the time left, the caller. */
import type { EgressRequestInit } from "../../egress/egress-client.js";
import type { ToolContext } from "../../seam/context.js";

/** Margin left before the seam's deadline, so the egress client's timeout (naming the URL) is what reports. */
const DEADLINE_MARGIN_MS = 50;

export function callOptions(
  context: ToolContext,
): Pick<EgressRequestInit, "signal" | "timeoutMs" | "caller"> {
  const left = context.deadline - Date.now() - DEADLINE_MARGIN_MS;
  return {
    signal: context.signal,
    timeoutMs: Number.isFinite(left) ? Math.max(1, left) : undefined,
    caller: context,
  };
}
