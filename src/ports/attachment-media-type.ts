/**
 * @module The media type of an attachment when its uploader gave none: read from the file name's extension,
 * the artifact table first, then the text and office types people attach that it lacks.
 */
import { mediaTypeOfName } from "./artifact-address.js";

const MORE_TYPES: Readonly<Record<string, string>> = {
  markdown: "text/markdown",
  log: "text/plain",
  tsv: "text/tab-separated-values",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  ndjson: "application/x-ndjson",
  htm: "text/html",
  js: "text/javascript",
  ts: "text/plain",
  py: "text/x-python",
  sql: "application/sql",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  zip: "application/zip",
};

/** A type and subtype, with optional parameters, as an uploader may state one. */
const MEDIA_TYPE =
  /^[a-z0-9][\w!#$&^.+-]{0,63}\/[a-z0-9][\w!#$&^.+-]{0,126}(\s*;\s*[\w.-]+=("[^"\p{Cc}]*"|[\w.-]+))*$/iu;

/** Whether `mediaType` is a well-formed media type an attachment may be stored with. */
export const isMediaType = (mediaType: string): boolean =>
  mediaType.length <= 200 && MEDIA_TYPE.test(mediaType);

/** The media type a file named `name` stands for; an octet stream when its extension says nothing. */
export function attachmentMediaType(name: string): string {
  const dot = name.lastIndexOf(".");
  const known = dot === -1 ? undefined : MORE_TYPES[name.slice(dot + 1).toLowerCase()];
  return known ?? mediaTypeOfName(name);
}
