#!/usr/bin/env bash
# The official MCP conformance suite's client scenarios against toolreg's import: for each scenario the suite
# starts its server and runs test/mcp/conformance/import-client.js with its URL, which imports it into a
# fresh `toolreg serve` (OAuth settings from the scenario's context), completes any consent as its user
# would through toolreg's start link and callback, lists the imported tools and calls each over /mcp.
# Prints pass or FAIL for each scenario run with the suite's counts, and each one not run with its reason;
# exits non-zero when any scenario run fails or the suite lists none.
#
# Environment: as scripts/mcp-conformance-install.sh (MCP_CONFORMANCE_CACHE, MCP_CONFORMANCE_NODE).
set -euo pipefail
cd "$(dirname "$0")/.."

# Scenarios not run, with the reason. A name here that the suite no longer lists fails the run.
declare -A NOT_RUN=(
  [auth/client-credentials-jwt]="the client credentials grant (an extension): toolreg's import is authorized by a user's consent, not as a machine client"
  [auth/client-credentials-basic]="the client credentials grant (an extension): toolreg's import is authorized by a user's consent, not as a machine client"
  [auth/cross-app-access-complete-flow]="cross-app access (an extension: an enterprise IdP's ID-JAG exchanged for a token) is not implemented"
)

started=$SECONDS
log=mcp-conformance-client
# shellcheck source=scripts/mcp-conformance-install.sh
source scripts/mcp-conformance-install.sh

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "mcp-conformance-client: $SUITE_PACKAGE on node $("$node24" --version) against toolreg's import"
list_scenarios client "${!NOT_RUN[@]}"

failed=()
run=0
checks_passed=0
checks_failed=0
for scenario in "${listed[@]}"; do
  [ -n "${NOT_RUN[$scenario]:-}" ] && continue
  run=$((run + 1))
  out="$work/${scenario//\//_}.log"
  status=0
  "$node24" "$suite" client --command "node test/mcp/conformance/import-client.js" \
    --scenario "$scenario" --timeout 60000 >"$out" 2>&1 || status=$?
  # The suite ends with "Passed: P/T, F failed, W warnings".
  counts="$(grep -o 'Passed: [0-9]*/[0-9]*, [0-9]* failed, [0-9]* warnings' "$out" | tail -n 1 || true)"
  passed="$(echo "$counts" | sed -n 's/Passed: \([0-9]*\)\/.*/\1/p')"
  failures="$(echo "$counts" | sed -n 's/.*, \([0-9]*\) failed.*/\1/p')"
  checks_passed=$((checks_passed + ${passed:-0}))
  checks_failed=$((checks_failed + ${failures:-0}))
  if [ "$status" -eq 0 ] && [ -n "$counts" ] && [ "${failures:-1}" -eq 0 ]; then
    printf '  pass  %-42s %s\n' "$scenario" "$counts"
    sed 's/\x1b\[[0-9;]*m//g' "$out" | sed -n 's/^[^ ]* \(\[.*\] *WARNING .*\)/        \1/p'
  else
    printf '  FAIL  %-42s %s\n' "$scenario" "${counts:-exit $status}"
    sed 's/\x1b\[[0-9;]*m//g' "$out" | grep -v '^[0-9-]*T[0-9:.]*Z \[.*\] *\(INFO\|SUCCESS\) ' | sed 's/^/        /'
    failed+=("$scenario")
  fi
done
for scenario in "${listed[@]}"; do
  [ -n "${NOT_RUN[$scenario]:-}" ] && printf '  skip  %-42s %s\n' "$scenario" "${NOT_RUN[$scenario]}"
done

echo "mcp-conformance-client: $((run - ${#failed[@]}))/$run scenarios passed, ${#failed[@]} failed," \
  "${#NOT_RUN[@]} of ${#listed[@]} not run ($checks_passed checks passed, $checks_failed failed)" \
  "in $((SECONDS - started)) s"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "mcp-conformance-client: failed: ${failed[*]}" >&2
  exit 1
fi
