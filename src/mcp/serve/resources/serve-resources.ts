/**
 * @module MCP resources on a server: `resources/list`, `resources/templates/list`, `resources/read`,
 * `resources/subscribe` and `unsubscribe`, and `completion/complete` for the templates' variables, answered
 * from the tools' docs pages and the host's sources, each for the caller of the request.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CompleteRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolRegistry } from "../../../registry/registry.js";
import type { ExecutionContext } from "../../../seam/context.js";
import type { Seam } from "../../../seam/seam.js";
import { listPage } from "../list-page.js";
import { DEFAULT_PAGE_SIZE } from "../tool-list-page.js";
import { type McpResourceContents, type McpResourceSource, RESOURCE_NOT_FOUND } from "./resource-source.js";
import { toolDocsResources } from "./tool-docs-resources.js";

/** The most values one completion answers with, as the spec allows. */
const MAX_COMPLETIONS = 100;

/** What of the server's options resources are served from. */
export interface ResourceOptions {
  seam: Seam;
  /** Given when the server lives to tell the client of changes: subscriptions and `list_changed` then. */
  registry?: Pick<ToolRegistry, "onUpdate">;
  /** The host's sources, after the tools' docs pages. */
  resources?: readonly McpResourceSource[];
  /** How many resources a page of `resources/list` holds, as for `tools/list`. */
  pageSize?: number;
  /** Whether prompts (skills) are served: a prompt's completion is then answered, with nothing, as no skill takes arguments. */
  promptsServed?: boolean;
}

/**
 * Declares `resources` (with `subscribe` and `listChanged` only when the server is told of registry
 * changes, i.e. lives beyond one request) and `completions`, and answers them. Call before `connect`.
 */
export function serveResources(
  server: Server,
  options: ResourceOptions,
  contextFor: (signal: AbortSignal) => ExecutionContext,
): void {
  const live = options.registry !== undefined;
  const sources = [toolDocsResources(options.seam, options.registry), ...(options.resources ?? [])];
  server.registerCapabilities({
    resources: live ? { subscribe: true, listChanged: true } : {},
    completions: {},
  });

  server.setRequestHandler(ListResourcesRequestSchema, async (request, extra) => {
    const context = contextFor(extra.signal);
    const lists = await Promise.all(sources.map((source) => source.list?.(context) ?? []));
    const { page, nextCursor } = listPage(
      lists.flat(),
      request.params?.cursor,
      options.pageSize ?? DEFAULT_PAGE_SIZE,
    );
    return { resources: page, ...(nextCursor === undefined ? {} : { nextCursor }) };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: sources.flatMap((source) => source.templates ?? []),
  }));
  const read = async (uri: string, context: ExecutionContext): Promise<McpResourceContents[]> => {
    for (const source of sources) {
      let contents: McpResourceContents[] | undefined;
      try {
        contents = await source.read(uri, context);
      } catch (error) {
        context.logger.warn({ err: error, uri }, "reading a resource failed");
        throw new McpError(ErrorCode.InternalError, `${uri} could not be read just now; try again`);
      }
      if (contents) return contents;
    }
    // The same answer whether it never existed or is another caller's: nothing is told of others.
    throw new McpError(RESOURCE_NOT_FOUND, `there is no resource ${uri} for you`, { uri });
  };
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => ({
    contents: await read(request.params.uri, contextFor(extra.signal)),
  }));

  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref, argument } = request.params;
    if (ref.type !== "ref/resource") {
      if (options.promptsServed) return { completion: { values: [], total: 0, hasMore: false } };
      throw new McpError(ErrorCode.InvalidParams, "no prompts are served: only resource templates complete");
    }
    const source = sources.find((candidate) =>
      candidate.templates?.some((template) => template.uriTemplate === ref.uri),
    );
    if (!source) throw new McpError(ErrorCode.InvalidParams, `there is no resource template ${ref.uri}`);
    const values =
      (await source.complete?.(ref.uri, argument.name, argument.value, contextFor(extra.signal))) ?? [];
    return {
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    };
  });

  if (!live) return;
  // One server per session (or stdio), so its subscriptions are this set.
  const subscribed = new Set<string>();
  server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
    // Only what the caller may read: a subscription tells whether a URI exists, as a read does.
    await read(request.params.uri, contextFor(extra.signal));
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  // Before a client connects there is no one to tell; a failed send is the client's loss alone.
  const stops = sources.map((source) =>
    source.watch?.({
      listChanged: () => void server.sendResourceListChanged().catch(() => {}),
      updated: (uri) => {
        if (subscribed.has(uri)) server.sendResourceUpdated({ uri }).catch(() => {});
      },
    }),
  );
  const closed = server.onclose;
  server.onclose = () => {
    closed?.();
    for (const stop of stops) stop?.();
  };
}
