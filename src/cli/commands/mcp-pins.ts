/** @module `toolreg mcp pins` and `toolreg mcp accept`: what was accepted of imported tools, and accepting a change. */
import type { PinStore, ToolPin } from "../../ports/pin-store.js";
import type { CliIo } from "../cli-io.js";
import { formatTable } from "../format.js";

/** Hash prefixes shown and accepted: long enough that nobody finds a second definition under one. */
const SHORT_HASH = 12;

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
      ["SERVER", "TOOL", "HASH", "STATUS", "ACCEPTED", "BY"],
      listed.map((pin) => [
        pin.server,
        pin.tool,
        pin.hash.slice(0, SHORT_HASH),
        statusOf(pin),
        new Date(pin.acceptedAt).toISOString(),
        pin.acceptedBy,
      ]),
    ),
  );
  return 0;
}

/**
 * Accepts the change waiting for a tool, named by the hash the person reviewed (`--hash`, at least its
 * first 12 characters): if the upstream offered yet another definition meanwhile, nothing is accepted.
 */
export async function acceptPin(
  pins: PinStore,
  server: string,
  tool: string,
  hash: string | undefined,
  principal: string,
  io: CliIo,
): Promise<number> {
  const offered = (await pins.list(server)).find((pin) => pin.tool === tool)?.offered;
  if (!offered) {
    io.stderr(`error: no change of ${tool} on ${server} is waiting to be accepted (see toolreg mcp pins)\n`);
    return 1;
  }
  const short = offered.hash.slice(0, SHORT_HASH);
  if (hash === undefined) {
    io.stderr(
      `error: ${tool} on ${server} changed to ${short}; review it (toolreg mcp pins ${server} --json), then accept it with --hash ${short}\n`,
    );
    return 2;
  }
  if (hash.length < SHORT_HASH || !offered.hash.startsWith(hash)) {
    io.stderr(
      `error: the change waiting for ${tool} on ${server} is ${short}, not ${hash}; review it again\n`,
    );
    return 1;
  }
  if (!(await pins.accept({ server, tool, hash: offered.hash, by: principal, at: Date.now() }))) {
    io.stderr(`error: ${tool} on ${server} changed again while accepting; review it again\n`);
    return 1;
  }
  io.stdout(
    `accepted ${short} as the definition of ${tool} on ${server}; it is served from the next import\n`,
  );
  return 0;
}

function statusOf(pin: ToolPin): string {
  return pin.offered
    ? `changed to ${pin.offered.hash.slice(0, SHORT_HASH)} ${new Date(pin.offered.seenAt).toISOString()}, waiting for acceptance`
    : "accepted";
}
