/** @module The issue tools: read, search, open, change, close and reopen issues, comment, labels and milestones. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { addLabels } from "./add-labels.js";
import { closeIssue } from "./close-issue.js";
import { comment } from "./comment.js";
import { createIssue } from "./create-issue.js";
import { getIssue } from "./get-issue.js";
import { listIssues } from "./list-issues.js";
import { listLabels } from "./list-labels.js";
import { listMilestones } from "./list-milestones.js";
import { removeLabel } from "./remove-label.js";
import { reopenIssue } from "./reopen-issue.js";
import { searchIssues } from "./search-issues.js";
import { updateIssue } from "./update-issue.js";

export const issueTools: AnyToolSpec<GithubEnv>[] = [
  getIssue,
  listIssues,
  searchIssues,
  createIssue,
  updateIssue,
  closeIssue,
  reopenIssue,
  comment,
  listLabels,
  addLabels,
  removeLabel,
  listMilestones,
];
