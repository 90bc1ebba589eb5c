/**
 * @module Benchmark target: the registry server with the first-party tools a `toolreg serve` has without SQL
 * or a shell sandbox (general, web, data, files, generate, the demo toolkit and the meta-tools), on a
 * scratch SQLite store, with one active-mode API key. Runs in its own process; see spawn-target.ts.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArtifactOutputStore } from "../../src/artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../../src/artifacts/file-artifact-store.js";
import { metaTools } from "../../src/catalog/meta/index.js";
import { createEgressClient } from "../../src/egress/egress-client.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { createDefaultRegistry } from "../../src/tools/index.js";
import { runTarget } from "./run-target.js";

export interface ToolregReady {
  url: string;
  key: string;
  tools: number;
}

runTarget<unknown, ToolregReady>(async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-bench-server-"));
  const readRoot = join(directory, "read");
  const writeRoot = join(directory, "write");
  mkdirSync(readRoot);
  mkdirSync(writeRoot);
  const outputs = createArtifactOutputStore(createFileArtifactStore(join(directory, "outputs")));
  // The meta-tools call back into the seam of the server that serves them, built after the registry.
  let server: RegistryServer | undefined;
  const registry = new ToolRegistry([
    ...createDefaultRegistry({
      egress: createEgressClient(),
      readRoot,
      writeRoot,
      artifacts: createFileArtifactStore(join(directory, "artifacts")),
      demoDb: join(directory, "demo.db"),
    }).list(),
    ...metaTools({ seam: () => server!.seam, outputs }),
  ]);
  server = openRegistryServer({
    registry,
    store: join(directory, "toolreg.db"),
    logger: silentLogger,
    outputs,
  });
  const { key } = await server.auth.createKey({
    tenantId: "bench",
    principalId: "bench-agent",
    mode: "active",
  });
  const listening = await listen(server, { port: 0 });
  return {
    ready: { url: listening.url, key, tools: registry.list().length },
    async stop() {
      await listening.stop(2_000);
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
