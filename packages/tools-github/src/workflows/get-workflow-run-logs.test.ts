import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { actionsRoutes, FakeActions, type FakeJob } from "../fake/actions-routes.js";
import { type FakeBlobHost, startFakeBlobHost } from "../fake/blob-host.js";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";

let gh: GithubHarness;
let blob: FakeBlobHost;
const TEST_LOG = `${Array.from({ length: 4000 }, (_, index) => `2024-01-01T00:00:00Z line ${index} of the test output`).join("\n")}
2024-01-01T00:00:01Z FAIL src/login.test.ts > refuses a bad password: expected 401, got 200
2024-01-01T00:00:01Z ##[error]Process completed with exit code 1.
`;
const LINT_LOG = "2024-01-01T00:00:00Z ##[error]The operation was canceled.\n";
const actions = new FakeActions();
const ci = actions.addWorkflow({ name: "CI", path: ".github/workflows/ci.yml", dispatchable: true });
const steps = (failing: string) => [
  { number: 1, name: "Set up job", conclusion: "success" },
  { number: 2, name: failing, conclusion: "failure" },
  { number: 3, name: "Complete job", conclusion: "skipped" },
];
const run = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [
    { name: "build", status: "completed", conclusion: "success", steps: [], annotations: [] },
    {
      name: "test",
      status: "completed",
      conclusion: "failure",
      steps: steps("Run npm test"),
      log: TEST_LOG,
      annotations: [
        {
          path: "src/login.test.ts",
          line: 42,
          level: "failure",
          title: "login › refuses a bad password",
          message: "expected 401, got 200",
        },
        {
          path: ".github",
          line: 1,
          level: "failure",
          title: "",
          message: "Process completed with exit code 1.",
        },
      ],
    },
    {
      name: "lint",
      status: "completed",
      conclusion: "cancelled",
      steps: steps("Run biome"),
      log: LINT_LOG,
      annotations: [
        { path: ".github", line: 1, level: "failure", title: "", message: "The operation was canceled." },
      ],
    },
  ],
});
const noisy = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [
    {
      name: "e2e",
      status: "completed",
      conclusion: "failure",
      steps: steps("Run e2e"),
      log: "25 specs failed\n",
      annotations: Array.from({ length: 25 }, (_, index) => ({
        path: `e2e/spec-${index}.ts`,
        line: index + 1,
        level: "failure" as const,
        title: `spec ${index}`,
        message: "x".repeat(2_000),
      })),
    },
  ],
});
const huge = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [
    {
      name: "flood",
      status: "completed",
      conclusion: "failure",
      steps: steps("Run flood"),
      annotations: [],
      log: `${"y".repeat(1024 * 1024 + 10)}\nthe last line`,
    },
  ],
});
const silent = actions.addRun(ci, {
  conclusion: "failure",
  jobs: [
    {
      name: "quiet",
      status: "completed",
      conclusion: "failure",
      steps: steps("Run quiet"),
      annotations: [],
      log: "",
    },
  ],
});
const signedPath = (job: FakeJob) => `/actions-results/${job.id}/logs.txt`;
beforeAll(async () => {
  const jobs = actions.runs.flatMap((each) => each.jobs);
  blob = await startFakeBlobHost((path) => jobs.find((job) => signedPath(job) === path)?.log);
  gh = await startGithubHarness([actionsRoutes(actions)], { logHosts: ["127.0.0.1"] });
});
afterEach(() => {
  Object.assign(blob, { ignoreRange: false, suffixRanges: false, unknownSize: false, expired: false });
  actions.logLocation = (job) =>
    `${blob.url}${signedPath(job)}?sv=2021-08-06&se=2024-01-01T00%3A01%3A00Z&sig=signed`;
});
afterAll(async () => {
  await gh.close();
  await blob.close();
});

const logs = (runId: number, extra: Record<string, unknown> = {}) =>
  gh.seam.call(gh.context(), "github_get_workflow_run_logs", {
    owner: "octocat",
    repo: "hello-world",
    run_id: runId,
    ...extra,
  });

