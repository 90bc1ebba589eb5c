/** @module Reads the credential out of an `Authorization: Bearer …` header. */

/** Longer than any credential toolreg issues, short enough that a hostile header costs nothing to refuse. */
const MAX_HEADER_LENGTH = 512;

/** The token of a `Bearer` header (scheme case-insensitive, whitespace trimmed), or undefined. */
export function parseBearer(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_HEADER_LENGTH) return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
