/**
 * @module Chromium as a process group: launched (by playwright-core, which makes it lead its own group) with
 * every switch that keeps its traffic on the session's proxy, found again in /proc by a marker switch, its
 * memory measured over the whole group and the whole group killed at the end.
 */
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";

export interface ChromiumLaunch {
  executablePath: string;
  proxyUrl: string;
  /** A switch Chromium ignores, unique to this session, by which its process is found in /proc. */
  marker: string;
  /** Chromium's own sandbox; impossible when running as root. */
  sandbox: boolean;
  /** The V8 heap ceiling of each renderer, in MiB. */
  heapMiB: number;
  timeoutMs: number;
}

/** The switches that route everything through the proxy and turn off every path around it. */
export function chromiumArguments(launch: ChromiumLaunch): string[] {
  return [
    `--proxy-server=${launch.proxyUrl}`,
    // Chromium sends loopback straight to the host unless told otherwise; "<-loopback>" removes that rule.
    "--proxy-bypass-list=<-loopback>",
    // Names are resolved by the proxy's egress check only: Chromium's own lookups all fail.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--dns-prefetch-disable",
    "--disable-quic",
    // WebRTC may use UDP only through a proxy, and an HTTP proxy carries none: no UDP leaves the browser.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--enforce-webrtc-ip-permission-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    // Features that call Google's services by themselves; they would be refused or allowed by policy, but
    // a page's session is no place for the browser's own traffic.
    "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate,CertificateTransparencyComponentUpdater",
    "--disable-sync",
    "--no-first-run",
    "--no-pings",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    `--js-flags=--max-old-space-size=${launch.heapMiB}`,
    launch.marker,
  ];
}

/** Launches Chromium headless; the caller owns the returned group. */
export async function launchChromium(
  launch: ChromiumLaunch,
): Promise<{ browser: Browser; group: number; profileDir: string | undefined }> {
  const browser = await chromium.launch({
    executablePath: launch.executablePath,
    headless: true,
    chromiumSandbox: launch.sandbox,
    timeout: launch.timeoutMs,
    handleSIGHUP: false,
    handleSIGINT: false,
    handleSIGTERM: false,
    args: chromiumArguments(launch),
    // Every process of the group inherits the environment, so each carries the marker there too.
    env: { ...definedEnvironment(), [MARKER_VARIABLE]: launch.marker },
  });
  const found = findChromium(launch.marker);
  if (found === undefined) {
    await browser.close().catch(() => {});
    throw new Error("Chromium started but its process could not be found in /proc");
  }
  return { browser, group: found.group, profileDir: found.profileDir };
}

/** The environment variable that carries a session's marker into every Chromium process. */
export const MARKER_VARIABLE = "TOOLREG_BROWSER_SESSION";

function definedEnvironment(): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) defined[name] = value;
  return defined;
}

/**
 * Whether the group still holds a process of this session: one that carries the marker in its command
 * line or its environment. A group number outlives its processes and may be handed to another group, so
 * it is confirmed before it is killed or measured.
 */
export function groupCarries(group: number, marker: string): boolean {
  return groupMembers(group).some(
    (pid) =>
      readProc(pid, "cmdline")?.split("\0").includes(marker) === true ||
      readProc(pid, "environ")?.split("\0").includes(`${MARKER_VARIABLE}=${marker}`) === true,
  );
}

/** SIGKILL to the group, only once it is confirmed to be this session's; false when it was not. */
export function killSessionGroup(group: number, marker: string): boolean {
  if (!groupCarries(group, marker)) return false;
  killGroup(group);
  return true;
}

/**
 * Waits until no live process is left in the group, at most `timeoutMs`. A SIGKILLed process lingers until
 * the kernel has torn it down, which under load takes a while; a session counts as closed only after that.
 */
export async function groupGone(group: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupMembers(group).length > 0) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** The temporary profile Playwright made, which a killed browser may leave behind; only under the temp folder. */
function profileDirOf(commandLine: readonly string[]): string | undefined {
  const flag = commandLine.find((part) => part.startsWith("--user-data-dir="));
  const dir = flag?.slice("--user-data-dir=".length);
  return dir?.startsWith(join(tmpdir(), "playwright_")) && !dir.includes("..") ? dir : undefined;
}

function findChromium(marker: string): { group: number; profileDir: string | undefined } | undefined {
  for (const pid of processIds()) {
    const commandLine = readProc(pid, "cmdline")?.split("\0");
    if (commandLine?.includes(marker)) {
      const group = statField(pid, 5);
      if (group !== undefined && group > 1) return { group, profileDir: profileDirOf(commandLine) };
    }
  }
  return undefined;
}

/** The process group of the process whose command line holds `marker`. */
export function findGroup(marker: string): number | undefined {
  return findChromium(marker)?.group;
}

/** The live processes of a group. */
export function groupMembers(group: number): number[] {
  return processIds().filter((pid) => statField(pid, 5) === group && statField(pid, 3) !== undefined);
}

/**
 * The memory a group's processes hold, summed as proportional set size (`Pss` in smaps_rollup): a page
 * shared by n processes counts 1/n in each, so the sum is what the group costs. Chromium's processes share
 * most of their pages; summing their RSS instead counted a few tabs as over 1 GiB. RSS is the fallback
 * where smaps_rollup cannot be read (it errs high, the safe side for a cap).
 */
export function groupResidentBytes(group: number): number {
  let total = 0;
  for (const pid of groupMembers(group)) {
    const rollup = readProc(pid, "smaps_rollup");
    const pss = rollup ? /^Pss:\s+(\d+) kB/m.exec(rollup) : null;
    if (pss) {
      total += Number(pss[1]) * 1024;
      continue;
    }
    const statm = readProc(pid, "statm");
    const pages = statm ? Number(statm.split(" ")[1]) : 0;
    if (Number.isFinite(pages)) total += pages * 4096;
  }
  return total;
}

/** SIGKILL to the whole group; a group already gone is not an error. */
export function killGroup(group: number): void {
  try {
    process.kill(-group, "SIGKILL");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

function processIds(): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number);
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * A numbered field of /proc/<pid>/stat (1-based, as proc(5) counts); 3 is the state, 5 the group. Zombies
 * (state Z) are dead and count as gone. The name in field 2 may hold spaces, so fields count from its ")".
 */
function statField(pid: number, field: number): number | undefined {
  const stat = readProc(pid, "stat");
  if (!stat) return undefined;
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (rest[0] === "Z") return undefined;
  if (field === 3) return 0;
  const value = Number(rest[field - 3]);
  return Number.isFinite(value) ? value : undefined;
}
