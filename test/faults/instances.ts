/** @module `toolreg serve` processes for the fault run: started as a user would, killed as a crash would. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
export const COUNTING = fileURLToPath(new URL("../fixtures/counting/catalogue.mjs", import.meta.url));

export interface Instance {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed on stdout so far. */
  stdout(): string;
  /** Resolves with its exit code (or signal) once it is gone. */
  readonly exited: Promise<number | string | null>;
}

/** Starts `toolreg [args] serve --port 0` in `cwd`; resolves once it listens. */
export function startServe(
  name: string,
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Instance> {
  const child = spawn(process.execPath, [CLI, ...args, "serve", "--port", "0"], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${out}${err}`)), 30_000);
    const check = () => {
      const url = /toolreg registry on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ name, url, child, stdout: () => out, exited });
    };
    child.stdout?.on("data", check);
    void exited.then((code) =>
      reject(new Error(`${name} exited (${code}) before it listened: ${out}${err}`)),
    );
  });
}

/** An API key made with `toolreg keys create`, as an operator would; `db` is a SQLite file or a postgres:// URL. */
export function createKey(
  cwd: string,
  db: string,
  principal: string,
  operator = false,
  tenant = "faults",
): string {
  const args = ["--db", db, "--tenant", tenant, "--principal", principal, "keys", "create"];
  if (operator) args.push("--operator");
  // Its note on stderr ("shown once") would come between the figures; a failure still carries it.
  return execFileSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", stdio: "pipe" }).trim();
}
