/**
 * @module Confluence's 409 to an update whose version is not the page's current one plus one: the page
 * changed since it was read. v2 says `Version must be incremented when updating a page. Current Version:
 * [5]. Provided version: [5]` (community.developer.atlassian.com/t/98344); v1 said `Version must be
 * incremented on update. Current version is: 5`. Nothing was written, and the tool does not read the page
 * again and retry by itself: that would overwrite an edit the model never saw.
 */
import { ToolFailure } from "toolreg/toolkit";
import type { ConfluenceError } from "../confluence-failure.js";

export function versionConflict(
  pageId: string,
  versionRead: number,
): (error: ConfluenceError) => ToolFailure {
  return (error) => {
    const match = /current version(?: is)?:?\s*\[?(\d+)\]?/i.exec(error.text ?? "");
    const current = match?.[1] === undefined ? undefined : Number(match[1]);
    const now = current === undefined ? "" : ` (it is at version ${current} now)`;
    return new ToolFailure(
      "precondition_failed",
      `page ${pageId} changed since version ${versionRead} was read${now}; nothing was written. Read it again with confluence_get_page, apply the change to what it holds now, and update with the version that returns`,
      {
        retryable: false,
        details: {
          status: 409,
          pageId,
          versionRead,
          ...(current === undefined ? {} : { currentVersion: current }),
        },
      },
    );
  };
}
