/** @module The issue tools: read, search, open, change, close and reopen issues, comment, labels and milestones. */
import { getIssue } from "./get-issue.js";

export const issueTools = [getIssue];
