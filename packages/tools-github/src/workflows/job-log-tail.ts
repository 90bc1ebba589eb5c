/**
 * @module The end of one Actions job's log. GitHub's "Download job logs for a workflow run"
 * (`GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs`) answers 302 with a signed URL on another host
 * that expires after a minute. The 302 is received through the API's egress client (with the credential);
 * the one redirect is then followed by a second client that carries no credential (the URL authorizes
 * itself; the token sent there would leak) and reaches only the configured log hosts. There the log's size
 * is learnt from its first byte and its end asked from that offset: Azure Blob Storage documents no suffix
 * range.
 */
import { RequestError } from "@octokit/request-error";
import {
  callOptions,
  type EgressClient,
  type EgressResponse,
  type ToolContext,
  ToolFailure,
} from "toolreg/toolkit";
import { githubFailure } from "../github-failure.js";

/**
 * What stopped the read: `none`, the whole log is here; `range`, the server sent the last `maxBytes`;
 * `maxBytes`, the server ignored Range, the whole log was read and its last `maxBytes` kept; `readCap`, the
 * server ignored Range and the log is longer than the read cap, so the text ends where the read stopped,
 * before the log's end.
 */
export type LogBound = "none" | "range" | "maxBytes" | "readCap";

export interface JobLogTail {
  text: string;
  /** Bytes of log the text comes from. */
  bytes: number;
  /** The whole log's size, when the server said it or it was read to its end. */
  totalBytes: number | null;
  bound: LogBound;
}

export interface JobLogRequest {
  owner: string;
  repo: string;
  jobId: number;
  maxBytes: number;
}

export interface JobLogSources {
  /** The API root, as configured. */
  baseUrl: string;
  /** The API host's client: GitHub's credential is injected there. */
  api: EgressClient;
  /** The log hosts' client: no credential, `logHosts` alone allowed. */
  logs: EgressClient;
  logHosts: readonly string[];
}

/** What a read that ignores Range may take before it stops: a log's end lies past it. */
export const WHOLE_LOG_READ_CAP = 1024 * 1024;

export type ReadJobLog = (context: ToolContext, request: JobLogRequest) => Promise<JobLogTail>;

export function jobLogReader({ baseUrl, api, logs, logHosts }: JobLogSources): ReadJobLog {
  return async (context, { owner, repo, jobId, maxBytes }) => {
    const what = `the log of job ${jobId} in ${owner}/${repo}`;
    const route = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/actions/jobs/${jobId}/logs`;
    const answer = await api.request(`${baseUrl}${route}`, {
      headers: { accept: "application/vnd.github+json", "user-agent": "toolreg-tools-github" },
      redirect: "manual",
      ...callOptions(context),
    });
    const location = answer.headers.location;
    if (answer.status !== 302 || location === undefined) throw apiFailure(answer, what);
    const signed = new URL(location, answer.url);
    const read = (range: string) =>
      logs
        .request(signed, {
          headers: { range },
          maxResponseBytes: Math.max(maxBytes, WHOLE_LOG_READ_CAP),
          ...callOptions(context),
        })
        .catch((error: unknown) => {
          throw refusedHost(error, signed, logHosts, what) ?? error;
        });
    // Azure Blob Storage documents only `bytes=start-` and `bytes=start-end`, not a suffix `bytes=-N`: the
    // first byte is asked for to learn the size, then the tail from its offset. A server that ignores
    // Range answers the first request with the whole log, which is then the answer.
    const probe = await read("bytes=0-0");
    if (probe.status === 416) return { text: "", bytes: 0, totalBytes: 0, bound: "none" };
    checkDownload(probe, signed, what);
    if (probe.status === 200) return wholeBodyTail(probe.body, probe.truncated, maxBytes);
    const size = rangeOf(probe.headers["content-range"])?.total ?? null;
    if (size !== null && probe.body.length >= size) return rangeTail(probe, maxBytes);
    // No size in the answer: the standard suffix range is the next best ask.
    const tail = await read(size === null ? `bytes=-${maxBytes}` : `bytes=${Math.max(0, size - maxBytes)}-`);
    checkDownload(tail, signed, what);
    return tail.status === 200
      ? wholeBodyTail(tail.body, tail.truncated, maxBytes)
      : rangeTail(tail, maxBytes);
  };
}

/** A download answered other than 200 or 206 is a failure; the signed URL is named by host and path only. */
function checkDownload(read: EgressResponse, signed: URL, what: string): void {
  if (read.status === 200 || read.status === 206) return;
  // The signed URL's query is its authorization.
  const where = `${signed.host}${signed.pathname}`;
  throw new ToolFailure(
    "upstream_error",
    read.status === 403
      ? `${where} refused the signed download of ${what} (403): GitHub's link lasts a minute and may have expired; call again for a fresh one`
      : `${where} answered ${read.status} to the download of ${what}; a retry may work`,
    // Not `status`: a 401 here is the log host's, and must not read as GitHub refusing the credential.
    { retryable: true, details: { downloadStatus: read.status, host: signed.host } },
  );
}

