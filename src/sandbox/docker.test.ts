import { describe, expect, it } from "vitest";
import { createDockerSandbox, dockerArgs } from "./docker.js";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

const MiB = 1024 * 1024;

describe("docker sandbox argv", () => {
  it("carries every guarantee as a flag", () => {
    const argv = dockerArgs(
      { image: "debian:bookworm-slim", pidsLimit: 64, tmpfsBytes: 8 * MiB },
      { command: "id -u", memoryBytes: 256 * MiB },
    );
    expect(argv).toEqual([
      "docker",
      "run",
      "--rm",
      "--network=none",
      "--read-only",
      "--tmpfs",
      `/tmp:rw,nosuid,nodev,size=${8 * MiB}`,
      "--memory",
      String(256 * MiB),
      "--memory-swap",
      String(256 * MiB),
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--user",
      "65534:65534",
      "--pids-limit",
      "64",
      "--ulimit",
      "core=0",
      "--workdir",
      "/tmp",
      "--env",
      "HOME=/tmp",
      "debian:bookworm-slim",
      "/bin/sh",
      "-c",
      "id -u",
    ]);
  });

  it("keeps the command one argument, opens stdin only when given, and caps memory and swap together", () => {
    const command = "echo $HOME; rm -rf / --no-preserve-root";
    const argv = dockerArgs({ image: "alpine" }, { command, memoryBytes: 64 * MiB, stdin: "x" });
    expect(argv.at(-1)).toBe(command);
    expect(argv).toContain("--interactive");
    const memory = argv[argv.indexOf("--memory") + 1];
    expect(argv[argv.indexOf("--memory-swap") + 1]).toBe(memory);
    expect(argv[argv.indexOf("--pids-limit") + 1]).toBe("256");
    const capped = dockerArgs(
      { image: "alpine", pidsLimit: 64 },
      { command, memoryBytes: MiB, pidsLimit: 32 },
    );
    expect(capped[capped.indexOf("--pids-limit") + 1]).toBe("32");
  });

  it("says clearly that no engine runs here", async () => {
    const sandbox = createDockerSandbox({ image: "alpine" });
    expect(sandbox.argv({ command: "true", memoryBytes: MiB })).toContain("--network=none");
    const run = sandbox.run({
      command: "true",
      timeoutMs: 1000,
      maxOutputBytes: 100,
      memoryBytes: MiB,
      pidsLimit: 16,
    });
    await expect(run).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(run).rejects.toThrow(/no docker engine/);
    expect(() => createDockerSandbox({ image: "" })).toThrow(/image/);
  });
});
