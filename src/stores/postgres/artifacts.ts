/**
 * @module An artifact store on PostgreSQL: the bytes in BYTEA, content-addressed per tenant, in the `artifacts`
 * table that toolreg/stores/postgres migrates (version 2; provenance, version 6), on the pool and quoted schema
 * of the stores (`PostgresStores.pool`, `.schema`): kept outputs and generated files, shared by every instance.
 */
import type pg from "pg";
import { addressArtifact, isArtifactAddress } from "../../ports/artifact-address.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";

interface ArtifactRow {
  bytes: Buffer;
  provenance_source: string | null;
  provenance_trusted: boolean | null;
}

export function createPostgresArtifactStore(pool: pg.Pool, schema: string): ArtifactStore {
  const table = `${schema}.artifacts`;
  return {
    async put(input) {
      const artifact = addressArtifact(input);
      const { provenance } = input;
      // The same bytes under the same name are the same artifact: storing them again changes its provenance
      // only as keptProvenance does (untrusted wins; a provenance fills in none), in the one statement.
      await pool.query(
        `INSERT INTO ${table} AS kept
           (tenant_id, id, name, media_type, size, bytes, provenance_source, provenance_trusted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (tenant_id, id, name) DO UPDATE
           SET provenance_source = EXCLUDED.provenance_source, provenance_trusted = EXCLUDED.provenance_trusted
           WHERE EXCLUDED.provenance_trusted IS NOT NULL
             AND kept.provenance_trusted IS DISTINCT FROM false
             AND (NOT EXCLUDED.provenance_trusted OR kept.provenance_trusted IS NULL)`,
        [
          input.tenantId,
          artifact.id,
          artifact.name,
          artifact.mediaType,
          artifact.size,
          Buffer.from(input.bytes),
          provenance?.source ?? null,
          provenance?.trusted ?? null,
        ],
      );
      return artifact;
    },
    async get({ tenantId, id, name }) {
      if (!isArtifactAddress(id, name)) return undefined;
      const { rows } = await pool.query<ArtifactRow>(
        `SELECT bytes, provenance_source, provenance_trusted FROM ${table}
         WHERE tenant_id = $1 AND id = $2 AND name = $3`,
        [tenantId, id, name],
      );
      const row = rows[0];
      if (!row) return undefined;
      const bytes = new Uint8Array(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      return row.provenance_source === null || row.provenance_trusted === null
        ? { bytes }
        : { bytes, provenance: { source: row.provenance_source, trusted: row.provenance_trusted } };
    },
  };
}
