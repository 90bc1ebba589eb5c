import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { CGROUP_V1_MAGIC, CGROUP_V2_MAGIC, isFilesystem, parseOwnCgroups } from "./cgroup-files.js";
import { LAUNCH_FAILED_EXIT, LAUNCH_FAILED_MARKER, launchInCgroup } from "./cgroup-launcher.js";
import { detectCgroups } from "./detect-cgroups.js";
import { detectSandbox } from "./detect-sandbox.js";

const MiB = 1024 * 1024;
const scratch = mkdtempSync(join(tmpdir(), "toolreg-cgroup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("this process's cgroups", () => {
  it("reads v1 controllers and the v2 path from /proc/self/cgroup's format", () => {
    const own = parseOwnCgroups(
      "12:pids:/user.slice\n4:memory:/process_api/abc\n2:cpu,cpuacct:/\n1:name=systemd:/init.scope\n0::/user.slice/app\n",
    );
    expect(Object.fromEntries(own.v1)).toEqual({
      pids: "/user.slice",
      memory: "/process_api/abc",
      cpu: "/",
      cpuacct: "/",
      "name=systemd": "/init.scope",
    });
    expect(own.v2).toBe("/user.slice/app");
    expect(parseOwnCgroups("0::/\n")).toEqual({ v1: new Map(), v2: "/" });
  });
});

describe("the launcher", () => {
  it("writes its own pid, which the program it execs keeps, before that program runs", () => {
    const procs = [join(scratch, "a.procs"), join(scratch, "b.procs")];
    const [file, ...args] = launchInCgroup(procs, ["/bin/sh", "-c", `echo $$; cat ${procs[0]}`]);
    const run = spawnSync(file as string, args, { encoding: "utf8" });
    expect(run.status).toBe(0);
    const [ownPid, written] = run.stdout.trim().split("\n");
    // The exec'd shell has the launcher's pid, and found it already written when it started.
    expect(written).toBe(ownPid);
    expect(readFileSync(procs[1] as string, "utf8").trim()).toBe(ownPid);
  });

  it("does not run the program when it cannot join, and says so", () => {
    const marker = join(scratch, "ran");
    const [file, ...args] = launchInCgroup([join(scratch, "absent", "cgroup.procs")], ["/bin/touch", marker]);
    const run = spawnSync(file as string, args, { encoding: "utf8" });
    expect(run.status).toBe(LAUNCH_FAILED_EXIT);
    expect(run.stderr).toContain(LAUNCH_FAILED_MARKER);
    expect(() => readFileSync(marker)).toThrow();
  });

  it("drops to the given account with setpriv after joining", () => {
    const argv = launchInCgroup(["/x/cgroup.procs"], ["/usr/bin/bwrap"], { runAs: 65534 });
    expect(argv.slice(-7)).toEqual([
      "/x/cgroup.procs",
      "/usr/bin/setpriv",
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "--",
      "/usr/bin/bwrap",
    ]);
  });
});

describe.runIf(process.platform === "linux")("finding a cgroup hierarchy", () => {
  it("finds none under a directory that is no cgroup filesystem", () => {
    expect(detectCgroups({ root: scratch })).toEqual({ reason: `no cgroup filesystem at ${scratch}` });
  });

  it.runIf(isFilesystem("/sys/fs/cgroup/memory", CGROUP_V1_MAGIC))(
    "v1: names a cgroup of ours it cannot see",
    () => {
      const own = {
        v1: new Map([
          ["memory", "/not/ours"],
          ["pids", "/"],
        ]),
        v2: undefined,
      };
      expect(detectCgroups({ ownCgroups: own }).reason).toBe(
        "this process's v1 memory cgroup /not/ours is not visible at /sys/fs/cgroup/memory/not/ours",
      );
    },
  );

  const unified = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].find((path) =>
    isFilesystem(path, CGROUP_V2_MAGIC),
  );
  const controllers = unified ? readFileSync(join(unified, "cgroup.controllers"), "utf8") : "";
  it.runIf(unified !== undefined && !/\bmemory\b/.test(controllers))(
    "v2: a unified hierarchy without the memory controller is not used, and says why",
    () => {
      const support = detectCgroups({ root: unified, ownCgroups: { v1: new Map(), v2: "/" } });
      expect(support.hierarchy).toBeUndefined();
      expect(support.reason).toMatch(/^cgroup v2 at .* has no memory or pids controller|pids controller/);
    },
  );
});

const sandbox = detectSandbox();
const required = process.env.CI === "true";
if (!sandbox && !required) console.warn("cgroup.test.ts: fallback runs skipped — no working /usr/bin/bwrap");

describe.runIf(sandbox !== undefined)("bubblewrap where no cgroup can be made", () => {
  const fallback = new BubblewrapSandbox({ cgroupRoot: scratch });
  const base = { timeoutMs: 10_000, maxOutputBytes: 4096, memoryBytes: 128 * MiB, pidsLimit: 16 };

  it("says so: memory per process (RLIMIT_AS), no process limit, and why", () => {
    expect(fallback.enforcement).toEqual({
      memory: "process",
      pids: "none",
      cgroup: null,
      reason: `no cgroup filesystem at ${scratch}`,
    });
  });

  it("still runs, with the per-process memory cap, and each result says which limits held", async () => {
    const result = await fallback.run({ ...base, command: "echo hi" });
    expect(result).toMatchObject({ exitCode: 0, stdout: "hi\n", limitHit: null });
    expect(result.enforcement).toEqual(fallback.enforcement);
    expect(result.cgroup).toBeUndefined();
    const big = await fallback.run({ ...base, command: "perl -e '$x = q(a) x (300 * 1024 * 1024)'" });
    expect(big).toMatchObject({ limitHit: "memory", memoryLimitHit: true });
  });

  it("does not cap processes: 40 at once under a limit of 16 all run", async () => {
    const result = await fallback.run({
      ...base,
      command: "for i in $(seq 40); do sleep 0.3 & done; wait; echo finished",
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: "finished\n", limitHit: null });
  });
});
