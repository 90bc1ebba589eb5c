import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { createExecutionContext } from "../seam/context.js";
import { processIo } from "./cli-io.js";
import { serveTools, type ToolFlags } from "./cli-tools.js";
import { loadSettings } from "./config-file.js";

const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "toolreg-egress-settings-"));
const io = { ...processIo, cwd: dir };
const meta = {
  seam: () => {
    throw new Error("not called");
  },
  outputs: createArtifactOutputStore(createFileArtifactStore(join(dir, "outputs"))),
};
const probe = fileURLToPath(new URL("../../test/fixtures/toolkits/egress-probe-toolkit.ts", import.meta.url));

/** Answers 6 MiB: more than the default 5 MiB cap, a generated video's order of size. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/octet-stream" });
    response.end(Buffer.alloc(6 * MiB, 1));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/video.mp4`;
});
afterAll(async () => {
  server.close();
  await once(server, "close");
  rmSync(dir, { recursive: true, force: true });
});

/** Serves the probe toolkit as the CLI would with this config file and these flags, and fetches the 6 MiB. */
async function fetched(egress: unknown, flags: ToolFlags = {}) {
  writeFileSync(join(dir, "toolreg.config.json"), JSON.stringify({ toolkits: [{ toolkit: probe }], egress }));
  const settings = loadSettings({}, io);
  const served = await serveTools(flags, settings.toolkits, meta, io, {}, settings.egress);
  try {
    const tool = served.tools.find((candidate) => candidate.name === "egress_probe");
    const context = createExecutionContext({ tenantId: "t", principalId: "p", runId: "r", toolCallId: "c" });
    const output = await tool?.run(
      { url },
      {
        ...context,
        signal: new AbortController().signal,
        deadline: Date.now() + 10_000,
        approvalId: undefined,
      },
    );
    return JSON.parse(output as string) as {
      bytesRead: number;
      truncated: boolean;
    };
  } finally {
    await served.close();
  }
}

describe("egress settings from the config file", () => {
  it("a raised maxResponseBytes takes effect; without it the default 5 MiB cap cuts the body", async () => {
    expect(await fetched({ allowAddressClasses: ["loopback"] })).toEqual({
      bytesRead: 5 * MiB,
      truncated: true,
    });
    expect(await fetched({ allowAddressClasses: ["loopback"], maxResponseBytes: 8 * MiB })).toEqual({
      bytesRead: 6 * MiB,
      truncated: false,
    });
  });

  it("merges its reach with --egress-allow: either one lets the address through, neither refuses it", async () => {
    await expect(fetched({ maxResponseBytes: 8 * MiB })).rejects.toMatchObject({
      envelopeCode: "egress_refused",
      details: { rule: "loopback" },
    });
    expect(await fetched({ maxResponseBytes: 8 * MiB }, { egressAllow: ["loopback"] })).toMatchObject({
      truncated: false,
    });
    expect(await fetched({ allowCidrs: ["127.0.0.1/32"] })).toMatchObject({ truncated: true });
  });

  it("refuses values past their ceilings, naming the field", () => {
    const refused = (egress: unknown) => {
      writeFileSync(join(dir, "toolreg.config.json"), JSON.stringify({ egress }));
      return () => loadSettings({}, io);
    };
    expect(refused({ maxResponseBytes: 257 * MiB })).toThrow(/egress\.maxResponseBytes: .*268435456/);
    expect(refused({ maxRequestBytes: 65 * MiB })).toThrow(/egress\.maxRequestBytes/);
    expect(refused({ totalTimeoutMs: 15 * 60_000 + 1 })).toThrow(/egress\.totalTimeoutMs/);
    expect(refused({ allowAddressClasses: ["everywhere"] })).toThrow(/egress\.allowAddressClasses\[0\]/);
    expect(refused({ allowCidrs: ["10.0.0.0/33"] })).toThrow(/egress\.allowCidrs\[0\]: a CIDR/);
    expect(refused({ maxRedirects: 5 })).toThrow(/egress: unknown key "maxRedirects"/);
    expect(refused({ totalTimeoutMs: 15 * 60_000 })().egress).toEqual({ totalTimeoutMs: 900_000 });
  });
});