interface LogData {
  jobs: {
    name: string;
    log: { text: string; bytes: number; totalBytes: number | null; bound: string } | null;
  }[];
}
const logOf = (result: Awaited<ReturnType<typeof logs>>, name: string) =>
  result.ok ? (result.data as LogData).jobs.find((job) => job.name === name)?.log : undefined;

describe("github_get_workflow_run_logs", () => {
  it("reads the run, its latest jobs, the annotations of the failed ones and the tail of their logs", async () => {
    actions.logLocation = (job) => `${blob.url}${signedPath(job)}?sig=signed`;
    const before = gh.fake.requests.length;
    const blobBefore = blob.requests.length;
    const result = await logs(run.id);
    const sent = gh.fake.requests.slice(before);
    const fetched = blob.requests.slice(blobBefore);
    const [build, test, lint] = run.jobs;
    expect(
      sent.map(
        (request) => `${request.path}${request.query.filter ? `?filter=${request.query.filter}` : ""}`,
      ),
    ).toEqual([
      `/repos/octocat/hello-world/actions/runs/${run.id}`,
      `/repos/octocat/hello-world/actions/runs/${run.id}/jobs?filter=latest`,
      `/repos/octocat/hello-world/check-runs/${test?.id}/annotations`,
      `/repos/octocat/hello-world/check-runs/${lint?.id}/annotations`,
      `/repos/octocat/hello-world/actions/jobs/${test?.id}/logs`,
      `/repos/octocat/hello-world/actions/jobs/${lint?.id}/logs`,
    ]);
    expect(sent.every((request) => request.headers.authorization === `Bearer ${TEST_TOKEN}`)).toBe(true);
    // Each signed URL is asked its size (the first byte), then its tail from that offset, in the two
    // forms Azure documents; the GitHub token never goes there.
    const testSize = Buffer.byteLength(TEST_LOG);
    expect(fetched.map((request) => [request.path, request.headers.range])).toEqual([
      [signedPath(test as FakeJob), "bytes=0-0"],
      [signedPath(test as FakeJob), `bytes=${testSize - 65536}-`],
      [signedPath(lint as FakeJob), "bytes=0-0"],
      [signedPath(lint as FakeJob), "bytes=0-"],
    ]);
    expect(fetched.every((request) => request.headers.authorization === undefined)).toBe(true);
    expect(JSON.stringify(fetched)).not.toContain(TEST_TOKEN);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const data = result.data as {
      run: { id: number; conclusion: string };
      jobs: Record<string, unknown>[];
      failedJobs: number;
      note: string;
    };
    expect(data.run).toMatchObject({ id: run.id, conclusion: "failure" });
    expect(data.failedJobs).toBe(2);
    expect(data.jobs[0]).toMatchObject({
      id: build?.id,
      name: "build",
      conclusion: "success",
      steps: null,
      annotations: null,
    });
    expect(data.jobs[1]).toMatchObject({
      name: "test",
      conclusion: "failure",
      url: `https://github.com/octocat/hello-world/actions/runs/${run.id}/job/${test?.id}`,
      steps: [
        { number: 1, name: "Set up job", conclusion: "success" },
        { number: 2, name: "Run npm test", conclusion: "failure" },
        { number: 3, name: "Complete job", conclusion: "skipped" },
      ],
      annotations: [
        {
          level: "failure",
          path: "src/login.test.ts",
          line: 42,
          title: "login › refuses a bad password",
          message: "expected 401, got 200",
        },
        {
          level: "failure",
          path: ".github",
          line: 1,
          title: "",
          message: "Process completed with exit code 1.",
        },
      ],
      annotationsTruncated: false,
    });
    expect(data.jobs[2]).toMatchObject({
      name: "lint",
      annotations: [{ message: "The operation was canceled." }],
      log: { text: LINT_LOG, bytes: LINT_LOG.length, totalBytes: LINT_LOG.length, bound: "none" },
    });
    const tail = Buffer.from(TEST_LOG).subarray(-65536).toString();
    expect(logOf(result, "test")).toMatchObject({
      text: tail,
      bytes: 65536,
      totalBytes: Buffer.byteLength(TEST_LOG),
      bound: "range",
    });
    expect(data.jobs[0]).toMatchObject({ log: null });
    expect(data.note).toBeNull();
    expect(result.truncated).toBe(true);
    // The log text is in the content as lines, inside the untrusted-content fence.
    expect(result.content).toMatch(
      /^<untrusted-content id="[0-9a-f]+" source="https:\/\/github\.com\/octocat/,
    );
    expect(result.content).toContain("##[error]Process completed with exit code 1.");
    expect(result.content).toContain(
      `--- log of job "test" (${test?.id}): 65536 bytes of ${Buffer.byteLength(TEST_LOG)}`,
    );
    expect(result.content.trimEnd()).toMatch(/<\/untrusted-content id="[0-9a-f]+">$/);
    expect(result.provenance).toEqual({
      source: `https://github.com/octocat/hello-world/actions/runs/${run.id}`,
      trusted: false,
    });
  });

  it("caps a job's annotations and their messages, and says so", async () => {
    const result = await logs(noisy.id);
    expect(logOf(result, "e2e")).toMatchObject({ text: "25 specs failed\n", bound: "none" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    const [job] = (
      result.data as { jobs: { annotations: { message: string }[]; annotationsTruncated: boolean }[] }
    ).jobs;
    expect(job?.annotations).toHaveLength(20);
    expect(job?.annotationsTruncated).toBe(true);
    expect(job?.annotations[0]?.message).toHaveLength(600);
  });

  it("reads only as much as max_log_bytes asks, and refuses more than the cap", async () => {
    const result = await logs(run.id, { max_log_bytes: 1024 });
    expect(logOf(result, "test")).toMatchObject({ bytes: 1024, bound: "range" });
    expect(logOf(result, "test")?.text.endsWith("exit code 1.\n")).toBe(true);
    const over = await logs(run.id, { max_log_bytes: 1024 * 1024 });
    expect(over.ok || over.error.code).toBe("invalid_input");
  });

  it("reads the end of a log longer than the whole-body read cap from the size the host tells", async () => {
    const before = blob.requests.length;
    const flood = await logs(huge.id, { max_log_bytes: 2048 });
    const size = Buffer.byteLength(huge.jobs[0]?.log ?? "");
    expect(logOf(flood, "flood")).toMatchObject({
      text: `${"y".repeat(2048 - "\nthe last line".length)}\nthe last line`,
      bytes: 2048,
      totalBytes: size,
      bound: "range",
    });
    expect(blob.requests.slice(before).map((request) => request.headers.range)).toEqual([
      "bytes=0-0",
      `bytes=${size - 2048}-`,
    ]);
  });

  it("tells an empty log (416 to its first byte) as the whole log, in one request", async () => {
    const before = blob.requests.length;
    const result = await logs(silent.id);
    expect(logOf(result, "quiet")).toEqual({
      text: "",
      bytes: 0,
      totalBytes: 0,
      bound: "none",
      note: "the whole log",
    });
    expect(blob.requests.slice(before).map((request) => request.headers.range)).toEqual(["bytes=0-0"]);
  });

  it("asks a suffix range when the host does not tell the size, and reads the whole body when that is ignored", async () => {
    blob.unknownSize = true;
    blob.suffixRanges = true;
    let before = blob.requests.length;
    const suffix = await logs(run.id, { max_log_bytes: 2048 });
    expect(logOf(suffix, "test")).toMatchObject({
      text: Buffer.from(TEST_LOG).subarray(-2048).toString(),
      bytes: 2048,
      totalBytes: null,
      bound: "range",
    });
    expect(blob.requests.slice(before).map((request) => request.headers.range)).toEqual([
      "bytes=0-0",
      "bytes=-2048",
      "bytes=0-0",
      "bytes=-2048",
    ]);

    // Azure ignores a suffix range: the whole body answers, and its end is kept.
    blob.suffixRanges = false;
    before = blob.requests.length;
    const whole = await logs(run.id, { max_log_bytes: 2048 });
    expect(logOf(whole, "test")).toMatchObject({
      text: Buffer.from(TEST_LOG).subarray(-2048).toString(),
      totalBytes: Buffer.byteLength(TEST_LOG),
      bound: "maxBytes",
    });
    expect(blob.requests.length - before).toBe(4);
  });

  it("keeps the end of the whole body when the server ignores Range, and says which bound stopped the read", async () => {
    blob.ignoreRange = true;
    const before = blob.requests.length;
    const result = await logs(run.id, { max_log_bytes: 2048 });
    // The first request's answer is the whole log: it is not asked for again.
    expect(blob.requests.length - before).toBe(2);
    expect(logOf(result, "test")).toMatchObject({
      text: Buffer.from(TEST_LOG).subarray(-2048).toString(),
      bytes: 2048,
      totalBytes: Buffer.byteLength(TEST_LOG),
      bound: "maxBytes",
    });
    expect(logOf(result, "lint")).toMatchObject({ text: LINT_LOG, bound: "none" });
    expect(result.ok && result.content).toContain("the server ignored the Range request");

    const flood = await logs(huge.id, { max_log_bytes: 2048 });
    expect(logOf(flood, "flood")).toMatchObject({
      text: "y".repeat(2048),
      bytes: 2048,
      totalBytes: null,
      bound: "readCap",
    });
    expect(flood.ok && flood.content).toContain("NOT the end of the log");
  });

  /** The reasons given for the logs that could not be read; the run and its jobs are answered still. */
  function unreadLogs(result: Awaited<ReturnType<typeof logs>>): string[] {
    expect(result).toMatchObject({ ok: true });
    const data = (result.ok ? result.data : {}) as { jobs: { log: { unread?: string } | null }[] };
    expect(data.jobs.length).toBeGreaterThan(0);
    return data.jobs.flatMap((job) => (job.log?.unread === undefined ? [] : [job.log.unread]));
  }

  it("refuses a redirect to a host outside logHosts, sending nothing there, and answers the rest", async () => {
    const port = new URL(blob.url).port;
    actions.logLocation = (job) => `http://localhost:${port}${signedPath(job)}?sig=signed`;
    const before = blob.requests.length;
    const result = await logs(run.id);
    const unread = unreadLogs(result);
    expect(unread).toHaveLength(2);
    for (const reason of unread) {
      expect(reason).toMatch(
        /redirected the log of job \d+ .* to localhost:\d+, which is not one of the configured log hosts \(127\.0\.0\.1\)/,
      );
    }
    expect(blob.requests.length).toBe(before);
    expect(JSON.stringify(result)).not.toContain("sig=");
  });

  it("tells an expired signed URL (403 from the blob host) as that job's unread log, without the signature", async () => {
    blob.expired = true;
    const result = await logs(run.id);
    const unread = unreadLogs(result);
    expect(unread).toHaveLength(2);
    for (const reason of unread) {
      expect(reason).toMatch(
        /refused the signed download of the log of job \d+ in octocat\/hello-world \(403\).*expired/,
      );
    }
    expect(JSON.stringify(result)).not.toContain("sig=");
    // A 403 from the log host is no verdict on the GitHub credential: it is kept, and the next call works.
    blob.expired = false;
    expect(unreadLogs(await logs(run.id))).toEqual([]);
  });

  it("says an unknown run may be out of reach", async () => {
    const result = await logs(12);
    expect(result.ok || result.error.message).toMatch(/workflow run 12 of octocat\/hello-world.*no access/);
  });
});
