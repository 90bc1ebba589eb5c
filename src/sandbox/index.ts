/** @module The sandbox port and its adapters: where `shell_exec` runs commands. */
export {
  type BubblewrapOptions,
  BubblewrapSandbox,
  bubblewrapArgs,
  createBubblewrapSandbox,
} from "./bubblewrap.js";
export { detectSandbox } from "./detect-sandbox.js";
export {
  createDockerSandbox,
  type DockerArgvRequest,
  type DockerOptions,
  DockerSandbox,
  dockerArgs,
} from "./docker.js";
export { createLocalSandbox, type LocalOptions, LocalSandbox } from "./local.js";
export type {
  CgroupReport,
  Sandbox,
  SandboxEnforcement,
  SandboxLimit,
  SandboxResult,
  SandboxRunRequest,
} from "./sandbox.js";
export { SandboxUnavailableError } from "./sandbox-unavailable-error.js";
