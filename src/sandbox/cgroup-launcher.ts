/**
 * @module The launcher: a `/bin/sh` that writes its own pid into the command's cgroups and only then execs
 * the sandbox, so every process of the command, the first included, starts inside them.
 */

/** The launcher's exit status when it could not join a cgroup; the command never started. */
export const LAUNCH_FAILED_EXIT = 125;
/** Begins the line the launcher writes to stderr when it could not join a cgroup. */
export const LAUNCH_FAILED_MARKER = "toolreg-launch: could not join cgroup";

// $1 is how many cgroup.procs files follow; after them comes the argv to exec. Written as root where the
// server is root: cgroup v2 lets only a writer of the common ancestor's cgroup.procs move a process.
const SCRIPT = [
  'n="$1"; shift',
  'while [ "$n" -gt 0 ]; do',
  `  echo "$$" > "$1" || { echo "${LAUNCH_FAILED_MARKER} $1" >&2; exit ${LAUNCH_FAILED_EXIT}; }`,
  "  shift; n=$((n - 1))",
  "done",
  'exec "$@"',
].join("\n");

export interface LaunchOptions {
  /** The host uid and gid to drop to after joining, before the exec; undefined to stay as this process. */
  runAs?: number;
  /** Drops the launcher's privileges; default `/usr/bin/setpriv`. */
  setprivPath?: string;
}

/** The argv that joins `procsFiles` and then execs `argv`, as `runAs` where given. */
export function launchInCgroup(
  procsFiles: readonly string[],
  argv: readonly string[],
  options: LaunchOptions = {},
): string[] {
  const drop =
    options.runAs === undefined
      ? []
      : [
          options.setprivPath ?? "/usr/bin/setpriv",
          `--reuid=${options.runAs}`,
          `--regid=${options.runAs}`,
          "--clear-groups",
          "--",
        ];
  return [
    "/bin/sh",
    "-c",
    SCRIPT,
    "toolreg-launch",
    String(procsFiles.length),
    ...procsFiles,
    ...drop,
    ...argv,
  ];
}
