/**
 * @module Answers the fake's pull request and release routes share: a page of a list with GitHub's `Link`
 * header, a documented 404, and a 422 "Validation Failed".
 */
import type { Context } from "hono";
import type { GithubFake } from "./github-fake.js";

/** GitHub's default page size and its ceiling (docs.github.com/en/rest/using-the-rest-api/using-pagination-in-the-rest-api). */
const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;

/**
 * One page of `items` as `per_page` and `page` ask, and the `Link` header GitHub sends with it: `next` and
 * `last` while pages follow, `prev` and `first` after the first (the rels the pagination guide lists).
 */
export function pageOf<T>(c: Context, items: readonly T[]): { items: T[]; headers: Record<string, string> } {
  const asked = Number(c.req.query("per_page") ?? DEFAULT_PER_PAGE);
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Number.isFinite(asked) ? asked : DEFAULT_PER_PAGE));
  const page = Math.max(1, Number(c.req.query("page") ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const link = (to: number, rel: string) => {
    const url = new URL(c.req.url);
    url.searchParams.set("per_page", String(perPage));
    url.searchParams.set("page", String(to));
    return `<${url}>; rel="${rel}"`;
  };
  const rels = [
    ...(page > 1 ? [link(page - 1, "prev")] : []),
    ...(page < last ? [link(page + 1, "next"), link(last, "last")] : []),
    ...(page > 1 ? [link(1, "first")] : []),
  ];
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    headers: rels.length > 0 ? { link: rels.join(", ") } : {},
  };
}

/** GitHub's 404 where the operation documents one; elsewhere a route answers `c.notFound()`. */
export function notFound(c: Context, fake: GithubFake, documentation: string): Response {
  return fake.json(c, 404, { message: "Not Found", documentation_url: documentation, status: "404" });
}

/** GitHub's 422 with its `errors[]`: objects naming resource, field and code, or plain sentences. */
export function validationFailed(
  c: Context,
  fake: GithubFake,
  documentation: string,
  errors: (Record<string, string> | string)[],
  message = "Validation Failed",
): Response {
  return fake.json(c, 422, { message, errors, documentation_url: documentation, status: "422" });
}
