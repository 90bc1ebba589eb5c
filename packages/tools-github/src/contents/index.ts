/** @module The repository tools: code search, files and directories, commits, branches and tags. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { createBranch } from "./create-branch.js";
import { deleteFile } from "./delete-file.js";
import { getCommit } from "./get-commit.js";
import { getFile } from "./get-file.js";
import { listBranches } from "./list-branches.js";
import { listCommits } from "./list-commits.js";
import { listDirectory } from "./list-directory.js";
import { listTags } from "./list-tags.js";
import { searchCode } from "./search-code.js";
import { writeFile } from "./write-file.js";

export const contentTools: AnyToolSpec<GithubEnv>[] = [
  searchCode,
  getFile,
  listDirectory,
  writeFile,
  deleteFile,
  listCommits,
  getCommit,
  listBranches,
  listTags,
  createBranch,
];
