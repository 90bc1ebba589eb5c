/** @module The pull request tools: list, read, search, open, change, review, close and merge. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";

export const pullTools: AnyToolSpec<GithubEnv>[] = [];
