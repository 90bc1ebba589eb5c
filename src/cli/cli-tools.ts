/**
 * @module The tools the CLI serves, wired from its flags: web tools through an egress client with the
 * default policy (plus any address classes or CIDRs the operator allows), file tools under the given
 * roots, file_generate into the given artifacts folder, SQL tools on the given databases, shell_exec
 * when bubblewrap works on this machine, and the meta-tools over the CLI's own seam. A flag left out means the tools it would enable do not exist.
 */
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { metaTools } from "../catalog/meta/index.js";
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";
import { ADDRESS_CLASSES } from "../egress/classify-address.js";
import { createEgressClient } from "../egress/egress-client.js";
import type { McpImport } from "../mcp/import/mcp-server.js";
import type { AnyTool } from "../registry/registry.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { OutputStore } from "../seam/output-store.js";
import type { Seam } from "../seam/seam.js";
import { createDefaultRegistry, describeSandbox, detectSandbox } from "../tools/index.js";
import type { SqlReader, SqlWriter } from "../tools/sql/index.js";
import { UsageError } from "./cli-io.js";
import { egressAllowing } from "./egress-allow.js";

export interface ToolFlags {
  artifactsDir?: string;
  /** The demo toolkit's dataset; only `serve` sets it. */
  demoDb?: string;
  readRoot?: string;
  writeRoot?: string;
  sqlRead?: string;
  sqlWrite?: string;
  egressAllow?: string[];
}

export interface ServedTools {
  tools: readonly AnyTool[];
  /** MCP servers whose tools are among `tools`; a long-running command follows their changes. */
  imports?: readonly McpImport[];
  /** Closes database connections the tools hold. */
  close(): Promise<void>;
}

/** What the meta-tools need from the host: the seam they call back into, and where cut outputs are kept. */
export interface MetaHost {
  seam: () => Seam;
  outputs: OutputStore;
  embeddings?: EmbeddingProvider;
}

export async function serveTools(flags: ToolFlags, meta: MetaHost): Promise<ServedTools> {
  const policy = egressAllowing(
    flags.egressAllow ?? [],
    (entry) =>
      new UsageError(
        `--egress-allow ${entry}: not an address class (${ADDRESS_CLASSES.join(", ")}) or a CIDR`,
      ),
  );
  const sqlReader = flags.sqlRead ? await openDatabase(flags.sqlRead, "read") : undefined;
  const sqlWriter = flags.sqlWrite ? await openDatabase(flags.sqlWrite, "write") : undefined;
  try {
    const egress = createEgressClient({ policy });
    const tools = createDefaultRegistry({
      egress,
      // shell_exec exists only where a real sandbox works; there is no unsandboxed fallback.
      sandbox: detectSandboxAndWarn(),
      ...(flags.artifactsDir ? { artifacts: createFileArtifactStore(flags.artifactsDir) } : {}),
      readRoot: flags.readRoot,
      writeRoot: flags.writeRoot,
      sqlReader: sqlReader as SqlReader | undefined,
      sqlWriter: sqlWriter as SqlWriter | undefined,
      ...(flags.demoDb ? { demoDb: flags.demoDb } : {}),
    })
      .list()
      .concat(metaTools(meta));
    return {
      tools,
      close: async () => {
        await Promise.all([sqlReader?.close(), sqlWriter?.close()]);
      },
    };
  } catch (error) {
    await Promise.all([sqlReader?.close(), sqlWriter?.close()]);
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

let warnedOfSandbox = false;

/** The host's sandbox; says once on stderr when its limits hold per process only, because no cgroup can be made. */
function detectSandboxAndWarn(): Sandbox | undefined {
  const sandbox = detectSandbox();
  if (sandbox && sandbox.enforcement.memory !== "command" && !warnedOfSandbox) {
    warnedOfSandbox = true;
    process.stderr.write(`warning: ${describeSandbox(sandbox)}\n`);
  }
  return sandbox;
}

/** `sqlite:PATH` or a `postgres://` URL; the drivers load only when asked for. */
async function openDatabase(url: string, mode: "read" | "write"): Promise<SqlReader | SqlWriter> {
  const flag = mode === "read" ? "--sql-read" : "--sql-write";
  try {
    if (url.startsWith("sqlite:")) {
      const { openSqliteReader, openSqliteWriter } = await import("../tools/sql/adapters/sqlite.js");
      const path = url.slice("sqlite:".length);
      return mode === "read" ? openSqliteReader({ path, readOnly: true }) : openSqliteWriter({ path });
    }
    if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
      const { openPostgresReader, openPostgresWriter } = await import("../tools/sql/adapters/postgres.js");
      return mode === "read"
        ? openPostgresReader({ connection: url, readOnly: true })
        : openPostgresWriter({ connection: url });
    }
  } catch (error) {
    throw new UsageError(`${flag} ${url}: ${(error as Error).message}`);
  }
  throw new UsageError(`${flag} ${url}: expected sqlite:PATH or postgres://…`);
}
