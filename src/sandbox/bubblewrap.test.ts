import { randomInt } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { parseOwnCgroups } from "./cgroup-files.js";
import { detectSandbox } from "./detect-sandbox.js";
import { createLocalSandbox } from "./local.js";
import type { SandboxRunRequest } from "./sandbox.js";

const sandbox = detectSandbox();
const required = process.env.CI === "true";
if (!sandbox && !required) {
  console.warn("bubblewrap.test.ts: skipped — /usr/bin/bwrap is missing or cannot start a sandbox here");
}
const cgroups = sandbox?.enforcement.cgroup ?? null;
if (sandbox && !cgroups && !required) {
  console.warn(
    `bubblewrap.test.ts: command-cgroup tests skipped — ${sandbox.enforcement.reason ?? "no cgroups"}`,
  );
}

const MiB = 1024 * 1024;
const base = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024, memoryBytes: 256 * MiB, pidsLimit: 256 };
const run = (request: Partial<SandboxRunRequest> & { command: string }) => {
  if (!sandbox) throw new Error("no sandbox");
  return sandbox.run({ ...base, ...request });
};

/** Host processes whose command line contains `marker`, read from /proc so no procps is needed. */
function survivors(marker: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (commandLine.includes(marker)) found.push(`${pid}: ${commandLine}`);
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

/** A sleep duration nobody else uses, so a survivor can be found by its command line. */
const uniqueSleep = () => `${randomInt(100, 900)}.${randomInt(100_000, 999_999)}`;

describe("bubblewrap availability", () => {
  it.runIf(!sandbox && required)("is installed and works under CI=true", () => {
    expect.fail("CI=true but /usr/bin/bwrap is missing or cannot start a sandbox; install bubblewrap");
  });
  it.runIf(sandbox !== undefined && !cgroups && required)("makes command cgroups under CI=true", () => {
    expect.fail(`CI=true but the sandbox cannot make command cgroups: ${sandbox?.enforcement.reason}`);
  });
});

describe.runIf(sandbox !== undefined)("bubblewrap sandbox, for real", () => {
  it("builds the argv with every isolation flag", () => {
    const argv = sandbox?.argv({ command: "true", memoryBytes: 123 * MiB }) ?? [];
    const joined = argv.join(" ");
    for (const flag of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
      "--cap-drop ALL",
      "--uid 65534",
      "--tmpfs /tmp",
      "--remount-ro /",
      "--clearenv",
      `--as=${123 * MiB}`,
    ]) {
      expect(joined).toContain(flag);
    }
    expect(argv.slice(-3)).toEqual(["/bin/sh", "-c", "true"]);
  });

  it("reports the exit code; not uid 0, no capabilities, no new privileges", async () => {
    const result = await run({
      command: "id -u; grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs)' /proc/self/status; exit 7",
    });
    expect(result).toMatchObject({ exitCode: 7, timedOut: false, limitHit: null });
    const [uid, ...status] = result.stdout.trim().split("\n");
    expect(Number(uid)).toBeGreaterThan(0);
    expect(status).toEqual([
      "CapPrm:\t0000000000000000",
      "CapEff:\t0000000000000000",
      "CapBnd:\t0000000000000000",
      "NoNewPrivs:\t1",
    ]);
  });

  describe("network", () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections++;
        socket.end("hello\n");
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("cannot connect to a port the host is listening on", async () => {
      const connect = `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && head -n 1 <&3'`;
      // The control: the same command on the host does connect, so the refusal below is the sandbox's.
      const local = createLocalSandbox({ allowUnsafeLocalExecution: true });
      const control = await local.run({ ...base, command: connect });
      expect(control).toMatchObject({ exitCode: 0, stdout: "hello\n" });
      const before = connections;
      const result = await run({ command: `${connect}; echo "exit $?"; cat /proc/net/dev | tail -n +3` });
      expect(result.stdout).not.toContain("hello");
      expect(result.stdout).toMatch(/exit [1-9]/);
      expect(result.stdout).toMatch(/^\s*lo:/m); // only loopback, and it is the sandbox's own
      expect(
        result.stdout
          .trim()
          .split("\n")
          .filter((line) => line.includes(":")),
      ).toHaveLength(1);
      expect(connections).toBe(before);
    });
  });

  it("has a read-only root and one writable, size-bounded tmpfs at /tmp", async () => {
    const result = await run({
      command: [
        "for p in /etc/x /usr/x /x /proc/x; do (echo x > $p) 2>/dev/null && echo wrote $p || echo refused $p; done",
        "echo data > /tmp/x && cat /tmp/x",
        "head -c 100000000 /dev/zero > /tmp/big 2>/dev/null || echo tmp full",
        "ls /",
      ].join("; "),
    });
    const lines = result.stdout.trim().split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "refused /etc/x",
      "refused /usr/x",
      "refused /x",
      "refused /proc/x",
      "data",
      "tmp full",
    ]);
    // Host directories beyond the read-only system ones are not there at all.
    expect(lines.slice(6)).not.toContain("home");
    expect(lines.slice(6)).not.toContain("root");
    expect(lines.slice(6)).not.toContain("work");
  });

  it("caps memory: an allocation beyond the cap ends reported as memory", async () => {
    const result = await run({
      command: "perl -e '$x = q(a) x (300 * 1024 * 1024); print length $x'",
      memoryBytes: 128 * MiB,
    });
    expect(result).toMatchObject({ memoryLimitHit: true, limitHit: "memory", timedOut: false });
    expect(result.exitCode).not.toBe(0);
    const fits = await run({
      command: "perl -e '$x = q(a) x (16 * 1024 * 1024); print length $x'",
      memoryBytes: 128 * MiB,
    });
    expect(fits).toMatchObject({ exitCode: 0, stdout: String(16 * MiB), limitHit: null });
  });

  it.each([
    ["a pipeline", (s: string) => `sleep ${s} | cat`],
    ["a background job and a setsid one", (s: string) => `sleep ${s} & setsid sleep ${s} & wait`],
    [
      "a double-forked daemon",
      (s: string) => `(setsid sh -c 'sleep ${s} & exit 0' </dev/null >/dev/null 2>&1 &); sleep ${s}`,
    ],
  ])("a timeout kills %s and leaves nothing behind", async (_name, command) => {
    const marker = uniqueSleep();
    const started = Date.now();
    const running = run({ command: command(marker), timeoutMs: 500 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(survivors(`sleep ${marker}`).length).toBeGreaterThan(0); // the scan does see them while they live
    const result = await running;
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result).toMatchObject({ timedOut: true, limitHit: "timeout", exitCode: null, signal: "SIGKILL" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(survivors(`sleep ${marker}`)).toEqual([]);
  });

  it("returns at once when the command exits, even if a daemon holds its stdout", async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    const result = await run({ command: `(setsid sleep ${marker} &); echo done`, timeoutMs: 5_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n", timedOut: false });
    expect(Date.now() - started).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(survivors(`sleep ${marker}`)).toEqual([]);
  });

  it("caps stdout and stderr, reports the truncation, and keeps the exit code", async () => {
    const result = await run({
      command: "yes | head -c 100000; head -c 5000 /dev/zero | tr '\\0' e >&2; exit 4",
      maxOutputBytes: 1000,
    });
    expect(result).toMatchObject({ exitCode: 4, stdoutTruncated: true, stderrTruncated: true });
    expect(result.stdout).toBe("y\n".repeat(500));
    expect(result.stderr).toBe("e".repeat(1000));
    const small = await run({ command: "echo hi", maxOutputBytes: 1000 });
    expect(small).toMatchObject({ stdout: "hi\n", stdoutTruncated: false, stderrTruncated: false });
  });

  it("an endless writer is drained, cut, and stopped by the timeout", async () => {
    const result = await run({ command: "yes", timeoutMs: 500, maxOutputBytes: 100 });
    expect(result).toMatchObject({ timedOut: true, stdoutTruncated: true, stdout: "y\n".repeat(50) });
  });

  it("passes stdin and a clean environment", async () => {
    const result = await run({ command: "cat; echo; env | sort", stdin: "from stdin" });
    expect(result.stdout).toContain("from stdin\n");
    expect(result.stdout).toContain("HOME=/tmp");
    expect(result.stdout).not.toMatch(/^CI=|VITEST|NODE_/m);
  });

  it("an abort kills the command like a timeout", async () => {
    const marker = uniqueSleep();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const result = await run({ command: `sleep ${marker} | cat`, signal: controller.signal });
    expect(result).toMatchObject({ limitHit: "aborted", timedOut: false, exitCode: null });
    expect(result.durationMs).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(survivors(`sleep ${marker}`)).toEqual([]);
  });
});

/** The cgroup directories this test process's runs made that are still there, in every hierarchy in use. */
function cgroupsLeft(): string[] {
  const own = parseOwnCgroups(readFileSync("/proc/self/cgroup", "utf8"));
  const parents = [
    join("/sys/fs/cgroup/memory", own.v1.get("memory") ?? "/nonexistent"),
    join("/sys/fs/cgroup/pids", own.v1.get("pids") ?? "/nonexistent"),
    join("/sys/fs/cgroup", own.v2 ?? "/nonexistent"),
  ];
  const prefix = `toolreg-${process.pid}-`;
  return parents.flatMap((parent) =>
    existsSync(parent)
      ? readdirSync(parent)
          .filter((name) => name.startsWith(prefix))
          .map((name) => join(parent, name))
      : [],
  );
}

/** `count` python3 processes that each commit `mib` MiB (bytes * n writes every page) and hold it a while. */
const allocators = (count: number, mib: number, marker: string) =>
  `for i in $(seq ${count}); do python3 -c 'import time; x = b"a" * (${mib} << 20); time.sleep(3)  # ${marker}' & done; wait; echo all done`;

describe.runIf(cgroups !== null)("bubblewrap sandbox, command cgroup", () => {
  it("has python3 inside the sandbox, for the memory tests", async () => {
    expect(await run({ command: "python3 -c 'print(6 * 7)'" })).toMatchObject({
      exitCode: 0,
      stdout: "42\n",
    });
  });

  it("eight processes of 400 MB each under a 512 MiB cap are killed as one, reported as memory", async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    const result = await run({ command: allocators(8, 400, marker), memoryBytes: 512 * MiB });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(result).toMatchObject({
      limitHit: "memory",
      memoryLimitHit: true,
      timedOut: false,
      exitCode: null,
      enforcement: { memory: "command", pids: "command", cgroup: cgroups },
    });
    expect(result.stdout).not.toContain("all done");
    expect(result.cgroup?.oomKills).toBeGreaterThanOrEqual(1);
    // The host gave the command no more than its cap: the cgroup's own high-water mark, swap included.
    const peak = result.cgroup?.peakMemoryBytes ?? Number.NaN;
    expect(peak).toBeLessThanOrEqual(512 * MiB);
    expect(peak).toBeGreaterThan(400 * MiB); // it really committed memory
    console.info(
      `eight allocators: peak ${(peak / MiB).toFixed(1)} MiB, ${result.cgroup?.oomKills} OOM kill(s)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(survivors(marker)).toEqual([]);
    expect(cgroupsLeft()).toEqual([]);
  });

  it("the cap is the command's, not each process's: without the cgroup the same command fits", async () => {
    const perProcess = new BubblewrapSandbox({ cgroupRoot: false });
    // Two processes of 100 MB under 160 MiB: each fits alone, the two together do not.
    const command = allocators(2, 100, uniqueSleep()).replace("time.sleep(3)", "time.sleep(0.2)");
    const alone = await perProcess.run({ ...base, command, memoryBytes: 160 * MiB });
    expect(alone).toMatchObject({ exitCode: 0, stdout: "all done\n", limitHit: null });
    expect(alone.enforcement).toMatchObject({ memory: "process", pids: "none", cgroup: null });
    expect(alone.cgroup).toBeUndefined();
    const together = await run({ command, memoryBytes: 160 * MiB });
    expect(together).toMatchObject({ limitHit: "memory", exitCode: null });
    expect(together.cgroup?.peakMemoryBytes).toBeLessThanOrEqual(160 * MiB);
  });

  it("10,000 forks stop at the pids limit, are reported, and leave nothing behind", async () => {
    const marker = uniqueSleep();
    const started = Date.now();
    // bash, unlike dash, retries a refused fork for seconds: the sandbox ends it at the first refusal.
    const result = await run({
      command: `bash -c 'for i in $(seq 10000); do sleep ${marker} & done; wait; echo finished'`,
      pidsLimit: 64,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({
      limitHit: "processes",
      exitCode: null,
      signal: "SIGKILL",
      timedOut: false,
      memoryLimitHit: false,
    });
    expect(result.stdout).not.toContain("finished");
    expect(result.cgroup?.forksRefused).toBeGreaterThanOrEqual(1);
    // bubblewrap's own two processes and the shell count too; the rest are sleeps.
    expect(result.cgroup?.peakProcesses ?? 64).toBeLessThanOrEqual(64);
    console.info(
      `fork loop: ${result.cgroup?.peakProcesses} processes at most, ${result.cgroup?.forksRefused} fork(s) refused`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(survivors(`sleep ${marker}`)).toEqual([]);
    expect(cgroupsLeft()).toEqual([]);
  });

  it("every process of the command is in its cgroup, which is removed after; this process stays where it was", async () => {
    const membership = readFileSync("/proc/self/cgroup", "utf8");
    const marker = uniqueSleep();
    // Ended by abort once looked at, not by a timeout: on a busy machine the start alone can take a second.
    const controller = new AbortController();
    const running = run({ command: `sleep ${marker} | cat`, signal: controller.signal });
    try {
      // The sleep itself, not the launcher whose command line names it too: on a busy machine the
      // launcher can still be setting up when first looked at, before it exec's bwrap.
      const isSleep = (pid: string | undefined) => {
        try {
          return pid !== undefined && readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "sleep";
        } catch {
          return false;
        }
      };
      let sleeper: string | undefined;
      for (let i = 0; i < 250 && sleeper === undefined; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        sleeper = survivors(`sleep ${marker}`)
          .map((line) => line.split(":")[0])
          .find(isSleep);
      }
      const made = cgroupsLeft();
      expect(made.length).toBe(cgroups === "v1" ? 2 : 1);
      for (const dir of made) {
        const members = readFileSync(join(dir, "cgroup.procs"), "utf8").trim().split("\n");
        expect(members).toContain(sleeper);
        expect(members).not.toContain(String(process.pid));
        // bwrap's own processes are members too: the launcher joined before it exec'd bwrap.
        const commands = members.map((pid) => {
          try {
            return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
          } catch {
            return "";
          }
        });
        expect(commands).toContain("bwrap");
      }
    } finally {
      controller.abort();
    }
    const result = await running;
    expect(result).toMatchObject({ limitHit: "aborted" });
    expect(cgroupsLeft()).toEqual([]);
    expect(readFileSync("/proc/self/cgroup", "utf8")).toBe(membership);
  });

  it("a plain run reports the cgroup's counts and removes it", async () => {
    const result = await run({ command: "echo hi" });
    expect(result).toMatchObject({ exitCode: 0, stdout: "hi\n", limitHit: null });
    expect(result.cgroup).toMatchObject({ version: cgroups, oomKills: 0, forksRefused: 0 });
    expect(cgroupsLeft()).toEqual([]);
  });
});
