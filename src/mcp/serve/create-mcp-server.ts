/**
 * @module The registry as an MCP server: `tools/list` is what the caller may see, `tools/call` goes
 * through the seam, and registry changes reach the client as `notifications/tools/list_changed`.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../../registry/registry.js";
import type { ExecutionContext } from "../../seam/context.js";
import type { Seam } from "../../seam/seam.js";
import { callToolResult } from "./call-tool-result.js";
import { DEFAULT_PAGE_SIZE, toolListPage } from "./tool-list-page.js";

/** What the host gets to build a request's context from: who is asking comes from the host's own state. */
export interface McpRequestInfo {
  /** Fresh per request: MCP requests carry no id the seam could key a call on across sessions. */
  toolCallId: string;
  signal: AbortSignal;
}

export interface McpServerOptions {
  seam: Seam;
  context(request: McpRequestInfo): ExecutionContext;
  /** The registry behind the seam; when given, its changes are announced to the client. */
  registry?: Pick<ToolRegistry, "onUpdate">;
  pageSize?: number;
}

/**
 * A low-level SDK server, since the tool list is not fixed: it is read from the seam on every request.
 * The server's `onclose` unsubscribes from the registry; chain it rather than replace it.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const server = new Server(
    { name: "toolreg", version: packageVersion() },
    { capabilities: { tools: { listChanged: true } } },
  );
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const contextFor = (signal: AbortSignal) => options.context({ toolCallId: randomUUID(), signal });

  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    toolListPage(options.seam.visibleTools(contextFor(extra.signal)), request.params?.cursor, pageSize),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const context = contextFor(extra.signal);
    const { name, arguments: input } = request.params;
    const envelope = await options.seam.call(context, name, input ?? {});
    return callToolResult(context.toolCallId, name, envelope);
  });

  const unsubscribe = options.registry?.onUpdate(() => {
    // Before a client connects there is no one to tell; it reads the current list when it lists.
    server.sendToolListChanged().catch(() => {});
  });
  server.onclose = () => unsubscribe?.();
  return server;
}

let version: string | undefined;

/** The package's version, read once; the same relative path holds from `src/` and from `dist/`. */
function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  return version;
}
