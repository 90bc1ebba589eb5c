/** @module The files the fake providers deliver: a real PNG and MP4 by their signatures, and a page that is neither. */

/** A 1×1 PNG. */
export const PNG = new Uint8Array(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  ),
);

/** A PNG of 8 KB: the signature, then padding, for the byte cap. */
export const LARGE_PNG = new Uint8Array(8192);
LARGE_PNG.set(PNG);

/** The start of an MP4: an `ftyp` box (isom), then a few bytes of an `mdat`. */
export const MP4 = new Uint8Array([
  0x00, 0x00, 0x00, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0x00, 0x00, 0x02, 0x00, 0x69, 0x73,
  0x6f, 0x6d, 0x69, 0x73, 0x6f, 0x32, 0x00, 0x00, 0x00, 0x10, 0x6d, 0x64, 0x61, 0x74, 0x01, 0x02, 0x03, 0x04,
  0x05, 0x06, 0x07, 0x08,
]);

/** An error page served as image/png: a content type that lies about its bytes. */
export const HTML = new TextEncoder().encode("<!doctype html><title>Access denied</title>");
