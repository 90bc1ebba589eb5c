/**
 * @module The GitHub tools that list one repository's things from one REST route, declared once: input
 * owner, repo, the tool's own filters and limit; GitHub's pages followed up to the bound; the answer of
 * list-answer.ts. A tool says only what is its own: the route, what it lists, its filters and its line.
 */
import { z } from "zod";
import { githubTool } from "./github-env.js";
import { limitField, repoInput } from "./github-inputs.js";
import { itemsWanted, listAnswer } from "./list-answer.js";

/** What such a tool is called with: the repository, its own filters, and the model's limit. */
export type RepositoryListInput<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>> & {
  owner: string;
  repo: string;
  limit?: number | undefined;
};

export interface GithubListToolSpec<Shape extends z.ZodRawShape, Item> {
  name: string;
  description: string;
  /** GitHub's list endpoint, e.g. `GET /repos/{owner}/{repo}/tags`. */
  route: string;
  /** The tool's own filters, declared between repo and limit; each is sent as the query parameter of its name. */
  shape: Shape;
  /** What the items are, plural, for the answer and for a failure: "tags of octocat/hello-world". */
  what(input: RepositoryListInput<Shape>): string;
  // biome-ignore lint/suspicious/noExplicitAny: GitHub's list item, read field by field.
  item(payload: any): Item;
  line(item: NoInfer<Item>): string;
  /** The page the user-written text came from; `payloads` are the items as GitHub sent them. */
  source(items: NoInfer<Item>[], input: RepositoryListInput<Shape>, payloads: unknown[]): string | undefined;
}

export function githubListTool<Shape extends z.ZodRawShape, Item>(spec: GithubListToolSpec<Shape, Item>) {
  return githubTool({
    name: spec.name,
    description: spec.description,
    category: "project",
    effect: "read",
    cost: "io",
    oauthScopes: ["repo"],
    input: z.object({ ...repoInput, ...spec.shape, limit: limitField }) as unknown as z.ZodType<
      RepositoryListInput<Shape>
    >,
    async run(input, context, env) {
      const { limit, ...params } = input;
      const what = spec.what(input);
      const collected = await env.github(context).list(
        spec.route,
        // A filter the model left out is not sent: GitHub's default applies.
        Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)),
        what,
        itemsWanted(limit, env),
      );
      const items = collected.items.map(spec.item);
      // GitHub's state filter (open by default) is named in the answer: "open milestones of …".
      const state = "state" in params && params.state !== "all" ? `${params.state} ` : "";
      return listAnswer({
        what: `${state}${what}`,
        items,
        collected,
        line: spec.line,
        source: spec.source(items, input, collected.items),
      });
    },
  });
}
