/**
 * `npm run test:faults`: exactly-once under faults, across real processes. Three `toolreg serve` on one
 * SQLite store share a catalogue whose tools count their runs in a file; duplicates race, instances are
 * killed with SIGKILL mid-call and stopped past their drain, clients hang up, the store's disk fills up,
 * and the shell sandbox is pushed past its limits. One line per figure; exits 1 if any figure is wrong.
 * Traffic goes to 127.0.0.1 only, bounded in count and time.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { executions, runsOf } from "./executions.js";
import { COUNTING, createKey, type Instance, startServe } from "./instances.js";
import { type Answer, invoke, many, request, sleep, until } from "./requests.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-faults-"));
const db = join(dir, "state.db");
const log = join(dir, "executions.log");
const failures: string[] = [];
const started: Instance[] = [];

function figure(line: string, ok: boolean): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${line}`);
  if (!ok) failures.push(line);
}

const serveCounting = async (name: string, extra: readonly string[] = [], env: NodeJS.ProcessEnv = {}) => {
  const instance = await startServe(name, dir, ["--db", db, "--registry", COUNTING, ...extra], env);
  started.push(instance);
  return instance;
};

const describe = (answer: Answer) =>
  answer.body.ok ? `ok "${answer.body.content}"` : `${answer.status} ${answer.body.error?.code}`;

async function main(): Promise<void> {
  const agent = createKey(dir, db, "agent");
  const operator = createKey(dir, db, "ops", true);
  const [a, b, c] = [await serveCounting("A"), await serveCounting("B"), await serveCounting("C")];
  const round = [a, b, c];
  const on = (index: number) => (round[index % 3] as Instance).url;
  console.log(`three toolreg serve on one store: ${round.map((instance) => instance.url).join(", ")}`);

  // The crash scenarios wait out a lease (a heartbeat and a 30 s grace): they run beside the others.
  const crashes = Promise.all([killMidWrite(agent, a), killMidApprovedCall(agent, operator, a)]);

  const dup = await many(1_000, 100, (index) =>
    invoke(on(index), "count_write", { label: "dup", ms: 200 }, { key: agent, idempotencyKey: "dup-1" }),
  );
  figure(
    `1,000 duplicates of one key → executions: ${runsOf(log, "dup-1")} (answers: ${tally(dup)})`,
    runsOf(log, "dup-1") === 1 && dup.every((answer) => answer.status === 200 || answer.status === 409),
  );

  await many(4_000, 100, (index) =>
    invoke(
      on(index),
      "count_write",
      { label: "k", ms: 20 },
      { key: agent, idempotencyKey: `many-${index % 200}` },
    ),
  );
  const manyRuns = Array.from({ length: 200 }, (_, key) => runsOf(log, `many-${key}`));
  figure(
    `200 keys × 20 duplicates → executions: ${manyRuns.reduce((sum, runs) => sum + runs, 0)} (most for one key: ${Math.max(...manyRuns)})`,
    manyRuns.every((runs) => runs === 1),
  );

  const wrapped = await many(20, 20, (index) =>
    invoke(
      on(index),
      "execute_tool",
      { name: "count_write", arguments: { label: "wrapped", ms: 200 } },
      { key: agent, idempotencyKey: "wrapped-1" },
    ),
  );
  figure(
    `20 duplicates through execute_tool → executions: ${runsOf(log, "wrapped-1")} (answers: ${tally(wrapped)})`,
    runsOf(log, "wrapped-1") === 1,
  );

  await killAfterAnswers(agent, operator, b);
  await clientHangsUp(agent);
  await gatedDuplicates(agent, operator);
  await rateLimited(agent);
  await shutdownPastDrain(agent);
  await sandboxLimits();
  await fullDisk();
  await crashes;
}

/** SIGKILL mid external-write: without upstream deduplication it is never run again; with it, once. */
async function killMidWrite(agent: string, survivor: Instance): Promise<void> {
  const victim = await serveCounting("K1");
  void invoke(
    victim.url,
    "count_write",
    { label: "killed", ms: 60_000 },
    { key: agent, idempotencyKey: "kill-1" },
  );
  void invoke(
    victim.url,
    "count_deduplicated",
    { label: "killed", ms: 3_000 },
    { key: agent, idempotencyKey: "kill-2" },
  );
  await until("both runs to start", 20_000, async () =>
    runsOf(log, "kill-1") && runsOf(log, "kill-2") ? true : undefined,
  );
  victim.child.kill("SIGKILL");
  const killedAt = Date.now();
  const retry = (tool: string, key: string, label: string, ms: number) =>
    invoke(survivor.url, tool, { label, ms }, { key: agent, idempotencyKey: key });
  const reported = await until("the lost write to be reported", 90_000, async () => {
    const answer = await retry("count_write", "kill-1", "killed", 60_000);
    return answer.body.error?.details?.status === "unknown" ? answer : undefined;
  });
  const details = reported.body.error?.details ?? {};
  figure(
    `SIGKILL mid external-write (no upstream deduplication), retried until the lease lapsed (${Math.round((Date.now() - killedAt) / 1000)} s) → re-runs: ${runsOf(log, "kill-1") - 1}, reported: ${reported.body.error?.code} status ${details.status} (started ${iso(details.startedAt)} by ${details.by} on ${details.holder}, last heartbeat ${iso(details.lastHeartbeat)})`,
    runsOf(log, "kill-1") === 1 && details.by === "agent" && typeof details.holder === "string",
  );
  const deduplicated = await until("the deduplicated write to run again", 60_000, async () => {
    const answer = await retry("count_deduplicated", "kill-2", "killed", 3_000);
    return answer.status === 200 ? answer : undefined;
  });
  figure(
    `SIGKILL mid external-write whose provider deduplicates on the key → re-runs under the same key: ${runsOf(log, "kill-2") - 1} (${describe(deduplicated)})`,
    runsOf(log, "kill-2") === 2,
  );
}

