import { describe, expect, it } from "vitest";
import type { FakeRoutes } from "./github-fake.js";
import { startGithubHarness } from "./github-harness.js";
import { checkAgainstOpenApi as check } from "./openapi-check.js";
import { example, githubDescription } from "./payloads.js";

const ISSUE_ROUTE = "/repos/:owner/:repo/issues/:issue_number";
const GET_ISSUE = /GET \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\} \(issues\/get\)/;

const issue = (overrides: Record<string, unknown> = {}) => example("issue", overrides);

describe("checkAgainstOpenApi", () => {
  it("passes GitHub's own example of an issue", () => {
    expect(() => check("GET", ISSUE_ROUTE, 200, issue())).not.toThrow();
  });

  it("fails a wrong type, naming the operation and the field", () => {
    expect(() => check("GET", ISSUE_ROUTE, 200, issue({ title: 42 }))).toThrow(GET_ISSUE);
    expect(() => check("GET", ISSUE_ROUTE, 200, issue({ title: 42 }))).toThrow(/title must be string/);
    const user = { ...(issue().user as object), login: 7 };
    expect(() => check("GET", ISSUE_ROUTE, 200, issue({ user }))).toThrow(/user\.login must be string/);
  });

  it("fails a missing required field, naming it", () => {
    const { number: _number, ...withoutNumber } = issue();
    expect(() => check("GET", ISSUE_ROUTE, 200, withoutNumber)).toThrow(GET_ISSUE);
    expect(() => check("GET", ISSUE_ROUTE, 200, withoutNumber)).toThrow(/number is required but missing/);
  });

  it("names the item of a list that is wrong", () => {
    const items = [issue(), issue({ state: null })];
    expect(() => check("GET", "/repos/:owner/:repo/issues", 200, items)).toThrow(
      /issues\/list-for-repo.*\[1\]\.state must be string/,
    );
  });

  it("honours OpenAPI 3.0 nullable, and refuses null where it is not allowed", () => {
    // milestone and closed_at are nullable; state_reason is nullable with an enum that does not list null.
    expect(() =>
      check("GET", ISSUE_ROUTE, 200, issue({ milestone: null, closed_at: null, state_reason: null })),
    ).not.toThrow();
    expect(() => check("GET", ISSUE_ROUTE, 200, issue({ title: null }))).toThrow(/title must be string/);
    expect(() => check("GET", ISSUE_ROUTE, 200, issue({ state_reason: "abandoned" }))).toThrow(
      /state_reason must be one of \["completed","reopened","not_planned","duplicate",null\]/,
    );
  });

  it("refuses a route GitHub does not document: the fake may not invent endpoints", () => {
    expect(() => check("GET", "/repos/:owner/:repo/issues/:issue_number/votes", 200, [])).toThrow(
      /GitHub documents no GET \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/votes/,
    );
    expect(() => check("PUT", ISSUE_ROUTE, 200, issue())).toThrow(/GitHub documents no PUT/);
  });

  it("refuses a status GitHub does not document for the operation", () => {
    expect(() => check("GET", ISSUE_ROUTE, 418, { message: "teapot" })).toThrow(GET_ISSUE);
    expect(() => check("GET", ISSUE_ROUTE, 418, { message: "teapot" })).toThrow(
      /documents no 418 answer .*\(it documents 200, 301, 304, 404, 410\)/,
    );
  });

  it("checks error bodies against GitHub's error schemas", () => {
    const notFound = {
      message: "Not Found",
      documentation_url: "https://docs.github.com/rest",
      status: "404",
    };
    expect(() => check("GET", ISSUE_ROUTE, 404, notFound)).not.toThrow();
    expect(() => check("GET", ISSUE_ROUTE, 404, { message: 404 })).toThrow(
      /404 answer .*message must be string/,
    );
    // validation-error requires documentation_url; its errors[].value may be null in every branch of its oneOf.
    const route = "/repos/:owner/:repo/issues";
    const failed = {
      message: "Validation Failed",
      errors: [{ resource: "Issue", code: "invalid", value: null }],
    };
    expect(() => check("POST", route, 422, failed)).toThrow(/issues\/create.*documentation_url is required/);
    expect(() =>
      check("POST", route, 422, { ...failed, documentation_url: "https://docs.github.com" }),
    ).not.toThrow();
  });

  it("holds an answer GitHub documents without a body to no body", () => {
    const route = "/repos/:owner/:repo/labels/:name";
    expect(() => check("DELETE", route, 204, undefined)).not.toThrow();
    expect(() => check("DELETE", route, 204, { deleted: true })).toThrow(/documents no JSON body for 204/);
  });

  it("maps Hono routes whatever they name their parameters, regex and wildcard ones included", () => {
    expect(() => check("GET", "/repos/:o/:r/issues/:n{[0-9]+}", 200, issue())).not.toThrow();
    expect(() => check("GET", "/repos/:owner/:repo/contents/:path{.+}", 200, { message: 1 })).toThrow(
      /GET \/repos\/\{owner\}\/\{repo\}\/contents\/\{path\} \(repos\/get-content\)/,
    );
    expect(() => check("GET", "/repos/:owner/:repo/contents/*", 404, { message: "Not Found" })).not.toThrow();
  });

  it("passes every example GitHub gives for the issue, label and milestone operations the tools call", () => {
    const description = githubDescription() as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, ExampleResponse> }>>;
      components: {
        examples: Record<string, { value: unknown }>;
        responses: Record<string, ExampleResponse>;
      };
    };
    const operations: [string, string][] = [
      ["get", "/repos/{owner}/{repo}/issues"],
      ["post", "/repos/{owner}/{repo}/issues"],
      ["get", "/repos/{owner}/{repo}/issues/{issue_number}"],
      ["patch", "/repos/{owner}/{repo}/issues/{issue_number}"],
      ["post", "/repos/{owner}/{repo}/issues/{issue_number}/comments"],
      ["get", "/search/issues"],
      ["get", "/repos/{owner}/{repo}/labels"],
      ["post", "/repos/{owner}/{repo}/issues/{issue_number}/labels"],
      ["delete", "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}"],
      ["get", "/repos/{owner}/{repo}/milestones"],
    ];
    let checked = 0;
    for (const [method, template] of operations) {
      const route = template.replace(/\{(\w+)\}/g, ":$1");
      for (const [status, response] of Object.entries(
        description.paths[template]?.[method]?.responses ?? {},
      )) {
        const resolved = response.$ref
          ? description.components.responses[response.$ref.split("/").at(-1) ?? ""]
          : response;
        for (const [name, entry] of Object.entries(resolved?.content?.["application/json"]?.examples ?? {})) {
          const ref = entry.$ref ?? entry.value?.$ref;
          const value = ref
            ? description.components.examples[ref.split("/").at(-1) ?? ""]?.value
            : entry.value;
          // GitHub's lexical-fallback search example abbreviates its items to the string "...".
          if (name === "lexical-fallback") continue;
          expect(
            () => check(method.toUpperCase(), route, Number(status), value),
            `${method} ${template} ${name}`,
          ).not.toThrow();
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(operations.length);
  });
});

interface ExampleResponse {
  $ref?: string;
  content?: Record<string, { examples?: Record<string, { $ref?: string; value?: { $ref?: string } }> }>;
}

describe("the check, wired into the harness", () => {
  it("answers a shape GitHub never sends with a 500 naming it, and fails the suite that served it", async () => {
    const wrongTitle: FakeRoutes = (app, fake) =>
      app.get(ISSUE_ROUTE, (c) => fake.json(c, 200, issue({ title: 42 })));
    const gh = await startGithubHarness([wrongTitle]);
    const result = await gh.seam.call(gh.context(), "github_get_issue", {
      owner: "octocat",
      repo: "hello-world",
      issue_number: 1,
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(String(result.error.details?.githubMessage)).toMatch(/OpenAPI check.*title must be string/);
    await expect(gh.close()).rejects.toThrow(
      /served answers GitHub never sends:\n.*issues\/get.*title must be string/,
    );
  });
});
