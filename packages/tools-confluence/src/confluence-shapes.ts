/**
 * @module The parts of Confluence's answers the tools read, as zod schemas: v2's PageSingle, SpaceBulk and
 * FooterCommentModel with MultiEntityResult's `_links.next` (the v2 OpenAPI description, openapi-v2.v3.json),
 * and v1's SearchPageResponseSearchResult (developer.atlassian.com/cloud/confluence/rest/v1/api-group-search).
 * Fields the tools do not read are not checked.
 */
import { z } from "zod";

const Links = z.object({ webui: z.string().optional(), base: z.string().optional() }).optional();
const ListLinks = z
  .object({ next: z.string().optional(), context: z.string().optional(), base: z.string().optional() })
  .optional();

export const PageSchema = z.object({
  id: z.string(),
  status: z.string(),
  title: z.string(),
  spaceId: z.string(),
  parentId: z.string().nullish(),
  version: z.object({
    number: z.int().min(1),
    createdAt: z.string().optional(),
    authorId: z.string().optional(),
  }),
  body: z.object({ storage: z.object({ value: z.string() }).optional() }).optional(),
  _links: Links,
});

const SpaceSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  type: z.string().optional(),
  status: z.string().optional(),
  homepageId: z.string().nullish(),
  description: z.object({ plain: z.object({ value: z.string() }).optional() }).nullish(),
  _links: Links,
});

export const SpacesPageSchema = z.object({ results: z.array(SpaceSchema), _links: ListLinks });

const SearchResultSchema = z.object({
  title: z.string().optional(),
  excerpt: z.string().optional(),
  url: z.string().optional(),
  entityType: z.string().optional(),
  lastModified: z.string().optional(),
  content: z
    .object({ id: z.string(), type: z.string(), status: z.string().optional(), title: z.string().optional() })
    .optional(),
  resultGlobalContainer: z
    .object({ title: z.string().optional(), displayUrl: z.string().optional() })
    .optional(),
});
export type SearchResult = z.output<typeof SearchResultSchema>;

export const SearchPageSchema = z.object({
  results: z.array(SearchResultSchema),
  totalSize: z.int().optional(),
  _links: ListLinks,
});

export const FooterCommentSchema = z.object({
  id: z.string(),
  pageId: z.string().optional(),
  version: z.object({ number: z.int() }).optional(),
  _links: Links,
});
