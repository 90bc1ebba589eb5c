/**
 * @module The properties a page may be written with, read from where it lives before any write. Notion does
 * not refuse a property name its schema lacks in every case (issue #24: it reported success and dropped it),
 * so the toolkit reads the schema first: a data source's `properties` (GET /v1/data_sources/{id},
 * developers.notion.com/reference/retrieve-a-data-source), or, for a page under a page or the workspace,
 * the one property such a page has, its `title` (developers.notion.com/reference/post-page).
 */
import type { Client, DataSourceObjectResponse, GetPageResponse } from "@notionhq/client";
import { isFullDataSource, isFullPage } from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
import { plainText } from "../blocks/rich-text.js";
import type { NotionCall } from "../notion-client.js";

/** One property as a write needs it: its type, and the options of a status (the only list Notion will not grow). */
export interface PropertyShape {
  type: string;
  options?: readonly string[];
}

/** The properties of the place a page lives, by name. */
export interface PageSchema {
  /** "data source <name> (<id>)" or "a page outside any data source", for messages. */
  where: string;
  dataSourceId?: string;
  properties: Readonly<Record<string, PropertyShape>>;
}

/** A page whose parent is a page, a block or the workspace has one property: its title, named "title". */
export const STANDALONE_PAGE: PageSchema = {
  where: "a page outside any data source",
  properties: { title: { type: "title" } },
};

type SchemaEntry = DataSourceObjectResponse["properties"][string];

export async function dataSourceSchema(notion: NotionCall, dataSourceId: string): Promise<PageSchema> {
  const source = await notion.call(`the schema of data source ${dataSourceId}`, (client: Client) =>
    client.dataSources.retrieve({ data_source_id: dataSourceId }),
  );
  if (!isFullDataSource(source)) {
    throw new ToolFailure(
      "upstream_error",
      `Notion returned only part of data source ${dataSourceId}: the integration may lack the read content capability`,
      { retryable: false },
    );
  }
  const properties = Object.fromEntries(
    Object.entries(source.properties).map(([name, entry]) => [name, shapeOf(entry)]),
  );
  const title = plainText(source.title) || "untitled";
  return { where: `data source "${title}" (${source.id})`, dataSourceId: source.id, properties };
}

/** The schema of the place an existing page lives: its data source's, or a standalone page's. */
export async function schemaOfPage(notion: NotionCall, page: GetPageResponse): Promise<PageSchema> {
  if (!isFullPage(page)) {
    throw new ToolFailure(
      "upstream_error",
      `Notion returned only part of page ${page.id}: the integration may lack the read content capability`,
      { retryable: false },
    );
  }
  if (page.parent.type === "data_source_id") return dataSourceSchema(notion, page.parent.data_source_id);
  if (page.parent.type === "database_id") {
    throw new ToolFailure(
      "precondition_failed",
      `page ${page.id} sits in database ${page.parent.database_id} as an older API version describes it; open it in Notion to find its data source`,
      { retryable: false },
    );
  }
  return STANDALONE_PAGE;
}

function shapeOf(entry: SchemaEntry): PropertyShape {
  if (entry.type === "status")
    return { type: "status", options: entry.status.options.map((option) => option.name) };
  return { type: entry.type };
}