/** SIGKILL while an approved call runs: its approval ends interrupted, and runs again only on retry. */
async function killMidApprovedCall(agent: string, operator: string, other: Instance): Promise<void> {
  const victim = await serveCounting("K2");
  const parked = await invoke(
    other.url,
    "count_gated",
    { label: "approved", ms: 60_000 },
    { key: agent, idempotencyKey: "gated-kill" },
  );
  const id = parked.body.error?.details?.approvalId as string;
  // The approving process runs the call: killing it kills the run.
  void request(victim.url, `/api/v1/approvals/${id}/approve`, {}, { key: operator });
  await until("the approved run to start", 20_000, async () =>
    runsOf(log, "gated-kill") ? true : undefined,
  );
  victim.child.kill("SIGKILL");
  // Past the lease: its last heartbeat, at most one beat (5 s), then the grace (30 s).
  await sleep(37_000);
  // The process comes back; its start-up sweep finds the run lost.
  const back = await serveCounting("K2'");
  const approval = await until("the approval to end", 90_000, async () => {
    const answer = await request(back.url, `/api/v1/approvals/${id}`, undefined, { key: operator });
    return answer.body.status === "interrupted" ? answer.body : undefined;
  });
  const resent = await invoke(
    other.url,
    "count_gated",
    { label: "approved", ms: 60_000 },
    { key: agent, idempotencyKey: "gated-kill" },
  );
  const approvals = await approvalsFor(other.url, operator, "gated-kill");
  const interruption = approval.interruption as Record<string, unknown>;
  figure(
    `SIGKILL mid approved call → approval: ${approval.status} (${interruption.reason}, on ${interruption.holder}); resending its key → ${resent.body.error?.code} ${resent.body.error?.details?.status}, approvals for the key: ${approvals}, runs: ${runsOf(log, "gated-kill")}`,
    approval.status === "interrupted" && approvals === 1 && runsOf(log, "gated-kill") === 1,
  );
}

/**
 * SIGKILL the moment 100 parked calls and 100 writes were answered: each has its audit event, written
 * in the same transaction as its approval or its stored result rather than behind them.
 */
