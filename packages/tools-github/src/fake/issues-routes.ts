/** @module The fake's issue endpoints, with GitHub's documented shapes. */
import type { FakeRoutes } from "./github-fake.js";
import { issuePayload } from "./payloads.js";

export const issueRoutes: FakeRoutes = (app, fake) => {
  app.get("/repos/:owner/:repo/issues/:issue_number", (c) => {
    const number = Number(c.req.param("issue_number"));
    if (c.req.param("owner") !== "octocat" || c.req.param("repo") !== "hello-world" || number > 100) {
      return fake.json(c, 404, {
        message: "Not Found",
        documentation_url: "https://docs.github.com/rest/issues/issues#get-an-issue",
        status: "404",
      });
    }
    return fake.json(
      c,
      200,
      issuePayload(fake.url, { number, title: `Issue ${number}`, body: "It breaks." }),
    );
  });
};
