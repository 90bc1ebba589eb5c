/** @module The Linear issue tools, reads before writes. */
export { comment } from "./comment.js";
export { createIssue } from "./create-issue.js";
export { getIssue } from "./get-issue.js";
export { searchIssues } from "./search-issues.js";
export { updateIssue } from "./update-issue.js";
