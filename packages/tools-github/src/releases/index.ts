/** @module The release tools: list, read and create releases. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";

export const releaseTools: AnyToolSpec<GithubEnv>[] = [];
