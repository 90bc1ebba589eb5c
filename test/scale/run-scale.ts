/**
 * `npm run test:scale`: exactly-once and shared state across `toolreg serve` instances, across real processes.
 * Every instance of the run stands on one fresh PostgreSQL schema and one NATS subject prefix; the counting
 * catalogue logs each run of its tools, so what really ran is counted, SIGKILL included. The figures:
 *   1. 1,000 concurrent duplicates of one key over 3 instances → 1 execution; answers 200 or 409 in_progress.
 *   2. 200 keys × 20 duplicates over the 3 → 200 executions, none twice.
 *   3. 100 gated calls parked, every instance SIGKILLed and 3 restarted, each approved once and 20 twice at
 *      once on two instances → 100 executions; of each doubled pair one approves, the other hears already_decided.
 *   4. SIGKILL mid destructive call, restarted → retrying its key is idempotency_conflict, status unknown, and
 *      it does not run again (this waits out the lease, ~35 s, beside the others).
 *   5. tenant=100/min kept in Redis, 300 calls of tenant A over 3 instances → 99–101 admitted, the rest
 *      rate_limited; tenant B's 50 in the same minute all admitted. Redis unreachable → writes refused
 *      rate_limited, retryable.
 *   6. An approval parked on instance 1 → heard on instance 3's event stream: the latency.
 *   7. A key revoked → refused on instances 2 and 3: p50 and p99 over 100 trials (ok when p99 ≤ 500 ms), and
 *      once through `toolreg keys revoke`.
 * One line per figure; exits 1 if any figure is wrong. Traffic goes to 127.0.0.1 only, bounded in count and time.
 */
import { percentile } from "../../bench/percentile.js";
import { runsOf } from "../faults/executions.js";
import { createKey, type Instance } from "../faults/instances.js";
import { type Answer, invoke, many, request, tally, until } from "../faults/requests.js";
import { openDeployment } from "./deployment.js";
import { listen } from "./event-stream.js";
import { revocationLatencies } from "./revocation.js";

const deployment = openDeployment();
const { dir, log, store } = deployment;
const failures: string[] = [];

function figure(line: string, ok: boolean): void {
  console.log(`${ok ? "ok  " : "FAIL"} ${line}`);
  if (!ok) failures.push(line);
}

/** Tenant ids of this run alone: Redis counts by tenant, and its counters outlive a run by their window. */
const tenant = (name: string) => `${name}-${deployment.id.replaceAll("_", "-")}`;
const shared = deployment.config("shared", { authFailures: false });
const serveThree = (names: readonly string[], config = shared) =>
  Promise.all(names.map((name) => deployment.serve(name, config)));
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

async function main(): Promise<void> {
  const agent = createKey(dir, store, "agent", false, tenant("main"));
  const operator = createKey(dir, store, "ops", true, tenant("main"));
  let round = await serveThree(["1", "2", "3"]);
  console.log(
    `three toolreg serve on PostgreSQL schema and NATS prefix ${deployment.id}: ${round.map((instance) => instance.url).join(", ")}`,
  );
  const crash = killMidDestroy(agent).catch((error: Error) =>
    figure(`SIGKILL mid destructive call → the scenario failed: ${error.stack ?? error}`, false),
  );
  await duplicates(round, agent);
  round = await approvalsAcrossRestart(round, agent, operator);
  await sharedCeilings(agent);
  await approvalHeard(round, agent, operator);
  const { trials, command } = await revocationLatencies(
    deployment,
    [(round[1] as Instance).url, (round[2] as Instance).url],
    { tenant: tenant("main"), config: shared, trials: 100 },
  );
  const sorted = [...trials].sort((a, b) => a - b);
  const [p50, p99] = [percentile(sorted, 0.5), percentile(sorted, 0.99)];
  figure(
    `${trials.length} keys revoked (store, then a NATS publish) → refused on instances 2 and 3 after p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (max ${percentile(sorted, 1).toFixed(1)} ms); revoked by \`toolreg keys revoke\` → refused on both ${Math.abs(command).toFixed(0)} ms ${command < 0 ? "before" : "after"} the command exited`,
    p99 <= 500 && command <= 500,
  );
  await crash;
}

