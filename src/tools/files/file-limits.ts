/** @module The bounds of the file tools, in one place so the descriptions, code and tests agree. */

export const FILE_LIMITS = {
  /** Characters in a path argument. */
  pathChars: 1_024,
  read: {
    /** Bytes of a file read to find a line range. */
    scanBytes: 4 * 1024 * 1024,
    /** Bytes of text returned. */
    returnBytes: 64 * 1024,
  },
  list: {
    defaultEntries: 200,
    maxEntries: 1_000,
    defaultDepth: 3,
    maxDepth: 8,
    /** Directory entries looked at, returned or not. */
    scannedEntries: 10_000,
  },
  search: {
    queryChars: 200,
    defaultMatches: 50,
    maxMatches: 500,
    /** Files opened and read. */
    files: 1_000,
    /** Bytes read across all files. */
    bytes: 16 * 1024 * 1024,
    /** Directory levels below the starting point. */
    depth: 16,
    /** Entries read from one directory; the rest of a larger one is not searched. */
    directoryEntries: 10_000,
    /** Characters of a matching line returned. */
    lineChars: 200,
  },
  write: {
    /** Bytes of content in one call. */
    contentBytes: 1024 * 1024,
    /** Size an existing file may have for `append` (it is rewritten whole, atomically). */
    appendFileBytes: 8 * 1024 * 1024,
  },
} as const;
