/** @module `toolreg call NAME --input JSON`: one call through the seam, its envelope printed. */
import { approvalIdOf } from "../../seam/envelope.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { CliState } from "../cli-state.js";
import { formatJson } from "../format.js";

export interface CallCommandOptions {
  input?: string;
  approve?: boolean;
  key?: string;
  wait?: boolean;
}

/** `wiring`: the flags that served this call's tools, so the printed approve command can run it. */
export async function callTool(
  state: CliState,
  name: string,
  options: CallCommandOptions,
  io: CliIo,
  wiring = "",
): Promise<number> {
  const input = parseInput(options.input);
  const context = state.context(options.key === undefined ? {} : { idempotencyKey: options.key });
  const callOptions = { onInProgress: options.wait ? ("wait" as const) : ("fail" as const) };
  let envelope = await state.seam.call(context, name, input, callOptions);
  const parkedId = approvalIdOf(envelope);
  if (parkedId && options.approve) {
    const decided = await state.seam.approve({
      tenantId: context.tenantId,
      approvalId: parkedId,
      by: context.principalId,
      note: "approved at the terminal with call --approve",
    });
    if (!decided.ok) {
      io.stderr(`error: ${decided.message}\n`);
      return 1;
    }
    envelope = await state.seam.resume(context, parkedId, callOptions);
  }
  io.stdout(formatJson(envelope));
  const pendingId = approvalIdOf(envelope);
  if (pendingId) {
    const flags = wiring ? `${wiring} ` : "";
    const asks = state.seam.registry.get(name)?.asksHuman?.checkAnswers !== undefined;
    io.stderr(
      asks
        ? `parked as approval ${pendingId}; answer with: toolreg ${flags}approvals answer ${pendingId} --answer QUESTION-ID=ANSWER …\n`
        : `parked as approval ${pendingId}; approve with: toolreg ${flags}approvals approve ${pendingId}\n`,
    );
  }
  return envelope.ok ? 0 : 1;
}

function parseInput(text: string | undefined): unknown {
  if (text === undefined) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input is not valid JSON: ${(error as Error).message}`);
  }
}
