/** @module `GET /manifest.json`: the caller's manifest, cached per revision, with ETag and gzip. */
import type { Hono, MiddlewareHandler } from "hono";
import { viewContext, viewKey } from "../call-context.js";
import { MANIFEST_SCHEMAS, type ManifestSchema } from "../manifest.js";
import { problem } from "../problem.js";
import { SECURITY_HEADERS } from "../security-headers.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export function manifestRoute(
  app: Hono<ServerEnv>,
  deps: ServerDeps,
  authenticated: MiddlewareHandler<ServerEnv>,
): void {
  app.get("/manifest.json", authenticated, (c) => {
    const schema = c.req.query("schema") ?? "toolreg/3";
    if (!(MANIFEST_SCHEMAS as readonly string[]).includes(schema)) {
      return problem(400, "unknown_schema", `schema must be one of ${MANIFEST_SCHEMAS.join(", ")}`);
    }
    const caller = c.get("caller");
    const manifest = deps.manifests.get(
      schema as ManifestSchema,
      deps.registry.revision,
      viewKey(caller),
      () => deps.seam.visibleTools(viewContext(caller, deps.logger)),
    );
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      etag: manifest.etag,
      "cache-control": "private, no-cache",
      vary: "Authorization, Cookie, Accept-Encoding",
    };
    const match = c.req.header("if-none-match");
    if (match?.split(",").some((tag) => tag.trim() === manifest.etag)) {
      return new Response(null, { status: 304, headers });
    }
    if (manifest.gzip && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
      return new Response(manifest.gzip, {
        headers: { ...headers, "content-type": "application/json", "content-encoding": "gzip" },
      });
    }
    return new Response(manifest.body, { headers: { ...headers, "content-type": "application/json" } });
  });
}
