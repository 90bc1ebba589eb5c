/** @module An artifact store in memory for the browser tests: what was kept, readable back. */
import { createHash } from "node:crypto";
import type { Artifact, ArtifactStore } from "toolreg/toolkit";

export interface MemoryArtifacts extends ArtifactStore {
  kept: (Artifact & { bytes: Uint8Array; tenantId: string; provenance?: unknown })[];
}

export function createMemoryArtifacts(): MemoryArtifacts {
  const kept: MemoryArtifacts["kept"] = [];
  return {
    kept,
    async put(input) {
      const id = createHash("sha256").update(input.bytes).digest("hex");
      const artifact = {
        id,
        name: input.name,
        mediaType: input.mediaType,
        size: input.bytes.byteLength,
        uri: `artifact://${id}/${input.name}`,
      };
      kept.push({ ...artifact, bytes: input.bytes, tenantId: input.tenantId, provenance: input.provenance });
      return artifact;
    },
    async get({ tenantId, id, name }) {
      const found = kept.find((item) => item.tenantId === tenantId && item.id === id && item.name === name);
      return found ? { bytes: found.bytes } : undefined;
    },
  };
}
