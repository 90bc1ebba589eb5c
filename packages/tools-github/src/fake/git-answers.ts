/**
 * @module How the fake's repository and Actions routes answer as GitHub does: a list page by page with
 * GitHub's `Link` header, an error body in GitHub's shape, one item of a list example, and git's blob sha.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { GithubFake } from "./github-fake.js";
import { githubDescription } from "./payloads.js";

/**
 * One page of `items` as GitHub pages a list (docs.github.com/en/rest/using-the-rest-api/using-pagination-
 * in-the-rest-api): `per_page` (default 30, at most 100) and `page` from the query, and a `Link` header
 * with absolute `next`/`last` (and `prev`/`first`) URLs that keep the request's other parameters.
 * `wrap` puts the page in the envelope some endpoints use (`{ total_count, workflow_runs }`).
 */
export function pagedAnswer<T>(
  c: Context,
  fake: GithubFake,
  items: readonly T[],
  wrap: (page: T[]) => unknown = (page) => page,
): Response {
  const url = new URL(c.req.url);
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get("per_page") ?? 30) || 30));
  const page = Math.max(1, Number(url.searchParams.get("page") ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (n: number, rel: string) => {
    const target = new URL(`${fake.url}${url.pathname}${url.search}`);
    target.searchParams.set("page", String(n));
    return `<${target.href}>; rel="${rel}"`;
  };
  const links = [
    ...(page < last ? [link(page + 1, "next"), link(last, "last")] : []),
    ...(page > 1 ? [link(1, "first"), link(page - 1, "prev")] : []),
  ];
  const body = wrap(items.slice((page - 1) * perPage, page * perPage));
  return fake.json(c, 200, body, links.length > 0 ? { link: links.join(", ") } : {});
}

/** GitHub's error body: the message, the page of its docs, and the status as a string (as GitHub sends it). */
export function errorBody(status: number, message: string, documentation: string) {
  return {
    message,
    documentation_url: `https://docs.github.com/rest/${documentation}`,
    status: String(status),
  };
}

/**
 * An error GitHub sends but its OpenAPI description does not list for that operation (a 403 from a
 * re-run, a 422 from a dispatch): answered as GitHub sends it, without the description check, which
 * has no schema to hold it to. Each use names the report that shows GitHub sending it.
 */
export function undocumentedError(status: number, message: string, documentation: string): Response {
  return new Response(JSON.stringify(errorBody(status, message, documentation)), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** A deep copy of the first item of GitHub's list example `name`, with `overrides` laid over it. */
export function exampleItem<T extends Record<string, unknown>>(
  name: string,
  overrides: Record<string, unknown> = {},
): T {
  const found = githubDescription().components.examples[name]?.value;
  if (!Array.isArray(found) || found.length === 0) throw new Error(`GitHub's example ${name} is not a list`);
  return { ...structuredClone(found[0] as T), ...overrides };
}

/** Git's object id of a blob: sha1 of `blob <size>\0<bytes>`, as GitHub reports a file's `sha`. */
export function gitBlobSha(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/** A made-up but well-formed 40-character object id, stable for the same seed. */
export function objectId(seed: string): string {
  return createHash("sha1").update(seed).digest("hex");
}
