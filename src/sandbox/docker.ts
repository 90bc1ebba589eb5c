/** @module The docker sandbox: builds the `docker run` argv whose flags carry every guarantee. */
import type { Sandbox, SandboxResult, SandboxRunRequest } from "./sandbox.js";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

export interface DockerOptions {
  /** The image to run in; it needs `/bin/sh`. */
  image: string;
  /** Default `docker`. */
  dockerPath?: string;
  /** Size of the one writable mount, `/tmp`; default 64 MiB. */
  tmpfsBytes?: number;
  /** Most processes the container may hold at once when the request names none; default 256. */
  pidsLimit?: number;
}

const NOBODY = "65534:65534";

/** What of a request the argv carries. */
export type DockerArgvRequest = Pick<SandboxRunRequest, "command" | "memoryBytes" | "stdin"> &
  Partial<Pick<SandboxRunRequest, "pidsLimit">>;

/** The `docker run` argv for one request, program first. Tests assert these flags, not only outputs. */
export function dockerArgs(options: DockerOptions, request: DockerArgvRequest): string[] {
  const tmpfsBytes = options.tmpfsBytes ?? 64 * 1024 * 1024;
  return [
    options.dockerPath ?? "docker",
    "run",
    "--rm",
    ...(request.stdin === undefined ? [] : ["--interactive"]),
    "--network=none",
    "--read-only",
    "--tmpfs",
    `/tmp:rw,nosuid,nodev,size=${tmpfsBytes}`,
    "--memory",
    String(request.memoryBytes),
    // Equal to --memory: no swap on top of the cap.
    "--memory-swap",
    String(request.memoryBytes),
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--user",
    NOBODY,
    "--pids-limit",
    String(request.pidsLimit ?? options.pidsLimit ?? 256),
    "--ulimit",
    "core=0",
    "--workdir",
    "/tmp",
    "--env",
    "HOME=/tmp",
    options.image,
    "/bin/sh",
    "-c",
    request.command,
  ];
}

/** The docker adapter: its argv is built and tested, but no engine is driven from here yet. */
export class DockerSandbox implements Sandbox {
  readonly name = "docker";
  readonly options: DockerOptions;

  constructor(options: DockerOptions) {
    if (!options.image) throw new TypeError("the docker sandbox needs an image");
    this.options = options;
  }

  argv(request: DockerArgvRequest): string[] {
    return dockerArgs(this.options, request);
  }

  run(_request: SandboxRunRequest): Promise<SandboxResult> {
    return Promise.reject(
      new SandboxUnavailableError(
        this.name,
        "no docker engine: the docker adapter only builds the `docker run` argv (see dockerArgs); use bubblewrap to run commands",
      ),
    );
  }
}

export function createDockerSandbox(options: DockerOptions): DockerSandbox {
  return new DockerSandbox(options);
}
