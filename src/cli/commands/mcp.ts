/**
 * @module `toolreg mcp`: the served tools as an MCP server on stdin and stdout, until stdin closes or a
 * SIGTERM or SIGINT asks it to stop (a second one forces the stop).
 */
import type { McpImport } from "../../mcp/import/mcp-server.js";
import { syncRegistry } from "../../mcp/import/sync-registry.js";
import { McpCallTasks } from "../../mcp/serve/call-tasks.js";
import { createMcpServer } from "../../mcp/serve/create-mcp-server.js";
import { keptOutputResources } from "../../mcp/serve/resources/kept-output-resources.js";
import type { McpResourceSource } from "../../mcp/serve/resources/resource-source.js";
import { serveStdio } from "../../mcp/serve/serve-stdio.js";
import type { CliState } from "../cli-state.js";
import { listenForStop } from "../stop-signals.js";

/**
 * Every call is the operator's (--tenant, --principal, --mode), with a fresh tool-call id. Stdout carries
 * the protocol and nothing else: the CLI's logger already writes to stderr. Tools of imported servers
 * follow their upstream, and the client hears of each change.
 */
export async function mcpCommand(
  state: CliState,
  imports: readonly McpImport[] = [],
  resources: readonly McpResourceSource[] = [],
): Promise<number> {
  const following = imports.map((imported) => syncRegistry(state.registry, imported));
  // A call asked for as a task waits for its approval, decided by `toolreg approvals` or a server on this
  // store, for as long as this process serves.
  const tasks = new McpCallTasks();
  const server = createMcpServer({
    seam: state.seam,
    registry: state.registry,
    // A client's cancellation reaches the tool through the request's signal: a read stops, a call that
    // changes data runs to its end and its outcome is stored.
    context: ({ toolCallId, signal, idempotencyKey }) =>
      state.context({ toolCallId, signal, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) }),
    // Outputs kept by this or an earlier command, then what comes with the tools (generated files, a catalogue's own).
    resources: [keptOutputResources(state.stores.outputs, state.seam), ...resources],
    tasks: { tasks, owner: "operator", approvals: state.stores.approvals },
    // The operator's tenant's skills, as prompts.
    skills: state.stores.skills,
  });
  const stop = listenForStop();
  try {
    const served = serveStdio(server, process.stdin, process.stdout, stop.requested);
    if ((await Promise.race([served, stop.requested])) !== undefined) {
      // Asked to stop: no more is read; calls that change data get the drain, and what outlives it is
      // recorded interrupted before the stores close; the answers then go out.
      await state.close(undefined, stop.force);
      await Promise.race([served, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    }
  } finally {
    tasks.close();
    stop.dispose();
    for (const stopFollowing of following) stopFollowing();
  }
  return 0;
}
