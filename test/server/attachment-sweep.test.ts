/**
 * The server's housekeeping for attachments: when it starts, it reconciles (bytes a crash left that nothing
 * names are deleted) and its sweep purges expired attachments with the bytes nothing names any more, while a
 * live attachment and its bytes stay.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { openRegistryServer } from "../../src/server/registry-server.js";
import { attachmentBlobPath } from "../../src/stores/sqlite/attachments.js";
import { openSqliteDeployment } from "../../src/stores/sqlite/index.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-attachment-sweep-"));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

it("reconciles when the server starts and purges expired attachments at its sweep", async () => {
  const path = join(dir, "toolreg.db");
  const blobs = `${path}.attachments`;
  const blob = (text: string) => attachmentBlobPath(blobs, "acme", sha(text));
  const writer = openSqliteDeployment(path);
  const owner = { tenantId: "acme", principalId: "ada" };
  const add = (text: string, now: number) =>
    writer.attachments.add(owner, {
      name: `${text}.txt`,
      mediaType: "text/plain",
      bytes: new TextEncoder().encode(text),
      now,
      retentionMs: DAY,
    });
  expect(await add("expired", Date.now() - 2 * DAY)).toMatchObject({ added: true });
  const live = await add("live", Date.now());
  await writer.close();
  writeFileSync(join(dirname(blob("live")), sha("orphan")), "orphan");
  expect([blob("expired"), blob("live"), blob("orphan")].map(existsSync)).toEqual([true, true, true]);

  const server = openRegistryServer({ registry: new ToolRegistry([]), store: path, logger: silentLogger });
  try {
    const until = Date.now() + 5_000;
    while ((existsSync(blob("expired")) || existsSync(blob("orphan"))) && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect([blob("expired"), blob("live"), blob("orphan")].map(existsSync)).toEqual([false, true, false]);
    const reader = openSqliteDeployment(path);
    try {
      const id = live.added ? live.attachment.id : "";
      expect((await reader.attachments.read({ ...owner, runId: "r" }, id))?.attachment.name).toBe("live.txt");
    } finally {
      await reader.close();
    }
  } finally {
    await server.close();
  }
});