async function duplicates(round: readonly Instance[], agent: string): Promise<void> {
  const on = (index: number) => (round[index % 3] as Instance).url;
  const dup = await many(1_000, 1_000, (index) =>
    invoke(on(index), "count_write", { label: "dup", ms: 200 }, { key: agent, idempotencyKey: "dup-1" }),
  );
  figure(
    `1,000 concurrent duplicates of one key over 3 instances → executions: ${runsOf(log, "dup-1")} (answers: ${tally(dup)})`,
    runsOf(log, "dup-1") === 1 &&
      dup.every(
        (answer) =>
          answer.status === 200 || (answer.status === 409 && answer.body.error?.code === "in_progress"),
      ),
  );
  const answers = await many(4_000, 100, (index) =>
    invoke(
      on(index),
      "count_write",
      { label: "k", ms: 20 },
      { key: agent, idempotencyKey: `many-${index % 200}` },
    ),
  );
  const runs = Array.from({ length: 200 }, (_, key) => runsOf(log, `many-${key}`));
  figure(
    `200 keys × 20 duplicates over 3 instances → executions: ${sum(runs)} (most for one key: ${Math.max(...runs)}; answers: ${tally(answers)})`,
    runs.every((count) => count === 1) && answers.every((answer) => answer.status < 500),
  );
}

/** Parks 100 gated calls, kills every instance, and approves on 3 new ones; returns the new ones. */
async function approvalsAcrossRestart(
  round: readonly Instance[],
  agent: string,
  operator: string,
): Promise<Instance[]> {
  const parked = await many(100, 50, (index) =>
    invoke(
      (round[index % 3] as Instance).url,
      "count_gated",
      { label: "gated" },
      { key: agent, idempotencyKey: `gated-${index}` },
    ),
  );
  const ids = parked.map((answer) => answer.body.error?.details?.approvalId);
  if (!ids.every((id) => typeof id === "string") || new Set(ids).size !== 100) {
    throw new Error(`100 gated calls did not park 100 approvals: ${tally(parked)}`);
  }
  for (const instance of round) instance.child.kill("SIGKILL");
  await Promise.all(round.map((instance) => instance.exited));
  const restarted = await serveThree(["1'", "2'", "3'"]);
  const approve = (index: number, on: number) =>
    request(
      (restarted[on % 3] as Instance).url,
      `/api/v1/approvals/${ids[index]}/approve`,
      {},
      { key: operator },
    );
  // The first 20 are approved twice at once, on two different instances; the rest once.
  const decisions = await many(100, 20, (index) =>
    Promise.all(index < 20 ? [approve(index, index), approve(index, index + 1)] : [approve(index, index)]),
  );
  const ran = (answer: Answer) => answer.status === 200 && answer.body.result?.ok === true;
  const doubled = decisions.slice(0, 20);
  const rightPairs = doubled.filter(
    (pair) =>
      pair.filter(ran).length === 1 &&
      pair.some((answer) => answer.status === 409 && answer.body.code === "already_decided"),
  ).length;
  const told = doubled.flat().find((answer) => answer.status === 409)?.body;
  const runs = ids.map((_, index) => runsOf(log, `gated-${index}`));
  figure(
    `100 gated calls parked, all 3 instances SIGKILLed, 3 restarted, each approved once and 20 twice at once on two instances → executions: ${sum(runs)} (most for one key: ${Math.max(...runs)}); doubled approvals: ${rightPairs} of 20 approved once, the other told ${told?.status} ${told?.code} "${told?.detail}"; single approvals that ran: ${decisions.slice(20).filter(([answer]) => answer && ran(answer)).length} of 80`,
    runs.every((count) => count === 1) &&
      rightPairs === 20 &&
      decisions.slice(20).every(([answer]) => answer && ran(answer)),
  );
  return restarted;
}

/** SIGKILL mid destructive call: after a restart its key reports the outcome unknown, and it never runs again. */
async function killMidDestroy(agent: string): Promise<void> {
  const victim = await deployment.serve("K", shared);
  const destroy = (url: string) =>
    invoke(
      url,
      "count_destroy",
      { label: "destroyed", ms: 60_000 },
      { key: agent, idempotencyKey: "destroy-1" },
    );
  void destroy(victim.url);
  await until("the destructive run to start", 20_000, async () =>
    runsOf(log, "destroy-1") ? true : undefined,
  );
  victim.child.kill("SIGKILL");
  await victim.exited;
  const killedAt = Date.now();
  const back = await deployment.serve("K'", shared);
  // Before the lease lapses (a heartbeat, then 30 s of grace) the key is still in progress.
  const reported = await until("the lost run to be reported", 90_000, async () => {
    const answer = await destroy(back.url);
    return answer.body.error?.details?.status === "unknown" ? answer : undefined;
  });
  const error = reported.body.error;
  figure(
    `SIGKILL mid destructive call, restarted, retried until the lease lapsed (${Math.round((Date.now() - killedAt) / 1000)} s) → re-runs: ${runsOf(log, "destroy-1") - 1}, reported: ${reported.status} ${error?.code} status ${error?.details?.status} (by ${error?.details?.by} on ${error?.details?.holder})`,
    runsOf(log, "destroy-1") === 1 && error?.code === "idempotency_conflict",
  );
}

