/**
 * @module A zip archive's entries, read from its central directory, and each one's true unpacked size proved
 * before any zip library meets the archive. A zip bomb (a kilobyte that inflates to gigabytes) is refused on
 * the sizes the directory declares, and a directory that lies is caught by inflating each entry with an output
 * cap of its declared size, so nothing is ever unpacked past what was checked.
 */
import { inflateRawSync } from "node:zlib";
import { ToolFailure } from "../errors/tool-failure.js";

export const ZIP_LIMITS = {
  entries: 10_000,
  /** Every entry unpacked together: a long report with its images, far from a bomb's gigabytes. */
  unpackedBytes: 64 * 1024 * 1024,
} as const;

export interface ZipEntry {
  name: string;
  /** Its place in the directory, from 1: how a refusal names it, since the name is the file's own text. */
  number: number;
  method: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts. */
  offset: number;
}

const END_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const END_SIZE = 22;
const MAX_COMMENT = 0xffff;
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

// No refusal quotes an entry's name: it is text from inside the file (up to 64 KiB, newlines and all) and
// would reach the model unfenced. An entry is named by its number instead.
const damaged = (reason: string) =>
  new ToolFailure("invalid_input", `the file is not a readable zip archive: ${reason}`);

/** The entries of the archive, checked against the caps and against each other; throws `invalid_input`. */
export function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(view);
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0)
    throw damaged("it spans several disks");
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === ZIP64_MARK)
    throw tooLarge("a ZIP64 archive, made for files of gigabytes");
  if (count > ZIP_LIMITS.entries) throw tooLarge(`${count} entries, over ${ZIP_LIMITS.entries}`);
  // Nothing between the directory and its end record: a zip library that finds the directory by shifting
  // past such bytes would read other entries than the ones checked here.
  if (directoryOffset + directorySize !== end)
    throw damaged("its central directory is not where its end record says");

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let unpacked = 0;
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (at + 46 > end || view.getUint32(at, true) !== CENTRAL_SIGNATURE)
      throw damaged("its central directory is cut short");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength > end) throw damaged("its central directory is cut short");
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if ((flags & 1) === 1)
      throw new ToolFailure("invalid_input", "the file is encrypted: it cannot be read without its password");
    if (size === ZIP64_MARK || compressedSize === ZIP64_MARK || offset === ZIP64_MARK)
      throw tooLarge("a ZIP64 entry, made for files of gigabytes");
    if (method !== STORED && method !== DEFLATED)
      throw damaged(`entry ${index + 1} is packed with method ${method}, which is not read here`);
    if (names.has(name)) throw damaged(`entry ${index + 1} repeats the name of an entry before it`);
    names.add(name);
    unpacked += size;
    if (unpacked > ZIP_LIMITS.unpackedBytes)
      throw tooLarge(`its entries unpack to more than ${ZIP_LIMITS.unpackedBytes / 1024 / 1024} MiB`);
    entries.push({ name, number: index + 1, method, compressedSize, size, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry's bytes, unpacked with an output cap of its declared size: an entry that would inflate past what
 * the directory declared (a bomb that lies) stops at the cap and is refused.
 */
export function unpackEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (entry.offset + 30 > bytes.length || view.getUint32(entry.offset, true) !== LOCAL_SIGNATURE)
    throw damaged(`entry ${entry.number} is not where the directory says`);
  const start =
    entry.offset + 30 + view.getUint16(entry.offset + 26, true) + view.getUint16(entry.offset + 28, true);
  if (start + entry.compressedSize > bytes.length) throw damaged(`entry ${entry.number} is cut short`);
  const packed = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === STORED) {
    if (entry.size !== entry.compressedSize) throw damaged(`entry ${entry.number} is stored with two sizes`);
    return packed;
  }
  let unpacked: Uint8Array;
  try {
    // One byte more than declared, so an entry that goes past its declaration is seen to.
    unpacked = inflateRawSync(packed, { maxOutputLength: entry.size + 1 });
  } catch (error) {
    if (error instanceof RangeError)
      throw tooLarge(`entry ${entry.number} unpacks to more than the ${entry.size} bytes it declares`);
    throw damaged(`entry ${entry.number} does not inflate`);
  }
  if (unpacked.length !== entry.size)
    throw damaged(
      `entry ${entry.number} unpacks to ${unpacked.length} bytes, not the ${entry.size} it declares`,
    );
  return unpacked;
}

function findEnd(view: DataView): number {
  const last = view.byteLength - END_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let at = last; at >= first; at--) if (view.getUint32(at, true) === END_SIGNATURE) return at;
  throw damaged("it has no end-of-directory record (cut short?)");
}

function tooLarge(reason: string): ToolFailure {
  return new ToolFailure(
    "invalid_input",
    `the file was refused without unpacking it: ${reason} (a document may unpack to at most ${ZIP_LIMITS.unpackedBytes / 1024 / 1024} MiB)`,
    { details: { reason: "too_large_unpacked", limit: ZIP_LIMITS.unpackedBytes } },
  );
}