async function killAfterAnswers(agent: string, operator: string, survivor: Instance): Promise<void> {
  const victim = await serveCounting("K3");
  const parked = await many(100, 25, (index) =>
    invoke(
      victim.url,
      "count_gated",
      { label: "audited" },
      { key: agent, idempotencyKey: `audited-park-${index}` },
    ),
  );
  const written = await many(100, 25, (index) =>
    invoke(
      victim.url,
      "count_write",
      { label: "audited" },
      { key: agent, idempotencyKey: `audited-write-${index}` },
    ),
  );
  victim.child.kill("SIGKILL");
  await victim.exited;
  const eventsOf = async (tool: string) => {
    const answer = await request(survivor.url, `/api/v1/audit?tool=${tool}&limit=500`, undefined, {
      key: operator,
    });
    return (
      (answer.body as { events?: { kind: string; idempotencyKey?: string; outcome: string }[] }).events ?? []
    );
  };
  const requests = (await eventsOf("count_gated")).filter(
    (event) => event.kind === "approval-request" && event.idempotencyKey?.startsWith("audited-park-"),
  ).length;
  const calls = (await eventsOf("count_write")).filter(
    (event) =>
      event.kind === "tool-call" &&
      event.outcome === "ok" &&
      event.idempotencyKey?.startsWith("audited-write-"),
  ).length;
  const parkedOk = parked.filter((answer) => answer.status === 202).length;
  const writtenOk = written.filter((answer) => answer.status === 200).length;
  figure(
    `SIGKILL right after ${parkedOk} parked calls and ${writtenOk} writes were answered → approval-request events: ${requests}, tool-call events: ${calls}`,
    parkedOk === 100 && writtenOk === 100 && requests === 100 && calls === 100,
  );
}

/** A client hangs up mid-write: the write runs to its end and its real outcome is what is stored. */
async function clientHangsUp(agent: string): Promise<void> {
  const url = (started[1] as Instance).url;
  const controller = new AbortController();
  const hungUp = invoke(
    url,
    "count_write",
    { label: "hang-up", ms: 1_500 },
    { key: agent, idempotencyKey: "hang-1", signal: controller.signal },
  ).catch(() => "hung up");
  await sleep(300);
  controller.abort();
  await hungUp;
  const meanwhile = await invoke(
    url,
    "count_write",
    { label: "hang-up", ms: 1_500 },
    { key: agent, idempotencyKey: "hang-1" },
  );
  await sleep(1_800);
  const stored = await invoke(
    url,
    "count_write",
    { label: "hang-up", ms: 1_500 },
    { key: agent, idempotencyKey: "hang-1" },
  );
  const ended = executions(log).some((execution) => execution.key === "hang-1" && execution.phase === "end");
  figure(
    `client disconnect mid-write → while it runs: ${describe(meanwhile)}; stored outcome: ${describe(stored)} (the tool's real one: ${ended ? 'ok "counted hang-up"' : "still running"}), runs: ${runsOf(log, "hang-1")}`,
    stored.body.ok === true &&
      stored.body.content === "counted hang-up" &&
      ended &&
      runsOf(log, "hang-1") === 1,
  );
}

/** The same key with other arguments is refused before parking; 300 duplicates park one approval. */
async function gatedDuplicates(agent: string, operator: string): Promise<void> {
  const url = (started[0] as Instance).url;
  await invoke(url, "count_gated", { label: "first" }, { key: agent, idempotencyKey: "gated-conflict" });
  const conflict = await invoke(
    url,
    "count_gated",
    { label: "second" },
    { key: agent, idempotencyKey: "gated-conflict" },
  );
  figure(
    `conflicting key on a gated tool → ${describe(conflict)} before parking; approvals for the key: ${await approvalsFor(url, operator, "gated-conflict")}`,
    conflict.body.error?.code === "idempotency_conflict" &&
      (await approvalsFor(url, operator, "gated-conflict")) === 1,
  );
  const answers = await many(300, 100, (index) =>
    invoke(
      (started[index % 3] as Instance).url,
      "count_gated",
      { label: "dup" },
      { key: agent, idempotencyKey: "gated-dup" },
    ),
  );
  const ids = new Set(answers.map((answer) => answer.body.error?.details?.approvalId));
  const pending = await approvalsFor(url, operator, "gated-dup");
  figure(
    `300 duplicates of a gated call → pending approvals: ${pending} (approval ids answered: ${ids.size})`,
    pending === 1 && ids.size === 1,
  );
}

