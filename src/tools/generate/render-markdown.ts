/** @module Markdown bytes: the text as given, with one line-ending convention and a final newline. */

export function renderMarkdown(text: string): Uint8Array {
  const normalised = text.replace(/\r\n?/g, "\n").replace(/\n*$/, "\n");
  return new TextEncoder().encode(normalised);
}
