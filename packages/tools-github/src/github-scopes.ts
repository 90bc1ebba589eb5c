/**
 * @module Which of GitHub's OAuth scopes hold others, as docs.github.com "Scopes for OAuth apps" nests them.
 * GitHub saves a token's scopes normalised, dropping those another requested scope includes (`user,user:email`
 * is kept as `user`), so a tool needing `read:project` is satisfied by a connection granted `project`.
 */

/** Each scope and the scopes it includes, one level as the docs list them; the consent step follows them through. */
export const GITHUB_IMPLIED_SCOPES = {
  repo: ["repo:status", "repo_deployment", "public_repo", "repo:invite", "security_events"],
  "admin:repo_hook": ["write:repo_hook"],
  "write:repo_hook": ["read:repo_hook"],
  "admin:org": ["write:org"],
  "write:org": ["read:org"],
  "admin:public_key": ["write:public_key"],
  "write:public_key": ["read:public_key"],
  user: ["read:user", "user:email", "user:follow"],
  project: ["read:project"],
  "admin:gpg_key": ["write:gpg_key"],
  "write:gpg_key": ["read:gpg_key"],
  "admin:enterprise": ["manage_runners:enterprise", "manage_billing:enterprise", "read:enterprise"],
} as const satisfies Readonly<Record<string, readonly string[]>>;