/** A ceiling of 100 a minute in one process admits exactly 100 of 150. */
async function rateLimited(agent: string): Promise<void> {
  const limited = await serveCounting("E", ["--rate-limit", "principal=100/min"]);
  const answers = await many(150, 20, (index) =>
    invoke(
      limited.url,
      "count_write",
      { label: "limited" },
      { key: agent, idempotencyKey: `limited-${index}` },
    ),
  );
  const admitted = answers.filter((answer) => answer.status === 200).length;
  const refused = answers.filter(
    (answer) => answer.status === 429 && answer.body.error?.code === "rate_limited",
  ).length;
  figure(
    `a ceiling of 100/min in one process, 150 calls → admitted: ${admitted}, refused rate_limited: ${refused}`,
    admitted === 100 && refused === 50,
  );
  limited.child.kill("SIGTERM");
  await limited.exited;
}

/** SIGTERM with writes running past the drain: recorded interrupted, the store whole. */
async function shutdownPastDrain(agent: string): Promise<void> {
  const draining = await serveCounting("D", ["--drain-ms", "1000"]);
  const keys = ["drain-1", "drain-2", "drain-3"];
  for (const key of keys)
    void invoke(
      draining.url,
      "count_write",
      { label: "drain", ms: 10_000 },
      { key: agent, idempotencyKey: key },
    );
  await until("the three runs to start", 10_000, async () =>
    keys.every((key) => runsOf(log, key) === 1) ? true : undefined,
  );
  draining.child.kill("SIGTERM");
  const code = await draining.exited;
  const database = new Database(db, { readonly: true });
  try {
    const unknown = database
      .prepare(
        `SELECT count(*) AS n FROM idempotency WHERE key IN (${keys.map(() => "?").join(", ")}) AND status = 'unknown'`,
      )
      .get(...keys) as { n: number };
    const audited = database
      .prepare(
        "SELECT count(*) AS n FROM audit WHERE kind = 'tool-call-interrupt' AND idempotency_key LIKE 'drain-%'",
      )
      .get() as { n: number };
    const integrity = database.pragma("integrity_check", { simple: true });
    figure(
      `shutdown past the drain (1 s) → calls recorded interrupted: ${unknown.n} of 3 (audit events: ${audited.n}), exit code ${code}, PRAGMA integrity_check: ${integrity}`,
      unknown.n === 3 && audited.n === 3 && code === 0 && integrity === "ok",
    );
  } finally {
    database.close();
  }
}

/** shell_exec through the server, approved by an operator: memory and processes capped for the command. */
async function sandboxLimits(): Promise<void> {
  const shellDir = join(dir, "shell");
  mkdirSync(shellDir);
  const shellDb = join(shellDir, "state.db");
  const shellAgent = createKey(shellDir, shellDb, "agent");
  const shellOperator = createKey(shellDir, shellDb, "ops", true);
  const shell = await startServe("S", shellDir, ["--db", shellDb]);
  started.push(shell);
  const run = async (command: string) => {
    const parked = await invoke(shell.url, "shell_exec", { command, timeoutMs: 30_000 }, { key: shellAgent });
    const id = parked.body.error?.details?.approvalId;
    if (typeof id !== "string") return parked.body;
    return (await request(shell.url, `/api/v1/approvals/${id}/approve`, {}, { key: shellOperator })).body
      .result;
  };
  const available = () =>
    Number(/MemAvailable:\s+(\d+)/.exec(readFileSync("/proc/meminfo", "utf8"))?.[1]) * 1024;
  const before = available();
  let lowest = before;
  const sampler = setInterval(() => {
    lowest = Math.min(lowest, available());
  }, 50);
  const memory = await run(
    "for i in $(seq 8); do python3 -c 'import time; x = b\"a\" * (400 << 20); time.sleep(5)' & done; wait",
  );
  clearInterval(sampler);
  const details = memory?.error?.details ?? {};
  const fell = (before - lowest) / 2 ** 20;
  figure(
    `eight 400 MB processes under a 512 MiB command cap → ${memory?.error?.code} "${memory?.error?.message}" (peak ${mib(details.peakMemoryBytes)}, OOM kills ${details.oomKills}); host MemAvailable fell by at most ${fell.toFixed(0)} MiB`,
    memory?.error?.code === "sandbox_violation" && details.limit === "memory" && fell < 512 + 256,
  );
  const forks = await run("bash -c 'for i in $(seq 10000); do sleep 30 & done; wait'");
  const forkDetails = forks?.error?.details ?? {};
  const left = sleepsLeft();
  figure(
    `10,000 forks → ${forks?.error?.code} "${forks?.error?.message}" (limit ${forkDetails.limit}); sleeps left on the host: ${left}`,
    forks?.error?.code === "sandbox_violation" && forkDetails.limit === "processes" && left === 0,
  );
}