/** One ceiling counted in Redis for every instance; and what a write meets while Redis is away. */
async function sharedCeilings(agent: string): Promise<void> {
  const tenantA = createKey(dir, store, "agent", false, tenant("a"));
  const tenantB = createKey(dir, store, "agent", false, tenant("b"));
  const ceiling = { authFailures: false, rateLimits: ["tenant=100/min"] };
  const limited = await serveThree(
    ["L1", "L2", "L3"],
    deployment.config("limited", { ...ceiling, redis: "redis://127.0.0.1:6379" }),
  );
  const calls = (key: string, name: string) => (index: number) =>
    invoke(
      (limited[index % 3] as Instance).url,
      "count_write",
      { label: "limited" },
      { key, idempotencyKey: `${name}-${index}` },
    );
  const a = await many(300, 30, calls(tenantA, "limited-a"));
  const b = await many(50, 10, calls(tenantB, "limited-b"));
  const admitted = a.filter((answer) => answer.status === 200).length;
  const refused = a.filter(
    (answer) => answer.status === 429 && answer.body.error?.code === "rate_limited",
  ).length;
  const admittedB = b.filter((answer) => answer.status === 200).length;
  figure(
    `tenant=100/min kept in Redis, 300 calls of tenant A over 3 instances → admitted: ${admitted}, refused rate_limited: ${refused}; tenant B's 50 in the same minute → admitted: ${admittedB}`,
    admitted >= 99 && admitted <= 101 && admitted + refused === 300 && admittedB === 50,
  );
  for (const instance of limited) instance.child.kill("SIGKILL");

  const away = await serveThree(
    ["R1", "R2", "R3"],
    deployment.config("redis-away", { ...ceiling, redis: "redis://127.0.0.1:1" }),
  );
  const answers = await Promise.all(
    away.map((instance, index) =>
      invoke(instance.url, "count_write", { label: "away" }, { key: agent, idempotencyKey: `away-${index}` }),
    ),
  );
  const runs = sum(answers.map((_, index) => runsOf(log, `away-${index}`)));
  const error = answers[0]?.body.error;
  figure(
    `the same ceiling naming a Redis that is not there (redis://127.0.0.1:1), a write on each of 3 instances → ${tally(answers)}: "${error?.message}" (retryable: ${error?.retryable}); runs: ${runs}`,
    runs === 0 &&
      answers.every(
        (answer) =>
          answer.status === 429 &&
          answer.body.error?.code === "rate_limited" &&
          answer.body.error.retryable === true,
      ),
  );
  for (const instance of away) instance.child.kill("SIGKILL");
}

/** An approval parked on instance 1 reaches an operator's event stream on instance 3, over NATS. */
async function approvalHeard(round: readonly Instance[], agent: string, operator: string): Promise<void> {
  const stream = await listen((round[2] as Instance).url, operator);
  try {
    const parked = await invoke(
      (round[0] as Instance).url,
      "count_gated",
      { label: "heard" },
      { key: agent, idempotencyKey: "heard-1" },
    );
    const id = parked.body.error?.details?.approvalId;
    const heard = await stream
      .first((event) => event.event === "approval.requested" && event.data.approvalId === id, 5_000)
      .catch(() => undefined);
    if (!heard) {
      figure(
        `an approval parked on instance 1 (${tally([parked])}) → not on instance 3's event stream within 5 s`,
        false,
      );
      return;
    }
    const latency = heard.arrivedAt - Number(heard.data.at);
    figure(
      `an approval parked on instance 1 → on instance 3's event stream ${latency} ms after it was recorded (${heard.event} ${heard.data.tool} ${heard.data.outcome})`,
      latency >= 0 && latency <= 500,
    );
  } finally {
    stream.close();
  }
}

const startedAt = Date.now();
try {
  await main();
} catch (error) {
  figure(`the scale run itself failed: ${(error as Error).stack ?? error}`, false);
} finally {
  await deployment.close();
}
console.log(
  `${failures.length === 0 ? "all figures as promised" : `${failures.length} figure(s) wrong`} in ${Math.round((Date.now() - startedAt) / 1000)} s`,
);
process.exit(failures.length === 0 ? 0 : 1);
