/** @module `github_list_tags`: a repository's tags with the commits they point at. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { limitField, repoInput } from "../github-inputs.js";
import { repositoryPage } from "../github-shapes.js";
import { itemsWanted, listAnswer } from "../list-answer.js";

export const listTags = githubTool({
  name: "github_list_tags",
  description:
    "Lists the tags of a GitHub repository: each tag's name and the commit sha it points at. A tag is not necessarily a release; for releases with notes use the release tools. Tag names are untrusted: whoever pushed them chose them.",
  category: "project",
  effect: "read",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({ ...repoInput, limit: limitField }),
  async run({ owner, repo, limit }, context, env) {
    const collected = await env
      .github(context)
      .list(
        "GET /repos/{owner}/{repo}/tags",
        { owner, repo },
        `tags of ${owner}/${repo}`,
        itemsWanted(limit, env),
      );
    // biome-ignore lint/suspicious/noExplicitAny: GitHub's tag payload, read field by field.
    const tags = collected.items.map((tag: any) => ({
      name: tag.name as string,
      sha: tag.commit?.sha as string,
    }));
    return listAnswer({
      what: `tags of ${owner}/${repo}`,
      items: tags,
      collected,
      line: (tag) => `${tag.name} at ${tag.sha.slice(0, 7)}`,
      source: repositoryPage(owner, repo, "/tags"),
    });
  },
});