/** The store on a full 3 MB filesystem: nothing that ran is reported failed, nothing runs twice after. */
async function fullDisk(): Promise<void> {
  const small = join(dir, "small");
  mkdirSync(small);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", small], { stdio: "pipe" });
  } catch (error) {
    const reason = `cannot mount a 3 MB tmpfs here (${(error as Error).message.split("\n")[0]})`;
    if (process.env.CI === "true") figure(`the store on a full 3 MB filesystem → ${reason}`, false);
    else console.log(`skip the store on a full 3 MB filesystem: ${reason}`);
    return;
  }
  try {
    const smallDb = join(small, "state.db");
    const filler = join(small, "filler");
    const key = createKey(dir, smallDb, "agent");
    const full = await startServe("F", dir, ["--db", smallDb, "--registry", COUNTING], {
      TOOLREG_FILL_PATH: filler,
    });
    started.push(full);
    const call = (index: number, fill = false) =>
      invoke(full.url, "count_write", { label: "disk", fill }, { key, idempotencyKey: `disk-${index}` });
    const first: Answer[] = [];
    for (let index = 0; index < 10; index++) first.push(await call(index));
    // This run fills the disk after its effect: its result cannot be stored.
    first.push(await call(10, true));
    for (let index = 11; index < 40; index++) first.push(await call(index));
    const ranButFailed = first.filter(
      (answer, index) => runsOf(log, `disk-${index}`) > 0 && answer.body.ok !== true,
    );
    const refusedRetryably = first.filter(
      (answer) => answer.body.ok !== true && answer.body.error?.retryable === true,
    ).length;
    rmSync(filler);
    await sleep(2_500);
    const again: Answer[] = [];
    for (let index = 0; index < 40; index++) again.push(await call(index, index === 10));
    const twice = Array.from({ length: 40 }, (_, index) => runsOf(log, `disk-${index}`)).filter(
      (runs) => runs > 1,
    ).length;
    full.child.kill("SIGTERM");
    await full.exited;
    const database = new Database(smallDb, { readonly: true });
    const integrity = database.pragma("integrity_check", { simple: true });
    database.close();
    figure(
      `the store on a full 3 MB filesystem, 40 keys → reported failed though the tool ran: ${ranButFailed.length}; refused while full (retryable): ${refusedRetryably}; after space returns: ${again.filter((answer) => answer.body.ok).length} of 40 ok, keys run twice: ${twice}; integrity_check: ${integrity}`,
      ranButFailed.length === 0 &&
        twice === 0 &&
        again.every((answer) => answer.body.ok) &&
        integrity === "ok",
    );
  } finally {
    execFileSync("umount", ["-l", small]);
  }
}

/** Processes of the fork test still alive on the host: none, if the sandbox took them all down. */
function sleepsLeft(): number {
  try {
    return Number(execFileSync("pgrep", ["-c", "-f", "^sleep 30$"], { encoding: "utf8" }).trim());
  } catch {
    return 0; // pgrep exits 1 when nothing matches
  }
}

async function approvalsFor(url: string, operator: string, key: string): Promise<number> {
  const listed = await request(url, "/api/v1/approvals?limit=500", undefined, { key: operator });
  return (listed.body.approvals ?? []).filter((approval) => approval.idempotencyKey === key).length;
}

function tally(answers: readonly Answer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const label = answer.body.ok ? `${answer.status}` : `${answer.status} ${answer.body.error?.code}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${count}× ${label}`).join(", ");
}

const iso = (ms: unknown) => (typeof ms === "number" && ms > 0 ? new Date(ms).toISOString() : "?");
const mib = (bytes: unknown) => (typeof bytes === "number" ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : "?");

const startedAt = Date.now();
try {
  await main();
} catch (error) {
  figure(`the fault run itself failed: ${(error as Error).stack ?? error}`, false);
} finally {
  for (const instance of started) instance.child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `${failures.length === 0 ? "all figures as promised" : `${failures.length} figure(s) wrong`} in ${Math.round((Date.now() - startedAt) / 1000)} s`,
);
process.exit(failures.length === 0 ? 0 : 1);
