import { defineConfig } from "vitest/config";
import { CACHE_ANCHOR, fromCache } from "./scripts/adapters-node24-resolve.mjs";
import base from "./vitest.config.js";

/**
 * The adapters' tests against the framework versions in the cache of scripts/adapters-node24.sh, which runs
 * this config on Node 24 with scripts/adapters-node24-resolve.mjs preloaded. That preload redirects what
 * Node resolves; this plugin does the same for what vite resolves itself: the imports in the sources and
 * tests it transforms.
 */
export default defineConfig({
  ...base,
  plugins: [
    {
      name: "frameworks-from-cache",
      enforce: "pre",
      resolveId(source, _importer, options) {
        if (!fromCache(source)) return null;
        return this.resolve(source, CACHE_ANCHOR, { ...options, skipSelf: true });
      },
    },
  ],
  test: { ...base.test, include: ["src/adapters/**/*.test.ts"] },
});
