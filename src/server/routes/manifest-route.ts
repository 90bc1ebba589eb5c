/**
 * @module `GET /manifest.json`: the caller's manifest, optionally for one host runtime, cached per revision,
 * with ETag and gzip; and `GET /manifest.schema.json`, the JSON Schema its `$schema` names.
 */
import type { Hono, MiddlewareHandler } from "hono";
import { z } from "zod";
import { parseRuntimeVersion } from "../../declaration/runtime.js";
import { viewContext, viewKey } from "../call-context.js";
import {
  MANIFEST_SCHEMA_URL,
  MANIFEST_SCHEMAS,
  ManifestDocumentSchema,
  type ManifestSchema,
} from "../manifest.js";
import { problem } from "../problem.js";
import { SECURITY_HEADERS } from "../security-headers.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export function manifestRoute(
  app: Hono<ServerEnv>,
  deps: ServerDeps,
  authenticated: MiddlewareHandler<ServerEnv>,
): void {
  // Not secret and the same for everyone, so served without a key: an editor or validator can fetch it.
  const schemaBody = JSON.stringify(z.toJSONSchema(ManifestDocumentSchema));
  app.get(
    `/${MANIFEST_SCHEMA_URL}`,
    () =>
      new Response(schemaBody, {
        headers: {
          ...SECURITY_HEADERS,
          "content-type": "application/schema+json",
          "cache-control": "no-cache",
        },
      }),
  );

  app.get("/manifest.json", authenticated, (c) => {
    const schema = c.req.query("schema") ?? "toolreg/3";
    if (!(MANIFEST_SCHEMAS as readonly string[]).includes(schema)) {
      return problem(400, "unknown_schema", `schema must be one of ${MANIFEST_SCHEMAS.join(", ")}`);
    }
    const asked = c.req.query("runtime");
    const runtime = asked === undefined ? undefined : parseRuntimeVersion(asked);
    if (runtime === null) {
      return problem(
        400,
        "invalid_query",
        `runtime "${asked?.slice(0, 64)}" is not a semver version such as 2.3.0: name the host's runtime version`,
      );
    }
    const caller = c.get("caller");
    const manifest = deps.manifests.get(
      { schema: schema as ManifestSchema, viewKey: viewKey(caller), runtime },
      deps.registry.revision,
      () => deps.seam.visibleTools(viewContext(caller, deps.logger)),
    );
    const headers: Record<string, string> = {
      ...SECURITY_HEADERS,
      etag: manifest.etag,
      "cache-control": "private, no-cache",
      vary: "Authorization, Cookie, Accept-Encoding",
    };
    const match = c.req.header("if-none-match");
    // Weak comparison (RFC 9110 §13.1.2): a tag matches with or without its W/ prefix.
    const opaque = manifest.etag.slice(2);
    if (match?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === opaque || tag.trim() === "*")) {
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
