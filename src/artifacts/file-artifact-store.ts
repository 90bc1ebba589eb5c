/** @module An artifact store on the file system: `<root>/<tenant>/<sha256>/<name>`, written atomically. */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { addressArtifact, isArtifactAddress } from "../ports/artifact-address.js";
import type { Artifact, ArtifactStore } from "../ports/artifact-store.js";

export function createFileArtifactStore(root: string): ArtifactStore {
  // A tenant id may hold "/" or ":"; encoded, it is one directory name and never a path.
  const tenantDir = (tenantId: string) => join(root, encodeURIComponent(tenantId));
  return {
    async put(input): Promise<Artifact> {
      const artifact = addressArtifact(input);
      const directory = join(tenantDir(input.tenantId), artifact.id);
      await mkdir(directory, { recursive: true });
      // Written beside its final name and renamed, so a reader never sees half a file.
      const temporary = join(directory, `.${artifact.name}.${randomBytes(6).toString("hex")}.tmp`);
      await writeFile(temporary, input.bytes);
      await rename(temporary, join(directory, artifact.name));
      return artifact;
    },
    async get({ tenantId, id, name }) {
      if (!isArtifactAddress(id, name)) return undefined;
      try {
        return new Uint8Array(await readFile(join(tenantDir(tenantId), id, name)));
      } catch {
        return undefined;
      }
    },
  };
}
