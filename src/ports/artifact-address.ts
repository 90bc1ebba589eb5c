/**
 * @module How an artifact is addressed, whatever keeps its bytes: its id is the sha256 of the bytes, its name
 * a plain file name, so every adapter refuses and finds alike.
 */
import { createHash } from "node:crypto";
import type { Artifact, ArtifactInput } from "./artifact-store.js";

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const SHA256 = /^[0-9a-f]{64}$/;

const isFileName = (name: string) => FILE_NAME.test(name) && !name.includes("..");

/** The artifact `input` is stored as; throws when its name is not a plain file name. */
export function addressArtifact({ name, mediaType, bytes }: ArtifactInput): Artifact {
  if (!isFileName(name)) throw new Error(`"${name}" is not a plain file name`);
  const id = createHash("sha256").update(bytes).digest("hex");
  return { id, name, mediaType, size: bytes.byteLength, uri: `artifact://${id}/${name}` };
}

/** Whether `id` and `name` could address an artifact: anything else names none, and is never looked up. */
export const isArtifactAddress = (id: string, name: string): boolean => SHA256.test(id) && isFileName(name);

/** Media types by file extension: a store keeps an artifact's bytes under its name, not always its type. */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  md: "text/markdown",
  txt: "text/plain",
  html: "text/html",
  json: "application/json",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  avif: "image/avif",
  mp4: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  wav: "audio/wav",
  mp3: "audio/mpeg",
};

/** The media type an artifact's name stands for, read back from its extension; an octet stream when unknown. */
export function mediaTypeOfName(name: string): string {
  const dot = name.lastIndexOf(".");
  return (
    (dot === -1 ? undefined : MEDIA_TYPES[name.slice(dot + 1).toLowerCase()]) ?? "application/octet-stream"
  );
}

/** The extension an artifact of `mediaType` is named with, so `mediaTypeOfName` reads its type back; `bin` when none does. */
export function extensionOfMediaType(mediaType: string): string {
  const type = mediaType.split(";")[0]?.trim().toLowerCase();
  return Object.keys(MEDIA_TYPES).find((extension) => MEDIA_TYPES[extension] === type) ?? "bin";
}
