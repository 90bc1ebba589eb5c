/** @module The file artifact store against the conformance suite. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runArtifactStoreConformance } from "../ports/artifact-store.conformance.js";
import { createFileArtifactStore } from "./file-artifact-store.js";

runArtifactStoreConformance("file", async () => {
  const root = mkdtempSync(join(tmpdir(), "toolreg-artifacts-"));
  return {
    store: createFileArtifactStore(root),
    reopen: async () => createFileArtifactStore(root),
    cleanup: async () => rmSync(root, { recursive: true, force: true }),
  };
});
