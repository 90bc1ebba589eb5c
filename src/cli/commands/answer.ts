/**
 * @module `toolreg answer PROVIDER --message JSON`: a model's message with tool calls, in that provider's
 * shape, run through the seam and answered with the provider's tool-result message(s) — the round trip a
 * host makes every turn, from the terminal.
 */
import { CATALOG_PROVIDERS, type CatalogProvider } from "../../catalog/render-catalog.js";
import { runToolCalls } from "../../catalog/tool-calls/run-tool-calls.js";
import { approvalIdOf } from "../../seam/envelope.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { CliState } from "../cli-state.js";
import { formatJson } from "../format.js";

export async function answerCommand(
  state: CliState,
  provider: string,
  options: { message: string },
  io: CliIo,
): Promise<number> {
  if (!(CATALOG_PROVIDERS as readonly string[]).includes(provider)) {
    throw new UsageError(`provider must be one of ${CATALOG_PROVIDERS.join(", ")}`);
  }
  let message: unknown;
  try {
    message = JSON.parse(options.message);
  } catch (error) {
    throw new UsageError(`--message is not valid JSON: ${(error as Error).message}`);
  }
  const { results, rendered } = await runToolCalls({
    seam: state.seam,
    provider: provider as CatalogProvider,
    message,
    context: (toolCallId) => state.context({ toolCallId }),
  });
  io.stdout(formatJson(rendered));
  for (const { call, envelope } of results) {
    const parked = approvalIdOf(envelope);
    if (parked)
      io.stderr(
        `${call.name} parked as approval ${parked}; approve with: toolreg approvals approve ${parked}\n`,
      );
  }
  return results.every(({ envelope }) => envelope.ok) ? 0 : 1;
}
