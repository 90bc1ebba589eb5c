/**
 * @module The built CLI's `toolreg serve` as a user starts it, for end-to-end tests: a process in its own
 * folder, its registry URL once it says where it listens, keys made by `toolreg keys create`, and a tool
 * invoked over HTTP as one of those keys in a named run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { expect } from "vitest";
import { CLI, runToolreg } from "../cli/run-cli.js";

export interface ServeProcess {
  url: string;
  child: ChildProcess;
}

/** `toolreg serve --port 0 [args]` in `cwd`, once it has printed its registry URL and its console link. */
export function startServe(
  cwd: string,
  { env = {}, args = [] }: { env?: Record<string, string>; args?: readonly string[] } = {},
): Promise<ServeProcess> {
  let stdout = "";
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed only: ${stdout}`)), 20_000);
    child.on("exit", (code) => reject(new Error(`serve exited with ${code}: ${stdout}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /toolreg registry on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url && /console: .*\n/.test(stdout)) {
        clearTimeout(timer);
        resolve({ url, child });
      }
    });
  });
}

/** A key of `principal` in `tenant`, made by `toolreg keys create` on the state in `cwd`. */
export async function createKey(
  cwd: string,
  tenant: string,
  principal: string,
  env: Record<string, string> = {},
): Promise<string> {
  const created = await runToolreg(
    ["keys", "create", "--tenant", tenant, "--principal", principal],
    cwd,
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  return created.stdout.trim();
}

/** `POST /api/v1/tools/{tool}/invoke` as `key`, in run `run`: the response's status and envelope. */
export async function invokeAs<Envelope>(
  url: string,
  key: string,
  run: string,
  tool: string,
  input: unknown,
): Promise<{ status: number; envelope: Envelope }> {
  const response = await fetch(`${url}/api/v1/tools/${tool}/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-toolreg-run-id": run },
    body: JSON.stringify(input),
  });
  return { status: response.status, envelope: (await response.json()) as Envelope };
}
