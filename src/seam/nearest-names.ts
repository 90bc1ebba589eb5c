/** @module The names closest to a mistyped one, so a refusal tells the model what it could call instead. */

/** Up to `limit` candidates, closest first; a candidate containing the name (or contained in it) counts as close. */
export function nearestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const wanted = name.toLowerCase().slice(0, 128);
  return candidates
    .map((candidate) => ({ candidate, distance: distance(wanted, candidate) }))
    .filter(({ candidate, distance }) => distance <= Math.max(3, Math.floor(candidate.length / 2)))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

function distance(a: string, b: string): number {
  if (a.length > 0 && (b.includes(a) || a.includes(b))) return Math.abs(a.length - b.length) === 0 ? 0 : 1;
  // Levenshtein over two rows.
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}