/** `Content-Range: bytes FIRST-LAST/TOTAL` (RFC 9110 §14.4); TOTAL may be `*`, unknown. */
function rangeOf(header: string | undefined): { last: number; total: number | null } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header?.trim() ?? "");
  if (!match) return undefined;
  return { last: Number(match[2]), total: match[3] === "*" ? null : Number(match[3]) };
}

/** A 206 to a range that runs to the log's end; one that stops short is refused rather than told as the end. */
function rangeTail(read: EgressResponse, maxBytes: number): JobLogTail {
  const range = rangeOf(read.headers["content-range"]);
  const totalBytes = range?.total ?? null;
  if (read.truncated || (range && totalBytes !== null && range.last + 1 < totalBytes)) {
    throw new ToolFailure(
      "upstream_error",
      `the log host sent part of the log that stops before its end (${read.headers["content-range"] ?? "no Content-Range"}); a retry may work`,
      { retryable: true, details: { contentRange: read.headers["content-range"] ?? null } },
    );
  }
  const kept = read.body.subarray(Math.max(0, read.body.length - maxBytes));
  const whole = totalBytes !== null && kept.length >= totalBytes;
  return {
    text: decodeTail(kept, !whole),
    bytes: kept.length,
    totalBytes,
    bound: whole ? "none" : "range",
  };
}

/** A 200: the whole log, or its first WHOLE_LOG_READ_CAP bytes when it is longer. */
function wholeBodyTail(body: Buffer, truncated: boolean, maxBytes: number): JobLogTail {
  const kept = body.subarray(Math.max(0, body.length - maxBytes));
  const cut = kept.length < body.length;
  return {
    text: decodeTail(kept, cut || truncated),
    bytes: kept.length,
    totalBytes: truncated ? null : body.length,
    bound: truncated ? "readCap" : cut ? "maxBytes" : "none",
  };
}

/** UTF-8 from a byte offset: a character cut in half at the start is dropped, not shown as U+FFFD. */
function decodeTail(bytes: Buffer, cutAtStart: boolean): string {
  let start = 0;
  // Continuation bytes (10xxxxxx) cannot begin a character.
  if (cutAtStart)
    while (start < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString("utf8");
}

/** The logs client's allow list refused the redirect's host before connecting: say which host, and why. */
function refusedHost(
  error: unknown,
  signed: URL,
  logHosts: readonly string[],
  what: string,
): ToolFailure | undefined {
  if (!ToolFailure.isInstance(error) || error.details?.rule !== "host_not_allowed") return undefined;
  return new ToolFailure(
    "egress_refused",
    `GitHub redirected ${what} to ${signed.host}, which is not one of the configured log hosts (${logHosts.join(", ")}); nothing was sent there. An operator may add it to the toolkit's logHosts`,
    { retryable: false, details: { host: signed.host, logHosts: [...logHosts] } },
  );
}

/** GitHub's answer other than the 302, told as every other GitHub failure is (github-failure.ts). */
function apiFailure(answer: EgressResponse, what: string): unknown {
  let data: unknown = answer.body.toString("utf8");
  try {
    data = JSON.parse(String(data));
  } catch {}
  if (answer.status < 400) {
    return new ToolFailure(
      "upstream_error",
      `GitHub answered ${answer.status} for ${what}, not the documented redirect to the download`,
      { retryable: false, details: { status: answer.status } },
    );
  }
  const error = new RequestError(`GitHub answered ${answer.status}`, answer.status, {
    request: { method: "GET", url: answer.url, headers: {} },
    response: { status: answer.status, url: answer.url, headers: answer.headers, data },
  });
  return githubFailure(error, what);
}
