/** @module The project tools (Projects v2, over GraphQL): list, read, create, and add, set and remove items. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";

export const projectTools: AnyToolSpec<GithubEnv>[] = [];
