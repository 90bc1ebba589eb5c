/**
 * @module Hacker News through its Algolia search API (https://hn.algolia.com/api): `GET /api/v1/search`
 * ranks by relevance and `/api/v1/search_by_date` by date, `tags=story` keeps to stories, and
 * `numericFilters=created_at_i>=…,created_at_i<=…` bounds the date (Unix seconds). Each hit has its
 * `objectID`, `title`, `url` (null for an Ask HN text post, whose text is `story_text`, HTML), `author`,
 * `points`, `num_comments` and `created_at`. Algolia reports a failure as `{"message":…,"status":…}`; the
 * API allows 10,000 requests an hour from one address.
 */
import { type EgressResponse, endpointUrl, shortDetail, type ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { oneLine, plainText } from "../plain-text.js";
import type { ResearchSource, SourceHit, SourceQuery } from "../research-source.js";
import { getJson, type SourceClient, statusFailure } from "../source-http.js";

export const HACKER_NEWS_BASE_URL = "https://hn.algolia.com";
const SEARCH = "/api/v1/search";
const SEARCH_BY_DATE = "/api/v1/search_by_date";
/** Where a story's discussion lives, whichever search host answered. */
const ITEM_URL = "https://news.ycombinator.com/item?id=";
const TITLE_CHARS = 300;
const SNIPPET_CHARS = 600;
const DAY_SECONDS = 86_400;

const SearchAnswer = z.object({
  hits: z.array(z.unknown()),
  nbHits: z.int().nonnegative().optional(),
});

const Hit = z.object({
  objectID: z.string().regex(/^\d{1,12}$/),
  title: z.string().nullish(),
  url: z.string().nullish(),
  author: z.string().nullish(),
  points: z.int().nullish(),
  num_comments: z.int().nullish(),
  created_at: z.string().nullish(),
  story_text: z.string().nullish(),
});

const AlgoliaError = z.object({ message: z.string() });

export function createHackerNewsSource(client: SourceClient, baseUrl: string): ResearchSource {
  return {
    name: "hackernews",
    label: client.label,
    endpoint: (query) => endpointUrl(baseUrl, query.sort === "date" ? SEARCH_BY_DATE : SEARCH),
    async search(query, context) {
      const url = new URL(endpointUrl(baseUrl, query.sort === "date" ? SEARCH_BY_DATE : SEARCH));
      url.searchParams.set("query", query.query);
      url.searchParams.set("tags", "story");
      url.searchParams.set("hitsPerPage", String(query.count));
      const filters = numericFilters(query);
      if (filters) url.searchParams.set("numericFilters", filters);
      const { answer } = await getJson(client, url.href, context, SearchAnswer, (response, body) =>
        response.status >= 400 ? algoliaFailure(client, response, body) : undefined,
      );
      return {
        total: answer.nbHits,
        hits: answer.hits.flatMap((hit) => hitOf(hit)).slice(0, query.count),
      };
    },
  };
}

function numericFilters(query: SourceQuery): string | undefined {
  const bounds: string[] = [];
  if (query.from !== undefined) bounds.push(`created_at_i>=${Date.parse(`${query.from}T00:00:00Z`) / 1000}`);
  if (query.to !== undefined) {
    bounds.push(`created_at_i<=${Date.parse(`${query.to}T00:00:00Z`) / 1000 + DAY_SECONDS - 1}`);
  }
  return bounds.length > 0 ? bounds.join(",") : undefined;
}

function hitOf(value: unknown): SourceHit[] {
  const parsed = Hit.safeParse(value);
  if (!parsed.success) return [];
  const story = parsed.data;
  const discussion = `${ITEM_URL}${story.objectID}`;
  const counts = `${story.points ?? 0} points, ${story.num_comments ?? 0} comments`;
  const text = story.story_text ? plainText(story.story_text, SNIPPET_CHARS) : "";
  return [
    {
      title: oneLine(story.title ?? "", TITLE_CHARS),
      url: story.url || discussion,
      authors: story.author ? [oneLine(story.author, 100)] : [],
      date: story.created_at ?? undefined,
      snippet: text ? `${counts}. ${text}` : counts,
      ids: { hackerNews: story.objectID },
      ...(story.url ? { related: discussion } : {}),
    },
  ];
}

function algoliaFailure(client: SourceClient, response: EgressResponse, body: unknown): ToolFailure {
  const error = AlgoliaError.safeParse(body);
  return statusFailure(client, response, error.success ? shortDetail(error.data.message) : undefined);
}
