/** @module Artifact stores: where generated files go. */
export type { Artifact, ArtifactInput, ArtifactStore, StoredArtifact } from "../ports/artifact-store.js";
export { createFileArtifactStore } from "./file-artifact-store.js";
