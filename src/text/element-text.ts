/**
 * @module The text inside the first element of a name in HTML or XML, found by plain scans. A regex with a
 * lazy body between an opening and a closing tag rescans the rest of the file from every opening, so a file
 * of many openings and no closing took minutes; each scan here moves forward only.
 */

/** The raw text between the first `<name …>` and the `</name>` after it, or undefined; `name` is a plain tag name. */
export function elementText(markup: string, name: string): string | undefined {
  const opening = new RegExp(`<${name}(?=[\\s>])`, "i").exec(markup);
  if (!opening) return undefined;
  const bodyStart = markup.indexOf(">", opening.index) + 1;
  if (bodyStart === 0) return undefined;
  const closing = new RegExp(`</${name}\\s*>`, "gi");
  closing.lastIndex = bodyStart;
  const end = closing.exec(markup);
  return end ? markup.slice(bodyStart, end.index) : undefined;
}
