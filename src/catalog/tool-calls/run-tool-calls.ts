/** @module `runToolCalls`: the round trip from a model's tool calls, through the seam, to its tool results. */
import type { ExecutionContext } from "../../seam/context.js";
import { type Envelope, failure } from "../../seam/envelope.js";
import type { Seam } from "../../seam/seam.js";
import { describeThrown } from "../../seam/to-envelope.js";
import type { CatalogProvider } from "../render-catalog.js";
import { parseToolCalls } from "./parse-tool-calls.js";
import { renderToolResults, type ToolResultFormats } from "./render-tool-results.js";
import type { ParsedToolCall, ToolCallResult } from "./types.js";

/** What `runToolCalls` needs: the seam, the provider, the message and the host's context builder. */
export interface RunToolCallsOptions<P extends CatalogProvider> {
  seam: Seam;
  provider: P;
  /** The model's message as the provider returned it (see `parseToolCalls`); it may hold anything. */
  message: unknown;
  /**
   * Builds the host's context for one call from its id. Calls without a provider id (MCP always, Gemini
   * often) get one generated from position and content, equal for an identical call in the same place;
   * give each turn its own run id, or build the id from your own (an MCP request id), where that matters.
   */
  context: (toolCallId: string) => ExecutionContext;
}

/** The calls' outcomes, and their rendering for the provider. */
export interface RunToolCallsResult<P extends CatalogProvider> {
  /** Every call with its envelope, in the message's order. */
  results: ToolCallResult[];
  /** What to send back to the provider (see `ToolResultFormats`). */
  rendered: ToolResultFormats[P];
}

/**
 * Parses the message's tool calls, runs each readable one through the seam one after another in order
 * (side effects never race), answers refused ones with their own envelope, and renders every result.
 * Never throws, whatever the message holds.
 */
export async function runToolCalls<P extends CatalogProvider>(
  options: RunToolCallsOptions<P>,
): Promise<RunToolCallsResult<P>> {
  const results: ToolCallResult[] = [];
  for (const call of parseToolCalls(options.provider, options.message)) {
    const envelope = call.ok ? await callSeam(options, call) : call.envelope;
    results.push({ call, envelope });
  }
  return { results, rendered: renderToolResults(options.provider, results) };
}

async function callSeam(
  options: RunToolCallsOptions<CatalogProvider>,
  call: ParsedToolCall & { ok: true },
): Promise<Envelope> {
  let context: ExecutionContext;
  try {
    context = options.context(call.id);
  } catch (error) {
    return failure(
      "internal",
      `toolreg could not prepare the call to ${call.name.slice(0, 100)}: ${describeThrown(error)}`,
    );
  }
  return options.seam.call(context, call.name, call.input);
}
