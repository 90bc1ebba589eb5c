/**
 * @module The first-party catalogue: every tool toolreg ships, with its triage lists and docs folder.
 * `toolreg check` and `toolreg docs` read it; what a host actually serves depends on what it wires.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { metaTools } from "../catalog/meta/index.js";
import { createEgressClient } from "../egress/egress-client.js";
import { createDockerSandbox } from "../sandbox/docker.js";
import { createDefaultRegistry } from "../tools/index.js";
import type { SqlReader, SqlWriter } from "../tools/sql/index.js";
import type { Catalogue } from "./catalogue.js";

/** Where the generated docs pages of the first-party tools live, in the source tree and the package alike. */
export const FIRST_PARTY_DOCS_DIR = fileURLToPath(new URL("../../docs/tools", import.meta.url));

/** Stands in for a database when only the declarations are wanted; it is never called. */
const declarationsOnly = {
  dialect: "sqlite" as const,
  query: () => Promise.reject(new Error("declarations only")),
  schema: () => Promise.reject(new Error("declarations only")),
  execute: () => Promise.reject(new Error("declarations only")),
  close: () => Promise.resolve(),
};

export function defaultCatalogue(): Catalogue {
  // The file tools want real, separate roots to exist; they are only declared here, never run.
  const scratch = mkdtempSync(join(tmpdir(), "toolreg-catalogue-"));
  try {
    const readRoot = join(scratch, "read");
    const writeRoot = join(scratch, "write");
    mkdirSync(readRoot);
    mkdirSync(writeRoot);
    const tools = createDefaultRegistry({
      egress: createEgressClient(),
      readRoot,
      writeRoot,
      artifacts: createFileArtifactStore(join(scratch, "artifacts")),
      // Builds a docker argv and runs nothing: enough to declare shell_exec wherever the catalogue is read.
      sandbox: createDockerSandbox({ image: "declarations-only" }),
      sqlReader: declarationsOnly as SqlReader,
      sqlWriter: { ...declarationsOnly } as SqlWriter,
      // The demo tools open their file only when they run; declaring them touches nothing.
      demoDb: join(scratch, "demo.db"),
    })
      .list()
      .concat(
        metaTools({
          seam: () => {
            throw new Error("declarations only");
          },
          outputs: {
            put: () => Promise.reject(new Error("declarations only")),
            get: () => Promise.reject(new Error("declarations only")),
          },
        }),
      );
    return {
      tools,
      triage: {
        publishing: [],
        directed: [
          {
            tool: "shell_exec",
            package: "toolreg",
            why: "runs a command in a sandbox without network on the host: destructive, and local",
          },
          {
            tool: "alerts_write",
            package: "toolreg",
            why: "notifies a person of the deployment's own team, never a public audience",
          },
          {
            tool: "http_write",
            package: "toolreg",
            why: "its destination is an argument, so its publicness is the call's: a generic escape hatch, gated always",
          },
        ],
      },
      reviewedOverrides: [
        { tool: "fetch_url", field: "approval" },
        { tool: "fetch_json", field: "approval" },
        { tool: "http_request", field: "approval" },
        { tool: "fs_write", field: "approval" },
        { tool: "sql_query", field: "approval" },
        { tool: "sql_write", field: "approval" },
        { tool: "sql_write", field: "idempotencyKey" },
      ],
      docsDir: FIRST_PARTY_DOCS_DIR,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
