/** @module Finds a sandbox that works on this host, by running one; never guesses from the platform alone. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { type BubblewrapOptions, BubblewrapSandbox } from "./bubblewrap.js";

/** A bubblewrap sandbox when bwrap exists and can start a command here, else undefined. */
export function detectSandbox(options: BubblewrapOptions = {}): BubblewrapSandbox | undefined {
  if (process.platform !== "linux" || !existsSync(options.bwrapPath ?? "/usr/bin/bwrap")) return undefined;
  const sandbox = new BubblewrapSandbox(options);
  const [file, ...args] = sandbox.argv({ command: "exit 0", memoryBytes: 256 * 1024 * 1024 });
  if (file === undefined) return undefined;
  const identity = sandbox.hostId === undefined ? {} : { uid: sandbox.hostId, gid: sandbox.hostId };
  const probe = spawnSync(file, args, { env: {}, stdio: "ignore", timeout: 5_000, ...identity });
  return probe.status === 0 ? sandbox : undefined;
}
