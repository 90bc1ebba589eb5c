/** @module The artifact store port: where generated files go, addressed by content, kept per tenant. */

export interface ArtifactInput {
  tenantId: string;
  /** A plain file name, e.g. `report.pdf`. */
  name: string;
  mediaType: string;
  bytes: Uint8Array;
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

export interface ArtifactStore {
  put(input: ArtifactInput): Promise<Artifact>;
  get(input: { tenantId: string; id: string; name: string }): Promise<Uint8Array | undefined>;
}
