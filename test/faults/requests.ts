/** @module HTTP calls to the instances, on loopback only, with bounded concurrency. */

export interface Answer {
  status: number;
  body: {
    ok?: boolean;
    content?: string;
    error?: { code: string; message: string; retryable: boolean; details?: Record<string, unknown> };
    approval?: { status: string; [field: string]: unknown };
    result?: {
      ok: boolean;
      content?: string;
      error?: { code: string; message: string; details?: Record<string, unknown> };
    };
    approvals?: { id: string; status: string; idempotencyKey: string; [field: string]: unknown }[];
    [field: string]: unknown;
  };
}

export interface CallOptions {
  key: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
  method?: "GET" | "POST";
}

/** One request; a network failure (a killed instance) is status 0. */
export async function request(
  url: string,
  path: string,
  body: unknown,
  options: CallOptions,
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
  try {
    const response = await fetch(`${url}${path}`, {
      method: options.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { status: 0, body: { error: { code: "network", message: String(error), retryable: true } } };
  }
}

export const invoke = (url: string, tool: string, input: unknown, options: CallOptions) =>
  request(url, `/api/v1/tools/${tool}/invoke`, input, options);

/** Runs `count` tasks, at most `concurrency` at once, in order of index. */
export async function many<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) results[index] = await task(index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

/** The answers counted by status and error code, e.g. "1× 200, 999× 409 in_progress". */
export function tally(answers: readonly Answer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const label = answer.body.ok ? `${answer.status}` : `${answer.status} ${answer.body.error?.code}`;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return [...counts].map(([label, count]) => `${count}× ${label}`).join(", ");
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export { until } from "../support/until.js";
