/**
 * @module The fake's label and milestone endpoints over the issue store they classify, each reproducing the
 * GitHub page named beside it: adding a label the repository lacks creates it, removing one the issue
 * does not carry is a 404 "Label does not exist".
 */
import type { Hono } from "hono";
import type { FakeRoutes, GithubFake } from "./github-fake.js";
import { labelNamed, labelPayload, milestonePayload } from "./issues-payloads.js";
import { issueOf, labelFor, repositoryOf } from "./issues-routes.js";
import { type IssueStore, seedIssueStore, timestamp } from "./issues-store.js";
import { pageOf, validationFailed } from "./pulls-answers.js";

const DOCS = "https://docs.github.com/rest/issues";

/** The label and milestone routes over a fresh seed. */
export const labelRoutes: FakeRoutes = (app, fake) => labelRoutesOver(seedIssueStore())(app, fake);

/** The label and milestone routes over a store a test holds (the same one as its issue routes). */
export const labelRoutesOver =
  (store: IssueStore): FakeRoutes =>
  (app, fake) => {
    listLabels(app, fake, store);
    addLabels(app, fake, store);
    removeLabel(app, fake, store);
    listMilestones(app, fake, store);
  };

/** docs.github.com/rest/issues/labels#list-labels-for-a-repository */
function listLabels(app: Hono, fake: GithubFake, store: IssueStore) {
  app.get("/repos/:owner/:repo/labels", (c) => {
    const repository = repositoryOf(c, fake, store, `${DOCS}/labels#list-labels-for-a-repository`);
    if (repository instanceof Response) return repository;
    const page = pageOf(c, repository.labels);
    return fake.json(
      c,
      200,
      page.items.map((label) => labelPayload(repository, label)),
      page.headers,
    );
  });
}

/**
 * docs.github.com/rest/issues/labels#add-labels-to-an-issue: `{labels: [...]}` (or a bare array) added to
 * the issue's labels; a name the repository lacks becomes a new grey label (github/docs#35718); a name over
 * 50 characters is a 422 on the Label's name. Answers every label the issue now carries.
 */
function addLabels(app: Hono, fake: GithubFake, store: IssueStore) {
  const documentation = `${DOCS}/labels#add-labels-to-an-issue`;
  app.post("/repos/:owner/:repo/issues/:issue_number/labels", async (c) => {
    const found = issueOf(c, fake, store, documentation);
    if (found instanceof Response) return found;
    const sent = (await c.req.json()) as { labels?: (string | { name: string })[] } | string[];
    const labels = Array.isArray(sent) ? sent : (sent.labels ?? []);
    const names = labels.map((label) => (typeof label === "string" ? label : label.name));
    const tooLong = names.find((name) => name.length > 50);
    if (tooLong !== undefined) {
      return validationFailed(c, fake, documentation, [
        { value: tooLong, resource: "Label", field: "name", code: "invalid" },
      ]);
    }
    const { repository, issue } = found;
    for (const name of names) {
      const stored = labelFor(repository, name);
      if (!issue.labels.includes(stored)) issue.labels.push(stored);
    }
    issue.updatedAt = timestamp();
    return fake.json(
      c,
      200,
      issue.labels.map((name) => labelPayload(repository, labelNamed(repository, name))),
    );
  });
}

/** docs.github.com/rest/issues/labels#remove-a-label-from-an-issue: answers the labels that remain. */
function removeLabel(app: Hono, fake: GithubFake, store: IssueStore) {
  const documentation = `${DOCS}/labels#remove-a-label-from-an-issue`;
  app.delete("/repos/:owner/:repo/issues/:issue_number/labels/:name", (c) => {
    const found = issueOf(c, fake, store, documentation);
    if (found instanceof Response) return found;
    const { repository, issue } = found;
    const name = c.req.param("name").toLowerCase();
    const index = issue.labels.findIndex((label) => label.toLowerCase() === name);
    if (index < 0) {
      return fake.json(c, 404, {
        message: "Label does not exist",
        documentation_url: documentation,
        status: "404",
      });
    }
    issue.labels.splice(index, 1);
    issue.updatedAt = timestamp();
    return fake.json(
      c,
      200,
      issue.labels.map((label) => labelPayload(repository, labelNamed(repository, label))),
    );
  });
}

/** docs.github.com/rest/issues/milestones#list-milestones: open ones by due date unless asked otherwise. */
function listMilestones(app: Hono, fake: GithubFake, store: IssueStore) {
  app.get("/repos/:owner/:repo/milestones", (c) => {
    const repository = repositoryOf(c, fake, store, `${DOCS}/milestones#list-milestones`);
    if (repository instanceof Response) return repository;
    const state = c.req.query("state") ?? "open";
    const sort = c.req.query("sort") ?? "due_on";
    const sign = (c.req.query("direction") ?? "asc") === "asc" ? 1 : -1;
    const payloads = repository.milestones
      .filter((milestone) => state === "all" || milestone.state === state)
      .map((milestone) => milestonePayload(repository, milestone));
    const key = (payload: Record<string, number | string | null>) =>
      sort === "completeness"
        ? Number(payload.closed_issues) /
          Math.max(1, Number(payload.open_issues) + Number(payload.closed_issues))
        : // The fake puts milestones with no due date last.
          String(payload.due_on ?? "9999");
    const sorted = payloads.sort(
      (a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.number - b.number),
    );
    const page = pageOf(c, sorted);
    return fake.json(c, 200, page.items, page.headers);
  });
}
