/** @module @toolreg/tools-github — the GitHub toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type GithubConfig, GithubConfigSchema } from "./github-config.js";
export { GITHUB_OAUTH, githubToolkit } from "./toolkit.js";
