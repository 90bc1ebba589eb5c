/**
 * @module The manifest a caller may see, in the current `toolreg/3` shape or the old `toolreg/2` one for
 * old clients. Serialized once per registry revision and caller view, with its ETag, so a busy endpoint
 * hands out bytes instead of building JSON.
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { parametersOf } from "../catalog/parameters.js";
import type { AnyTool } from "../registry/registry.js";

export const MANIFEST_SCHEMAS = ["toolreg/3", "toolreg/2"] as const;
export type ManifestSchema = (typeof MANIFEST_SCHEMAS)[number];

export interface ManifestEntryV3 {
  name: string;
  version: string;
  description: string;
  category: string;
  effect: string;
  approval: string;
  idempotency: boolean;
  input_schema: unknown;
  output_schema: unknown;
  cost: string;
  runtime: string | null;
  deprecated_by: string | null;
}

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
function legacyEntry(tool: AnyTool) {
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

/** Past this many cached views the cache starts over: a bound, not a policy. */
const MAX_CACHED = 512;

export class ManifestCache {
  #revision = -1;
  readonly #entries = new Map<string, RenderedManifest>();

  /** `viewKey` names what the caller may see (tenant, scopes, mode): equal keys see equal tools. */
  get(
    schema: ManifestSchema,
    revision: number,
    viewKey: string,
    tools: () => readonly AnyTool[],
  ): RenderedManifest {
    if (revision !== this.#revision) {
      this.#entries.clear();
      this.#revision = revision;
    }
    const key = `${schema}\u0000${viewKey}`;
    const cached = this.#entries.get(key);
    if (cached) return cached;
    const listed = tools();
    const body = Buffer.from(
      JSON.stringify({
        schema,
        revision,
        tools: schema === "toolreg/3" ? listed.map(manifestEntry) : listed.map(legacyEntry),
      }),
    );
    const rendered: RenderedManifest = {
      body,
      gzip: body.length > 1024 ? gzipSync(body) : undefined,
      etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`,
    };
    if (this.#entries.size >= MAX_CACHED) this.#entries.clear();
    this.#entries.set(key, rendered);
    return rendered;
  }
}
