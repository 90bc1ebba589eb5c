/** @module The release tools: list, read and create releases. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { createRelease } from "./create-release.js";
import { getRelease } from "./get-release.js";
import { listReleases } from "./list-releases.js";

export const releaseTools: AnyToolSpec<GithubEnv>[] = [listReleases, getRelease, createRelease];
