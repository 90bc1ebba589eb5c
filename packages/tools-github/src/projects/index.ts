/** @module The project tools (Projects v2, over GraphQL): list, read, create, and add, set and remove items. */
import type { AnyToolSpec } from "toolreg/toolkit";
import type { GithubEnv } from "../github-env.js";
import { addProjectItem } from "./add-project-item.js";
import { createProject } from "./create-project.js";
import { getProject } from "./get-project.js";
import { listProjects } from "./list-projects.js";
import { removeProjectItem } from "./remove-project-item.js";
import { setProjectField } from "./set-project-field.js";

export const projectTools: AnyToolSpec<GithubEnv>[] = [
  listProjects,
  getProject,
  createProject,
  addProjectItem,
  setProjectField,
  removeProjectItem,
];
