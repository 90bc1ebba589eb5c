/**
 * @module What a file's first bytes say it is. A provider's answer names a media type, and a delivery host
 * sends a Content-Type, but either may be wrong or hostile: the artifact's type is read from the bytes, and
 * bytes that are not an image (or a video) are not kept.
 */

export type MediaKind = "image" | "video";

export interface SniffedMedia {
  kind: MediaKind;
  mediaType: string;
  extension: string;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);

const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** The image or video `bytes` hold, judged by their signature; undefined when they are neither. */
export function sniffMedia(bytes: Uint8Array): SniffedMedia | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { kind: "image", mediaType: "image/png", extension: "png" };
  if (startsWith(bytes, [0xff, 0xd8, 0xff]))
    return { kind: "image", mediaType: "image/jpeg", extension: "jpg" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a")))
    return { kind: "image", mediaType: "image/gif", extension: "gif" };
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8))
    return { kind: "image", mediaType: "image/webp", extension: "webp" };
  // ISO base media (MP4, QuickTime): a box size, then `ftyp` and a brand.
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (brand === "avif" || brand === "avis")
      return { kind: "image", mediaType: "image/avif", extension: "avif" };
    if (brand === "qt  ") return { kind: "video", mediaType: "video/quicktime", extension: "mov" };
    return { kind: "video", mediaType: "video/mp4", extension: "mp4" };
  }
  // Matroska/WebM: the EBML header.
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]))
    return { kind: "video", mediaType: "video/webm", extension: "webm" };
  return undefined;
}
