/** @module `toolreg audit`: the newest audit events of the tenant. */
import { type CliIo, UsageError } from "../cli-io.js";
import type { CliState } from "../cli-state.js";
import { ellipsis, formatJson, formatTable } from "../format.js";

export async function auditCommand(
  state: CliState,
  options: { limit?: string; tool?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isInteger(limit) || limit <= 0) throw new UsageError("--limit must be a positive whole number");
  const events = await state.stores.audit.list({
    tenantId: state.context().tenantId,
    limit,
    ...(options.tool === undefined ? {} : { tool: options.tool }),
  });
  if (options.json) {
    io.stdout(formatJson(events));
    return 0;
  }
  io.stdout(
    formatTable(
      ["AT", "KIND", "ACTOR", "TOOL", "OUTCOME", "MESSAGE"],
      events.map((event) => [
        new Date(event.at).toISOString(),
        event.kind,
        event.actor,
        event.tool,
        event.outcome,
        ellipsis(event.message ?? "", 60),
      ]),
    ),
  );
  return 0;
}
