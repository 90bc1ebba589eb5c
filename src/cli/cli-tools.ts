/**
 * @module The tools the CLI serves: the toolkits the config file lists (the built-in ones when it lists
 * none), each configured by its entry with the flags as shortcuts (`--read-root` is the files toolkit's
 * readRoot, `--sql-read` the sql toolkit's read …), bound to one host: an egress client per toolkit under
 * the operator's policy (the config file's `egress` caps and reach, plus any address classes or CIDRs
 * `--egress-allow` adds), the sandbox when
 * bubblewrap works here, and the meta-tools over the CLI's own seam. A toolkit left unconfigured serves no tools.
 */

import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { metaTools } from "../catalog/meta/index.js";
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";
import { ADDRESS_CLASSES } from "../egress/classify-address.js";
import type { EgressPolicyInit } from "../egress/egress-policy.js";
import type { McpImport } from "../mcp/import/mcp-server.js";
import { artifactResources } from "../mcp/serve/resources/artifact-resources.js";
import type { McpResourceSource } from "../mcp/serve/resources/resource-source.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { AnyTool } from "../registry/registry.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { OutputStore } from "../seam/output-store.js";
import type { Seam } from "../seam/seam.js";
import { describeSandbox, detectSandbox } from "../tools/index.js";
import { createToolkitHost, type ToolkitStores } from "../tools/toolkit/toolkit-host.js";
import { BUILT_IN_TOOLKITS, loadToolkit } from "../tools/toolkits.js";
import { type CliIo, UsageError } from "./cli-io.js";
import type { ToolkitEntry } from "./config-file.js";
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
  /** MCP resources that come with the tools: the generate toolkit's files, a catalogue module's own. */
  resources?: readonly McpResourceSource[];
  /** Where files are kept (the generate toolkit's `artifactsDir`, else the deployment's): imported MCP servers keep their images there too. */
  artifacts?: ArtifactStore;
  /** Closes database connections the tools hold. */
  close(): Promise<void>;
}

/** What the meta-tools need from the host: the seam they call back into, and where cut outputs are kept. */
export interface MetaHost {
  seam: () => Seam;
  outputs: OutputStore;
  embeddings?: EmbeddingProvider;
}

/** Each flag that configures a toolkit: which toolkit, which field of its configuration. */
const FLAG_FIELDS = [
  ["readRoot", "files", "readRoot"],
  ["writeRoot", "files", "writeRoot"],
  ["artifactsDir", "generate", "artifactsDir"],
  ["sqlRead", "sql", "read"],
  ["sqlWrite", "sql", "write"],
  ["demoDb", "demo", "database"],
] as const satisfies readonly (readonly [keyof ToolFlags, string, string])[];

/**
 * `listed`: the config file's toolkit entries, as `loadSettings` read them (the file is read once);
 * `stores`: the deployment's stores the toolkits keep their state in (the todo lists); `egress`: the
 * config file's egress settings, which `--egress-allow` adds to.
 */
export async function serveTools(
  flags: ToolFlags,
  listed: readonly ToolkitEntry[] | undefined,
  meta: MetaHost,
  io: CliIo,
  stores: ToolkitStores = {},
  egress: EgressPolicyInit = {},
): Promise<ServedTools> {
  const policy = egressPolicyOf(egress, flags.egressAllow ?? []);
  const entries = toolkitEntries(listed, flags);
  // The generate toolkit's own folder when it names one, else the deployment's: every toolkit keeps its files there.
  const artifactsDir = entries.find((entry) => entry.toolkit === "generate")?.config?.artifactsDir;
  const artifacts =
    typeof artifactsDir === "string" ? createFileArtifactStore(artifactsDir) : stores.artifacts;
  const host = createToolkitHost({
    ...stores,
    artifacts,
    egressPolicy: policy,
    // shell_exec exists only where a real sandbox works; there is no unsandboxed fallback.
    sandbox: entries.some((entry) => entry.toolkit === "shell") ? detectSandboxAndWarn() : undefined,
  });
  try {
    const tools: AnyTool[] = [];
    for (const entry of entries) {
      const toolkit = await loadToolkit(entry.toolkit, io.cwd);
      tools.push(...(await toolkit.build(entry.config ?? {}, host, entry)));
    }
    return {
      tools: [...tools, ...metaTools(meta)],
      ...(artifacts ? { resources: [artifactResources(artifacts)], artifacts } : {}),
      close: () => host.close(),
    };
  } catch (error) {
    await host.close();
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

/** The file's egress settings with the reach `--egress-allow` adds: both lists apply. */
export function egressPolicyOf(file: EgressPolicyInit, allow: readonly string[]): EgressPolicyInit {
  const flagged = egressAllowing(
    allow,
    (entry) =>
      new UsageError(
        `--egress-allow ${entry}: not an address class (${ADDRESS_CLASSES.join(", ")}) or a CIDR`,
      ),
  );
  return {
    ...file,
    allowAddressClasses: [...new Set([...flagged.allowAddressClasses, ...(file.allowAddressClasses ?? [])])],
    allowCidrs: [...new Set([...(file.allowCidrs ?? []), ...flagged.allowCidrs])],
  };
}

/** The file's entries (or one per built-in toolkit), with the flags laid over the configuration they name. */
export function toolkitEntries(
  listed: readonly ToolkitEntry[] | undefined,
  flags: ToolFlags,
): ToolkitEntry[] {
  const entries = (listed ?? BUILT_IN_TOOLKITS.map((toolkit): ToolkitEntry => ({ toolkit: toolkit.id }))).map(
    (entry) => ({ ...entry, config: { ...entry.config } }),
  );
  for (const [flag, toolkit, field] of FLAG_FIELDS) {
    const value = flags[flag];
    if (value === undefined) continue;
    let entry = entries.find((candidate) => candidate.toolkit === toolkit);
    if (!entry) {
      entry = { toolkit, config: {} };
      entries.push(entry);
    }
    entry.config[field] = value;
  }
  return entries;
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
