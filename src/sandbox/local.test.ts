import { describe, expect, it } from "vitest";
import { createLocalSandbox, type LocalOptions } from "./local.js";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

describe("local sandbox", () => {
  it("refuses to exist without the explicit unsafe opt-in", () => {
    for (const options of [
      undefined,
      {},
      { allowUnsafeLocalExecution: false },
      { allowUnsafeLocalExecution: "yes" },
    ]) {
      expect(() => createLocalSandbox(options as unknown as LocalOptions)).toThrow(SandboxUnavailableError);
    }
    expect(() => createLocalSandbox({} as LocalOptions)).toThrow(/allowUnsafeLocalExecution: true/);
  });

  it("with the opt-in, runs with the exit code, output cap and timeout", async () => {
    const sandbox = createLocalSandbox({ allowUnsafeLocalExecution: true });
    const base = { timeoutMs: 5_000, maxOutputBytes: 10, memoryBytes: 256 * 1024 * 1024, pidsLimit: 64 };
    expect(await sandbox.run({ ...base, command: "echo 0123456789abc; exit 2" })).toMatchObject({
      exitCode: 2,
      stdout: "0123456789",
      stdoutTruncated: true,
      enforcement: { memory: "process", pids: "none", cgroup: null },
    });
    const slow = await sandbox.run({ ...base, command: "sleep 30 | cat", timeoutMs: 300 });
    expect(slow).toMatchObject({ timedOut: true, limitHit: "timeout" });
    expect(slow.durationMs).toBeLessThan(1_500);
  });
});
