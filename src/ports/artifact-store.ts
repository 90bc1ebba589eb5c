/** @module The artifact store port: where generated files go, addressed by content, kept per tenant. */
import type { Provenance } from "../seam/envelope.js";

export interface ArtifactInput {
  tenantId: string;
  /** A plain file name, e.g. `report.pdf`. */
  name: string;
  mediaType: string;
  bytes: Uint8Array;
  /**
   * Where the bytes came from, as the seam names a result's source; untrusted bytes (an imported MCP
   * server's) are served fenced. Absent for a first-party file (`file_generate`).
   */
  provenance?: Provenance;
}

export interface Artifact {
  /** The sha256 of the bytes: the same content is the same artifact. */
  id: string;
  name: string;
  mediaType: string;
  size: number;
  /** Where a host can hand it out from, e.g. `artifact://<id>/<name>`. */
  uri: string;
}

/** What a store gives back for an address: the bytes, and the provenance they were kept with. */
export interface StoredArtifact {
  bytes: Uint8Array;
  /**
   * The same bytes under the same name are one artifact, so puts with different provenances share it:
   * once any put was untrusted it stays untrusted (`keptProvenance`), so no put makes it read as trusted.
   */
  provenance?: Provenance;
}

export interface ArtifactStore {
  put(input: ArtifactInput): Promise<Artifact>;
  get(input: { tenantId: string; id: string; name: string }): Promise<StoredArtifact | undefined>;
}
