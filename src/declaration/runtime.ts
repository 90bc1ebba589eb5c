/**
 * @module Which tools run on a host's runtime: the version a caller names, checked against the `runtime`
 * range a tool declares. Discovery over HTTP, the manifest and bus discovery all filter with these two.
 */
import semver from "semver";

/** The runtime version a caller names, normalized (`v2.3.0` → `2.3.0`), or null when it is not one. */
export function parseRuntimeVersion(value: string): string | null {
  return value.length > 64 ? null : semver.valid(value);
}

/** Whether a tool runs on `version`. A tool that declares no range runs on every runtime; a prerelease host counts. */
export function runsOnRuntime(tool: { readonly runtime?: string | undefined }, version: string): boolean {
  return !tool.runtime || semver.satisfies(version, tool.runtime, { includePrerelease: true });
}
