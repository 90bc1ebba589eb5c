/** @module An artifact store in memory for the media tests: addressed by sha256 as every adapter is. */
import { createHash } from "node:crypto";
import type { Artifact, ArtifactStore } from "toolreg/toolkit";

export interface MemoryArtifacts extends ArtifactStore {
  /** What was put, in order, with the provenance it was kept with. */
  kept: (Artifact & { tenantId: string; bytes: Uint8Array; provenance?: unknown })[];
}

export function createMemoryArtifacts(): MemoryArtifacts {
  const kept: MemoryArtifacts["kept"] = [];
  return {
    kept,
    async put({ tenantId, name, mediaType, bytes, provenance }) {
      const id = createHash("sha256").update(bytes).digest("hex");
      const artifact = { id, name, mediaType, size: bytes.byteLength, uri: `artifact://${id}/${name}` };
      kept.push({ ...artifact, tenantId, bytes, provenance });
      return artifact;
    },
    async get({ tenantId, id, name }) {
      const found = kept.find((item) => item.tenantId === tenantId && item.id === id && item.name === name);
      return found && { bytes: found.bytes };
    },
  };
}
