/**
 * @module The fake's payloads start from GitHub's own examples in its OpenAPI description, with the fields a
 * test cares about overridden: the rest of the shape is GitHub's, not ours.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

interface Description {
  components: { examples: Record<string, { value: unknown }> };
}

let description: Description | undefined;

/** GitHub's OpenAPI description of api.github.com, read once. */
export function githubDescription(): Description & Record<string, unknown> {
  description ??= require("@octokit/openapi/generated/api.github.com.json") as Description;
  return description as Description & Record<string, unknown>;
}

/** A deep copy of GitHub's example `name` (components/examples) with `overrides` laid over its top level. */
export function example<T extends Record<string, unknown>>(
  name: string,
  overrides: Partial<T> & Record<string, unknown> = {},
): T {
  const found = githubDescription().components.examples[name];
  if (!found) throw new Error(`GitHub's description has no example named ${name}`);
  return { ...structuredClone(found.value as T), ...overrides };
}
