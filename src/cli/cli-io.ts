/** @module What a CLI command writes to and where it runs, so tests can run the CLI in process. */

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: Record<string, string | undefined>;
}

/** A usage error: printed as one line, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  env: process.env,
};
