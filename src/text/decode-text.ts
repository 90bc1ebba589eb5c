/**
 * @module Text from an uploaded file's bytes, in the charset its media type names: read_attachment and the
 * document reader decode alike, so a Latin-1 or UTF-16 file one of them reads the other reads too.
 */

/** The charset a media type names (`text/plain; charset=ISO-8859-1`), if it names one. */
export function charsetOf(mediaType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(mediaType)?.[1];
}

/**
 * The text of `bytes`: a byte order mark decides first (and is dropped), then the charset named, when this
 * runtime knows it, then UTF-8. Not fatal: a stray invalid byte becomes U+FFFD rather than losing the file.
 */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  const marked =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? "utf-16be"
        : bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
          ? "utf-8"
          : undefined;
  try {
    return new TextDecoder(marked ?? charset ?? "utf-8").decode(bytes);
  } catch {
    // A charset this runtime does not know (the constructor's RangeError): read as UTF-8.
    return new TextDecoder("utf-8").decode(bytes);
  }
}
