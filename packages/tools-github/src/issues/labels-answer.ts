/** @module The answer of the tools that change an issue's labels: the labels it carries now (names people chose: untrusted). */

// biome-ignore lint/suspicious/noExplicitAny: GitHub's label payloads.
export function labelsAnswer(where: string, payload: any[]) {
  const labels = payload.map((label) => label.name as string);
  const source = String(payload[0]?.url ?? "").replace(/\/labels\/[^/]*$/, "/labels");
  return {
    content:
      labels.length > 0 ? `${where} now carries: ${labels.join(", ")}` : `${where} carries no label now`,
    data: { labels },
    ...(labels.length > 0 ? { provenance: { source, trusted: false } } : {}),
  };
}
