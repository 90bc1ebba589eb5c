/**
 * @module An artifact store on PostgreSQL: the bytes in BYTEA, content-addressed per tenant, in the `artifacts`
 * table that toolreg/stores/postgres migrates (version 2), on the pool and quoted schema of the stores
 * (`PostgresStores.pool`, `.schema`): kept outputs and generated files, shared by every instance.
 */
import type pg from "pg";
import { addressArtifact, isArtifactAddress } from "../../ports/artifact-address.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";

export function createPostgresArtifactStore(pool: pg.Pool, schema: string): ArtifactStore {
  const table = `${schema}.artifacts`;
  return {
    async put(input) {
      const artifact = addressArtifact(input);
      // The same bytes under the same name are the same artifact: storing them again changes nothing.
      await pool.query(
        `INSERT INTO ${table} (tenant_id, id, name, media_type, size, bytes) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (tenant_id, id, name) DO NOTHING`,
        [
          input.tenantId,
          artifact.id,
          artifact.name,
          artifact.mediaType,
          artifact.size,
          Buffer.from(input.bytes),
        ],
      );
      return artifact;
    },
    async get({ tenantId, id, name }) {
      if (!isArtifactAddress(id, name)) return undefined;
      const { rows } = await pool.query<{ bytes: Buffer }>(
        `SELECT bytes FROM ${table} WHERE tenant_id = $1 AND id = $2 AND name = $3`,
        [tenantId, id, name],
      );
      const bytes = rows[0]?.bytes;
      return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}
