/**
 * @module The audio a `transcribe` call names: an attachment id (read as the caller, so another person's or
 * run's attachment is as missing as one that never was) or an artifact address of the caller's tenant. Its
 * size is bounded and its format read from its first bytes, whatever name or type it was stored under.
 */
import { ToolFailure } from "../../errors/tool-failure.js";
import { isArtifactAddress } from "../../ports/artifact-address.js";
import { ATTACHMENT_ID } from "../../ports/attachment-rules.js";
import type { ToolContext } from "../../seam/context.js";
import { KEPT_OUTPUT_FILE } from "../../seam/output-store.js";
import { type AudioEnv, sizeOf } from "./audio-env.js";
import { type AudioFormat, sniffAudio } from "./audio-format.js";

const ARTIFACT_URI = /^artifact:\/\/([^/]+)\/([^/]+)$/;

export interface AudioSource {
  bytes: Uint8Array;
  format: AudioFormat;
  /** What it is, for messages and provenance: `attachment att_… (memo.m4a)`. */
  label: string;
}

const notFound = (audio: string) =>
  new ToolFailure(
    "invalid_input",
    `there is no audio ${audio} you can read: it was removed, has expired, or belongs to another person, run or tenant; list_attachments shows the attachment ids`,
    { details: { reason: "not_found" } },
  );

async function readBytes(
  audio: string,
  context: ToolContext,
  { attachments, artifacts }: AudioEnv,
): Promise<{ bytes: Uint8Array; label: string }> {
  if (ATTACHMENT_ID.test(audio)) {
    if (!attachments)
      throw new ToolFailure(
        "precondition_failed",
        "this deployment keeps no attachments; name an artifact:// address instead",
      );
    const { tenantId, principalId, runId } = context;
    const found = await attachments.read({ tenantId, principalId, runId }, audio);
    if (!found) throw notFound(audio);
    return { bytes: found.bytes, label: `attachment ${audio} (${found.attachment.name})` };
  }
  const match = ARTIFACT_URI.exec(audio);
  if (match) {
    const [, id = "", name = ""] = match;
    // A kept output is read as toolreg://outputs/{ref}, through its principal's check, never by its artifact
    // address (the rule artifact-resources.ts keeps); compared without case, as a disk may ignore it.
    if (!isArtifactAddress(id, name) || name.toLowerCase() === KEPT_OUTPUT_FILE) throw notFound(audio);
    if (!artifacts)
      throw new ToolFailure(
        "precondition_failed",
        "this deployment keeps no artifacts; name an attachment id instead",
      );
    const found = await artifacts.get({ tenantId: context.tenantId, id, name });
    if (!found) throw notFound(audio);
    return { bytes: found.bytes, label: `artifact ${name}` };
  }
  throw new ToolFailure(
    "invalid_input",
    'audio is an attachment id ("att_…", from list_attachments) or an artifact address ("artifact://<id>/<name>")',
  );
}

/** The named audio, within `maxBytes` and in a format an engine takes, or the ToolFailure why not. */
export async function readAudio(
  audio: string,
  maxBytes: number,
  context: ToolContext,
  env: AudioEnv,
): Promise<AudioSource> {
  const { bytes, label } = await readBytes(audio, context, env);
  if (bytes.byteLength > maxBytes) {
    throw new ToolFailure(
      "invalid_input",
      `${label} is ${sizeOf(bytes.byteLength)}, over the ${sizeOf(maxBytes)} the transcription engine takes; send a shorter or more compressed recording`,
      { details: { reason: "too_large", limit: maxBytes, size: bytes.byteLength } },
    );
  }
  const format = sniffAudio(bytes);
  if (!format) {
    throw new ToolFailure(
      "invalid_input",
      `${label} is not audio in a format transcribe reads (wav, mp3, m4a/mp4, ogg, webm, flac), whatever its name says`,
      { details: { reason: "not_audio" } },
    );
  }
  return { bytes, format, label };
}
