/**
 * @module Which untrusted images and audio may reach an MCP caller as content. Only raster images and
 * common audio, and only when the bytes begin as their type says: a fence can wrap text but not pixels,
 * so nothing that is text underneath (SVG markup, HTML labelled `image/png`) is passed on. The model may
 * still read words drawn in an image; the fenced text before it says whose image it is.
 */

/** Leading bytes of each type passed on; `undefined` marks a byte that may be anything. */
const SIGNATURES: Readonly<Record<string, readonly (readonly (number | undefined)[])[]>> = {
  "image/png": [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  "image/jpeg": [[0xff, 0xd8, 0xff]],
  "image/gif": [[0x47, 0x49, 0x46, 0x38]],
  "image/webp": [[0x52, 0x49, 0x46, 0x46, ...Array(4).fill(undefined), 0x57, 0x45, 0x42, 0x50]],
  "audio/wav": [[0x52, 0x49, 0x46, 0x46, ...Array(4).fill(undefined), 0x57, 0x41, 0x56, 0x45]],
  "audio/mpeg": [
    [0x49, 0x44, 0x33],
    [0xff, 0xfb],
    [0xff, 0xf3],
    [0xff, 0xf2],
  ],
  "audio/ogg": [[0x4f, 0x67, 0x67, 0x53]],
  "audio/flac": [[0x66, 0x4c, 0x61, 0x43]],
};
const ALIASES: Readonly<Record<string, string>> = { "audio/x-wav": "audio/wav", "audio/mp3": "audio/mpeg" };

/** The media type `bytes` may be passed on as, or undefined when they are not what `mimeType` says. */
export function passableMedia(mimeType: string, bytes: Uint8Array): string | undefined {
  const type = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  const signatures = SIGNATURES[ALIASES[type] ?? type];
  const matches = signatures?.some((signature) =>
    signature.every((byte, at) => at < bytes.length && (byte === undefined || bytes[at] === byte)),
  );
  return matches ? type : undefined;
}
