/**
 * @module The contract behind image_generate and video_generate: a provider takes a prompt and gives back
 * the bytes it generated, already fetched and checked. Which provider answers is the deployment's choice.
 */
import type { EgressClient, ToolContext } from "toolreg/toolkit";
import type { Delivery, MediaBytes } from "./media-download.js";

export const ASPECT_RATIOS = ["1:1", "16:9", "9:16"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export interface GenerationRequest {
  prompt: string;
  aspectRatio: AspectRatio;
}

export interface Generated extends MediaBytes {
  /** The provider's id of this generation, when it keeps one (a Replicate prediction, a Luma generation). */
  generationId?: string;
  /** What the caller asked for that this provider did not do (an aspect ratio its model takes none of). */
  note?: string;
  /** The prompt the provider actually used, when it rewrote it (dall-e-3): vendor text, untrusted. */
  revisedPrompt?: string;
}

export interface MediaProvider {
  /** The provider's key in the configuration: `openai`, `replicate`, `fal`, `luma`. */
  name: string;
  label: string;
  model: string;
  generate(request: GenerationRequest, context: ToolContext): Promise<Generated>;
}

/** What a provider is built from once bound. */
export interface ProviderParts {
  /** Reaches the provider's API host only, with its key injected by egress. */
  api: EgressClient;
  /** Reaches its delivery hosts only, with no credential. */
  delivery: Delivery;
  baseUrl: string;
  model: string;
  credentialRef: string;
  maxBytes: number;
  pollIntervalMs: number;
}
