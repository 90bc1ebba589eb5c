/**
 * @module An artifact store on the file system: `<root>/<tenant>/<sha256>/<name>`, written atomically, its
 * provenance (when it has one) in `.<name>.provenance` beside it, a name no artifact can have.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { addressArtifact, isArtifactAddress } from "../ports/artifact-address.js";
import { keptProvenance, UNREADABLE_PROVENANCE } from "../ports/artifact-provenance.js";
import type { Artifact, ArtifactStore } from "../ports/artifact-store.js";
import { type Provenance, ProvenanceSchema } from "../seam/envelope.js";

export function createFileArtifactStore(root: string): ArtifactStore {
  // A tenant id may hold "/" or ":"; encoded, it is one directory name and never a path.
  const tenantDir = (tenantId: string) => join(root, encodeURIComponent(tenantId));
  return {
    async put(input): Promise<Artifact> {
      const artifact = addressArtifact(input);
      const directory = join(tenantDir(input.tenantId), artifact.id);
      await mkdir(directory, { recursive: true });
      // The provenance first: a reader that finds the bytes finds what they are too.
      if (input.provenance) await keepProvenance(directory, artifact.name, input.provenance);
      await writeAtomically(join(directory, artifact.name), input.bytes, "replace");
      return artifact;
    },
    async get({ tenantId, id, name }) {
      if (!isArtifactAddress(id, name)) return undefined;
      const directory = join(tenantDir(tenantId), id);
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await readFile(join(directory, name)));
      } catch {
        return undefined;
      }
      const provenance = await readProvenance(directory, name);
      return provenance ? { bytes, provenance } : { bytes };
    },
  };
}

const provenancePath = (directory: string, name: string) => join(directory, `.${name}.provenance`);

/**
 * Untrusted replaces what is kept unless that is untrusted already; anything else is only written where
 * nothing is, so of two puts at once an untrusted one is never overwritten by a trusted one.
 */
async function keepProvenance(directory: string, name: string, put: Provenance): Promise<void> {
  const kept = await readProvenance(directory, name);
  const next = keptProvenance(kept, put);
  if (next === kept) return;
  await writeAtomically(
    provenancePath(directory, name),
    JSON.stringify(next),
    put.trusted ? "create" : "replace",
  );
}

/** None when there is no record; untrusted when there is one that cannot be read, so it is fenced. */
async function readProvenance(directory: string, name: string): Promise<Provenance | undefined> {
  let text: string;
  try {
    text = await readFile(provenancePath(directory, name), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return UNREADABLE_PROVENANCE;
  }
  try {
    return ProvenanceSchema.parse(JSON.parse(text));
  } catch {
    return UNREADABLE_PROVENANCE;
  }
}

/**
 * Written beside its final name, then renamed over it (`replace`) or linked to it only where nothing is
 * (`create`), so a reader never sees half a file.
 */
async function writeAtomically(
  path: string,
  data: Uint8Array | string,
  mode: "replace" | "create",
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  await writeFile(temporary, data);
  if (mode === "replace") return rename(temporary, path);
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary);
  }
}
