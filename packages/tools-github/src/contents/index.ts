/** @module The repository tools: code search, files and directories, commits, branches and tags. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";

export const contentTools: AnyToolSpec<GithubEnv>[] = [];
