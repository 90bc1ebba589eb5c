/**
 * @module Preloaded (`--import`) by scripts/adapters-node24.sh in every process of its run — vitest, its
 * workers and the children the cross-process tests start: the frameworks under test, and the native
 * better-sqlite3 built for this Node, resolve from the cache directory in ADAPTERS_NODE24_CACHE instead of
 * the repo's node_modules, whoever imports or requires them.
 */
import { createRequire, registerHooks } from "node:module";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The packages taken from the cache, with their subpaths (`ai/test`). */
export const FROM_CACHE = ["ai", "@openai/agents-core", "better-sqlite3"];

/** Whether `specifier` names one of FROM_CACHE or a subpath of it. */
export function fromCache(specifier) {
  return FROM_CACHE.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

const cache = process.env.ADAPTERS_NODE24_CACHE;
if (!cache) throw new Error("ADAPTERS_NODE24_CACHE names the cache directory the frameworks resolve from");

/** A file in the cache directory: resolving from it finds the cache's node_modules first. */
export const CACHE_ANCHOR = resolve(cache, "package.json");
const anchorUrl = pathToFileURL(CACHE_ANCHOR).href;
const requireFromCache = createRequire(CACHE_ANCHOR);

/** Set while requireFromCache resolves, whose own resolution passes through this hook again. */
let resolvingInCache = false;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (resolvingInCache || !fromCache(specifier)) return nextResolve(specifier, context);
    if (!context.conditions?.includes("require")) {
      return nextResolve(specifier, { ...context, parentURL: anchorUrl });
    }
    // require()'s resolution goes by the requiring module, whatever parent a hook hands on: resolve it here.
    resolvingInCache = true;
    try {
      return { url: pathToFileURL(requireFromCache.resolve(specifier)).href, shortCircuit: true };
    } finally {
      resolvingInCache = false;
    }
  },
});
