/** @module The pull request tools: list, read, search, open, change, review, close and merge. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { closePullRequest } from "./close-pull-request.js";
import { createPullRequest } from "./create-pull-request.js";
import { getPullRequest } from "./get-pull-request.js";
import { listPullRequests } from "./list-pull-requests.js";
import { mergePullRequest } from "./merge-pull-request.js";
import { reviewPullRequest } from "./review-pull-request.js";
import { searchPullRequests } from "./search-pull-requests.js";
import { updatePullRequest } from "./update-pull-request.js";

export const pullTools: AnyToolSpec<GithubEnv>[] = [
  listPullRequests,
  getPullRequest,
  searchPullRequests,
  createPullRequest,
  updatePullRequest,
  reviewPullRequest,
  closePullRequest,
  mergePullRequest,
];
