/**
 * @module The media toolkit: image_generate and video_generate, each answered by the provider the deployment
 * configures (OpenAI Images, Replicate, fal or ModelsLab for images; Luma or Replicate for videos). Requests go through
 * toolreg's egress to the provider's API host with its key injected there; generated files are fetched from
 * the provider's delivery hosts by a second client that holds no key, and kept in the host's artifact store.
 * With no artifact store the toolkit serves nothing: a generated file is never inlined into an answer.
 */
import { type CredentialPlacement, defineToolkit, type ToolkitHost } from "toolreg/toolkit";
import { imageGenerate } from "./image-generate.js";
import { type MediaConfig, MediaConfigSchema, type ProviderConfig } from "./media-config.js";
import type { MediaEnv } from "./media-env.js";
import type { MediaProvider, ProviderParts } from "./media-provider.js";
import { createFal, FAL } from "./providers/fal.js";
import { createLuma, LUMA } from "./providers/luma.js";
import { createModelsLab, MODELSLAB } from "./providers/modelslab.js";
import { createOpenAiImages, OPENAI_IMAGES } from "./providers/openai-images.js";
import { createReplicate, REPLICATE } from "./providers/replicate.js";
import { videoGenerate } from "./video-generate.js";

const PACKAGE = "@toolreg/tools-media";

interface ProviderDefaults {
  baseUrl: string;
  model: string;
  deliveryHosts: readonly string[];
  placement: CredentialPlacement;
  create(parts: ProviderParts): MediaProvider;
}

const IMAGE: Record<NonNullable<MediaConfig["image"]>["provider"], ProviderDefaults> = {
  openai: { ...OPENAI_IMAGES, create: createOpenAiImages },
  replicate: {
    ...REPLICATE,
    model: REPLICATE.imageModel,
    create: (parts) => createReplicate(parts, "image"),
  },
  fal: { ...FAL, create: createFal },
  modelslab: { ...MODELSLAB, create: createModelsLab },
};

const VIDEO: Record<NonNullable<MediaConfig["video"]>["provider"], ProviderDefaults> = {
  luma: { ...LUMA, create: createLuma },
  replicate: {
    ...REPLICATE,
    model: REPLICATE.videoModel,
    create: (parts) => createReplicate(parts, "video"),
  },
};

const hostOf = (url: string) => new URL(url).hostname;

export const mediaToolkit = defineToolkit<MediaConfig, MediaEnv>({
  id: "media",
  version: "0.1.0",
  package: PACKAGE,
  description:
    "Generates images (OpenAI, Replicate, fal or ModelsLab) and short videos (Luma or Replicate) from prompts, kept as artifacts.",
  config: MediaConfigSchema,
  // One placement per toolkit fits a single vendor; this one has five. This names the Bearer key most of
  // them take, and bind injects the configured provider's placement (fal's is `Key`, ModelsLab's a body field).
  auth: { kind: "api-key", header: "authorization", scheme: "Bearer" },
  hosts: [
    ...new Set(
      [...Object.values(IMAGE), ...Object.values(VIDEO)].flatMap((spec) => [
        hostOf(spec.baseUrl),
        ...spec.deliveryHosts,
      ]),
    ),
  ],
  tools: [imageGenerate, videoGenerate],
  reviewedOverrides: [
    { tool: "image_generate", field: "approval" },
    { tool: "video_generate", field: "approval" },
  ],
  bind(config, host): MediaEnv | undefined {
    if (host.artifacts === undefined) return undefined;
    if (config.image === undefined && config.video === undefined) return undefined;
    const build = (
      chosen: ProviderConfig | undefined,
      table: Record<string, ProviderDefaults>,
      maxBytes: number,
    ) => {
      if (chosen === undefined) return undefined;
      const spec = table[chosen.provider];
      if (spec === undefined) throw new TypeError(`toolkit media: no provider ${chosen.provider}`);
      return bindProvider(host, spec, chosen, maxBytes, config.pollIntervalMs);
    };
    return {
      artifacts: host.artifacts,
      image: build(config.image, IMAGE, config.maxImageBytes),
      video: build(config.video, VIDEO, config.maxVideoBytes),
    };
  },
});

function bindProvider(
  host: ToolkitHost,
  spec: ProviderDefaults,
  chosen: ProviderConfig,
  maxBytes: number,
  pollIntervalMs: number,
): MediaProvider {
  const baseUrl = (chosen.baseUrl ?? spec.baseUrl).replace(/\/+$/, "");
  const deliveryHosts = chosen.deliveryHosts ?? spec.deliveryHosts;
  return spec.create({
    api: host.egress({
      hosts: [hostOf(baseUrl)],
      credential: { ...spec.placement, credentialRef: chosen.credentialRef },
    }),
    // No credential: a delivery URL is a signed or public link, and the key must never follow it.
    delivery: { egress: host.egress({ hosts: deliveryHosts }), hosts: deliveryHosts },
    baseUrl,
    model: chosen.model ?? spec.model,
    credentialRef: chosen.credentialRef,
    maxBytes,
    pollIntervalMs,
  });
}
