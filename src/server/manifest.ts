/**
 * @module The manifest a caller may see, in the current `toolreg/3` shape or the old `toolreg/2` one for
 * old clients, optionally only the tools that run on the caller's runtime. Serialized once per registry
 * revision, shape, runtime and caller view, with its ETag, so a busy endpoint hands out bytes instead of
 * building JSON. The ETag is weak and names the tools listed, not the rendering: every instance serving the
 * same catalogue gives the same one (their `generated` and `revision` differ), so a client's cached copy
 * stays valid wherever the load balancer sends its next request.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { z } from "zod";
import { parametersOf } from "../catalog/parameters.js";
import { runsOnRuntime } from "../declaration/runtime.js";
import type { AnyTool } from "../registry/registry.js";

export const MANIFEST_SCHEMAS = ["toolreg/3", "toolreg/2"] as const;
export type ManifestSchema = (typeof MANIFEST_SCHEMAS)[number];

/** Where the manifest's JSON Schema is served, relative to the manifest, so it resolves under any prefix. */
export const MANIFEST_SCHEMA_URL = "manifest.schema.json";

const JsonSchema = z.record(z.string(), z.unknown());

const ManifestEntryV3Schema = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  category: z.string(),
  effect: z.string(),
  approval: z.string(),
  idempotency: z.boolean(),
  input_schema: JsonSchema,
  output_schema: JsonSchema.nullable(),
  cost: z.string(),
  runtime: z.string().nullable().describe("the semver range of host runtimes the tool runs on; null: any"),
  deprecated_by: z.string().nullable(),
});
export type ManifestEntryV3 = z.infer<typeof ManifestEntryV3Schema>;

const ManifestEntryV2Schema = z.object({
  name: z.string(),
  version: z.string(),
  runtime: z.string().nullable(),
  description: z.string(),
  inputs: JsonSchema,
  outputs: JsonSchema.nullable(),
  cost: z.string(),
  idempotent: z.boolean(),
  deprecated_by: z.string().nullable(),
});

const documentFields = {
  $schema: z.string().describe("where this document's JSON Schema is served"),
  generated: z.iso.datetime().describe("when this revision of the manifest was first serialized"),
  revision: z.number().int().describe("the registry revision the manifest lists"),
};

/** The manifest document in either shape; docs/manifest.schema.json is generated from it. */
export const ManifestDocumentSchema = z.discriminatedUnion("schema", [
  z.object({ schema: z.literal("toolreg/3"), ...documentFields, tools: z.array(ManifestEntryV3Schema) }),
  z.object({ schema: z.literal("toolreg/2"), ...documentFields, tools: z.array(ManifestEntryV2Schema) }),
]);
export type ManifestDocument = z.infer<typeof ManifestDocumentSchema>;

/** One tool as the current manifest and the discovery API describe it. */
export function manifestEntry(tool: AnyTool): ManifestEntryV3 {
  return {
    name: tool.name,
    version: tool.version,
    description: tool.description,
    category: tool.category,
    effect: tool.effect,
    approval: tool.approval,
    idempotency: tool.idempotencyKey,
    input_schema: parametersOf(tool),
    output_schema: tool.output?.jsonSchema ?? null,
    cost: tool.cost,
    runtime: tool.runtime ?? null,
    deprecated_by: tool.deprecatedBy ?? null,
  };
}

/** The old shape: `inputs`/`outputs` and an `idempotent` flag, which a read (or a keyed write) is. */
function legacyEntry(tool: AnyTool): z.infer<typeof ManifestEntryV2Schema> {
  return {
    name: tool.name,
    version: tool.version,
    runtime: tool.runtime ?? null,
    description: tool.description,
    inputs: parametersOf(tool),
    outputs: tool.output?.jsonSchema ?? null,
    cost: tool.cost,
    idempotent: tool.effect === "read" || tool.idempotencyKey,
    deprecated_by: tool.deprecatedBy ?? null,
  };
}

export interface RenderedManifest {
  /** The JSON already encoded: each response writes these bytes instead of measuring and encoding a string. */
  body: Buffer;
  gzip: Buffer | undefined;
  etag: string;
}

/** What one rendering lists: the caller's view, in one shape, for one runtime (undefined: every runtime). */
export interface ManifestView {
  schema: ManifestSchema;
  /** Names what the caller may see (tenant, scopes, mode): equal keys see equal tools. */
  viewKey: string;
  /** A normalized version (see parseRuntimeVersion), so `v2.3.0` and `2.3.0` share one rendering. */
  runtime: string | undefined;
}

/** Past this many cached views the oldest is dropped: a bound, not a policy. */
const MAX_CACHED = 512;

export class ManifestCache {
  #revision = -1;
  // One time per revision, so a view rendered again after eviction has the same bytes and ETag.
  #generated = "";
  readonly #entries = new Map<string, RenderedManifest>();
  readonly #now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  get(view: ManifestView, revision: number, tools: () => readonly AnyTool[]): RenderedManifest {
    if (revision !== this.#revision) {
      this.#entries.clear();
      this.#revision = revision;
      this.#generated = this.#now().toISOString();
    }
    const key = `${view.schema}\u0000${view.runtime ?? ""}\u0000${view.viewKey}`;
    const cached = this.#entries.get(key);
    if (cached) return cached;
    const { runtime } = view;
    const listed = runtime === undefined ? tools() : tools().filter((tool) => runsOnRuntime(tool, runtime));
    const listing = JSON.stringify(
      view.schema === "toolreg/3" ? listed.map(manifestEntry) : listed.map(legacyEntry),
    );
    const fields = {
      schema: view.schema,
      $schema: MANIFEST_SCHEMA_URL,
      generated: this.#generated,
      revision,
    };
    // The listing is encoded once: the ETag hashes it and the body ends with it.
    const body = Buffer.from(`${JSON.stringify(fields).slice(0, -1)},"tools":${listing}}`);
    const tag = createHash("sha256").update(`${view.schema}\u0000${listing}`).digest("base64url");
    const rendered: RenderedManifest = {
      body,
      gzip: body.length > 1024 ? gzipSync(body) : undefined,
      etag: `W/"${tag.slice(0, 27)}"`,
    };
    if (this.#entries.size >= MAX_CACHED) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, rendered);
    return rendered;
  }
}
