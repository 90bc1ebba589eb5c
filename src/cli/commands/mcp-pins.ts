/** @module `toolreg mcp pins` and `toolreg mcp accept`: what was accepted of imported tools, and accepting a change. */
import type { PinStore, ToolPin } from "../../mcp/import/pin-store.js";
import type { CliIo } from "../cli-io.js";
import { formatTable } from "../format.js";

export async function listPins(
  pins: PinStore,
  server: string | undefined,
  options: { json?: boolean },
  io: CliIo,
): Promise<number> {
  const listed = await pins.list(server);
  if (options.json) {
    io.stdout(`${JSON.stringify(listed, null, 2)}\n`);
    return 0;
  }
  if (listed.length === 0) {
    io.stdout(
      server === undefined ? "no imported MCP tools are pinned\n" : `nothing of ${server} is pinned\n`,
    );
    return 0;
  }
  io.stdout(
    formatTable(
      ["SERVER", "TOOL", "STATUS", "ACCEPTED", "BY"],
      listed.map((pin) => [
        pin.server,
        pin.tool,
        statusOf(pin),
        new Date(pin.acceptedAt).toISOString(),
        pin.acceptedBy,
      ]),
    ),
  );
  return 0;
}

export async function acceptPin(
  pins: PinStore,
  server: string,
  tool: string,
  principal: string,
  io: CliIo,
): Promise<number> {
  const accepted = await pins.accept({ server, tool, by: principal, at: Date.now() });
  if (!accepted) {
    io.stderr(`error: no change of ${tool} on ${server} is waiting to be accepted (see toolreg mcp pins)\n`);
    return 1;
  }
  io.stdout(`accepted the new definition of ${tool} on ${server}; it is served from the next import\n`);
  return 0;
}

function statusOf(pin: ToolPin): string {
  return pin.offered
    ? `changed ${new Date(pin.offered.seenAt).toISOString()}, waiting for acceptance`
    : "accepted";
}
