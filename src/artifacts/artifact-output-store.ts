/** @module An output store over an artifact store: each kept output is one JSON artifact, addressed by its hash. */

import type { ArtifactStore } from "../ports/artifact-store.js";
import type { OutputStore, StoredOutput } from "../seam/output-store.js";
import { KEPT_OUTPUT_FILE as NAME, OUTPUT_REF } from "../seam/output-store.js";

interface Kept extends StoredOutput {
  principalId: string;
}

export function createArtifactOutputStore(artifacts: ArtifactStore): OutputStore {
  return {
    async put({ tenantId, principalId, toolName, text, provenance }) {
      const kept: Kept = { principalId, toolName, text, ...(provenance ? { provenance } : {}) };
      const artifact = await artifacts.put({
        tenantId,
        name: NAME,
        mediaType: "application/json",
        bytes: new TextEncoder().encode(JSON.stringify(kept)),
      });
      return `out_${artifact.id}`;
    },
    async get({ tenantId, principalId, ref }) {
      if (!OUTPUT_REF.test(ref)) return undefined;
      const stored = await artifacts.get({ tenantId, id: ref.slice("out_".length), name: NAME });
      if (!stored) return undefined;
      // The output's provenance is inside the kept bytes, with its text.
      const kept = JSON.parse(new TextDecoder().decode(stored.bytes)) as Kept;
      // The principal is inside the hashed bytes too, so another principal's reference never collides
      // with one's own; this check keeps a leaked reference from being read by someone else.
      if (kept.principalId !== principalId) return undefined;
      return {
        toolName: kept.toolName,
        text: kept.text,
        ...(kept.provenance ? { provenance: kept.provenance } : {}),
      };
    },
  };
}
