/**
 * @module Names of imported tools: `<prefix>_<tool>`, with the upstream name folded to snake_case. Two
 * upstream names that fold to one are both withheld, never resolved silently by order.
 */

const MAX_NAME_LENGTH = 64;

/** snake_case of any upstream name: `get-sum` → `get_sum`, `readFile` → `read_file`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

export type NameOutcome = { ok: true; name: string } | { ok: false; reason: string };

/** Each upstream name's local name, or why it has none. */
export function importedNames(prefix: string, upstreamNames: readonly string[]): Map<string, NameOutcome> {
  const byLocal = new Map<string, string[]>();
  for (const upstream of upstreamNames) {
    const local = `${prefix}_${snakeCase(upstream)}`;
    byLocal.set(local, [...(byLocal.get(local) ?? []), upstream]);
  }
  const outcomes = new Map<string, NameOutcome>();
  for (const [local, upstreams] of byLocal) {
    for (const upstream of upstreams) {
      if (upstreams.length > 1) {
        outcomes.set(upstream, {
          ok: false,
          reason: `${upstreams.map((name) => JSON.stringify(name)).join(" and ")} would both be ${local}`,
        });
      } else if (snakeCase(upstream) === "") {
        outcomes.set(upstream, { ok: false, reason: `${JSON.stringify(upstream)} has no letters or digits` });
      } else if (local.length > MAX_NAME_LENGTH) {
        outcomes.set(upstream, {
          ok: false,
          reason: `${local} is longer than ${MAX_NAME_LENGTH} characters`,
        });
      } else {
        outcomes.set(upstream, { ok: true, name: local });
      }
    }
  }
  return outcomes;
}
