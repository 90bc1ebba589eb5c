/** @module An artifact store on the file system: `<root>/<tenant>/<sha256>/<name>`, written atomically. */
import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Artifact, ArtifactStore } from "./artifact-store.js";

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const SHA256 = /^[0-9a-f]{64}$/;

export function createFileArtifactStore(root: string): ArtifactStore {
  // A tenant id may hold "/" or ":"; encoded, it is one directory name and never a path.
  const tenantDir = (tenantId: string) => join(root, encodeURIComponent(tenantId));
  return {
    async put({ tenantId, name, mediaType, bytes }): Promise<Artifact> {
      if (!FILE_NAME.test(name) || name.includes("..")) throw new Error(`"${name}" is not a plain file name`);
      const id = createHash("sha256").update(bytes).digest("hex");
      const directory = join(tenantDir(tenantId), id);
      await mkdir(directory, { recursive: true });
      // Written beside its final name and renamed, so a reader never sees half a file.
      const temporary = join(directory, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
      await writeFile(temporary, bytes);
      await rename(temporary, join(directory, name));
      return { id, name, mediaType, size: bytes.byteLength, uri: `artifact://${id}/${name}` };
    },
    async get({ tenantId, id, name }) {
      if (!SHA256.test(id) || !FILE_NAME.test(name) || name.includes("..")) return undefined;
      try {
        return new Uint8Array(await readFile(join(tenantDir(tenantId), id, name)));
      } catch {
        return undefined;
      }
    },
  };
}
