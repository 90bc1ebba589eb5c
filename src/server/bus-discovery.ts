/**
 * @module Discovery on the bus, as the original registry offered it: a host sends `tool.query` with its API
 * key and, optionally, its runtime version, and one instance answers with the manifest that key may see
 * for that runtime — the same document, grant filter and cache as `GET /manifest.json`. A query without a
 * valid key learns nothing but that.
 */
import { z } from "zod";
import { parseRuntimeVersion } from "../declaration/runtime.js";
import type { EventBus } from "../ports/event-bus.js";
import { viewContext, viewKey } from "./call-context.js";
import { TOPICS } from "./instance-events.js";
import { MANIFEST_SCHEMAS, type ManifestDocument } from "./manifest.js";
import type { ServerDeps } from "./server-deps.js";

const ToolQuerySchema = z.strictObject({
  key: z.string().max(200),
  runtime: z.string().max(64).optional(),
  schema: z.enum(MANIFEST_SCHEMAS).optional(),
});
export type ToolQuery = z.input<typeof ToolQuerySchema>;

export type ToolReply =
  | { ok: true; manifest: ManifestDocument }
  | { ok: false; error: { code: "invalid_query" | "unauthenticated"; message: string } };

export function serveBusDiscovery(bus: EventBus, deps: ServerDeps): () => void {
  return bus.serve(TOPICS.toolQuery, (request) => answerToolQuery(request, deps));
}

export async function answerToolQuery(request: unknown, deps: ServerDeps): Promise<ToolReply> {
  const parsed = ToolQuerySchema.safeParse(request);
  if (!parsed.success) {
    return refuse(
      "invalid_query",
      `a tool.query is {"key": "trk_…", "runtime"?: "2.3.0", "schema"?: ${MANIFEST_SCHEMAS.map((name) => `"${name}"`).join(" | ")}}`,
    );
  }
  const { key, runtime: asked, schema = "toolreg/3" } = parsed.data;
  const runtime = asked === undefined ? undefined : parseRuntimeVersion(asked);
  if (runtime === null) {
    return refuse("invalid_query", `runtime "${asked}" is not a semver version such as 2.3.0`);
  }
  const caller = await deps.keys.verify(key);
  if (!caller) return refuse("unauthenticated", "the API key is unknown or revoked");
  const rendered = deps.manifests.get(
    { schema, viewKey: viewKey(caller), runtime },
    deps.registry.revision,
    () => deps.seam.visibleTools(viewContext(caller, deps.logger)),
  );
  return { ok: true, manifest: JSON.parse(rendered.body.toString("utf8")) as ManifestDocument };
}

const refuse = (code: "invalid_query" | "unauthenticated", message: string): ToolReply => ({
  ok: false,
  error: { code, message },
});
