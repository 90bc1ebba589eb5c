/**
 * @module What both tools do with a generation: keep its bytes as an artifact and answer with its address.
 * The file is never inlined; the provider's revised prompt, when there is one, is vendor text and the
 * answer carrying it is marked untrusted.
 */
import type { ToolContext } from "toolreg/toolkit";
import type { MediaEnv } from "./media-env.js";
import type { GenerationRequest, MediaProvider } from "./media-provider.js";

export interface GeneratedArtifact {
  artifactId: string;
  uri: string;
  name: string;
  mediaType: string;
  size: number;
  provider: string;
  model: string;
  generationId?: string;
  /** What was asked and not done (an aspect ratio the model takes none of). */
  note?: string;
  revisedPrompt?: string;
}

export async function generateAndKeep(
  provider: MediaProvider,
  request: GenerationRequest,
  context: ToolContext,
  env: MediaEnv,
) {
  const generated = await provider.generate(request, context);
  const { sniffed } = generated;
  const artifact = await env.artifacts.put({
    tenantId: context.tenantId,
    name: `${sniffed.kind}-${provider.name}.${sniffed.extension}`,
    mediaType: sniffed.mediaType,
    bytes: generated.bytes,
    provenance: { source: `${provider.name}:${provider.model}`, trusted: false },
  });
  const data: GeneratedArtifact = {
    artifactId: artifact.id,
    uri: artifact.uri,
    name: artifact.name,
    mediaType: artifact.mediaType,
    size: artifact.size,
    provider: provider.name,
    model: provider.model,
    ...(generated.generationId ? { generationId: generated.generationId } : {}),
    ...(generated.note ? { note: generated.note } : {}),
    ...(generated.revisedPrompt ? { revisedPrompt: generated.revisedPrompt } : {}),
  };
  const made = `Generated ${sniffed.kind === "image" ? "an image" : "a video"} (${artifact.mediaType}, ${artifact.size} bytes) with ${provider.label} ${provider.model}: ${artifact.uri}${generated.note ? `\nNote: ${generated.note}.` : ""}`;
  if (generated.revisedPrompt === undefined) return { content: made, data };
  return {
    content: `${made}\nThe provider rewrote the prompt to: ${generated.revisedPrompt}`,
    data,
    provenance: { source: `${provider.name}:${provider.model}`, trusted: false },
  };
}
