/** @module What the audio tools run against once bound: the configured engines and the host's stores. */
import type { ArtifactStore } from "../../ports/artifact-store.js";
import type { AttachmentStore } from "../../ports/attachment-store.js";
import type { SpeechProvider } from "../../ports/speech-provider.js";
import type { TranscriptionProvider } from "../../ports/transcription-provider.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface AudioEnv {
  /** Behind `transcribe`; absent when the deployment configured none. */
  transcription?: TranscriptionProvider | undefined;
  /** Behind `speech_generate`; absent when the deployment configured none. */
  speech?: SpeechProvider | undefined;
  /** Where `transcribe` finds an attachment id's audio. */
  attachments?: AttachmentStore | undefined;
  /** Where `speech_generate` keeps its audio, and `transcribe` finds an `artifact://` address's. */
  artifacts?: ArtifactStore | undefined;
}

/** Declares an audio tool: its `run` receives the bound AudioEnv. */
export const audioTool = toolFor<AudioEnv>();

/** Bytes as a person reads them: 512 B, 1.2 KiB, 3.4 MiB. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
