/**
 * @module The media toolkit's configuration: which provider answers image_generate and which answers
 * video_generate, each with the reference of its key, its model and where its files are delivered from.
 * A tool with no provider does not exist.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";

export const IMAGE_PROVIDERS = ["openai", "replicate", "fal", "modelslab"] as const;
export const VIDEO_PROVIDERS = ["luma", "replicate"] as const;
export type ImageProviderName = (typeof IMAGE_PROVIDERS)[number];
export type VideoProviderName = (typeof VIDEO_PROVIDERS)[number];

const MiB = 1024 * 1024;

const baseUrl = apiRootUrl().meta({
  description: "the API root, replacing the vendor's (a proxy, or a fake in tests)",
});

const hostPattern = z
  .string()
  .regex(/^(\*\.)?[A-Za-z0-9.-]{1,253}$/, "a host name, or *.suffix")
  .meta({ description: "a host generated files may be downloaded from (exact, or *.suffix)" });

const model = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._/:-]{0,199}$/, "a model name: letters, digits and . _ / : -")
  .refine((value) => !value.includes("..") && !value.includes("//") && !value.endsWith("/"), {
    message: "a model name, not a path: no .., // or trailing /",
  })
  .meta({
    description:
      "the provider's model: gpt-image-1 or dall-e-3 (openai), owner/name or owner/name:version (replicate), an endpoint id such as fal-ai/flux/schnell (fal), a model_id such as flux (modelslab), ray-2 (luma)",
  });

const providerFields = {
  credentialRef: z.string().min(1).max(200).meta({
    description: "the credential the provider's API key is resolved from, per call",
  }),
  model: model.optional(),
  baseUrl: baseUrl.optional(),
  deliveryHosts: z.array(hostPattern).min(1).max(10).optional().meta({
    description:
      "where the provider's generated files may be downloaded from, replacing its documented delivery hosts",
  }),
};

export const MediaConfigSchema = z.strictObject({
  image: z
    .strictObject({ provider: z.enum(IMAGE_PROVIDERS), ...providerFields })
    .optional()
    .meta({ description: "the provider behind image_generate; without one the tool does not exist" }),
  video: z
    .strictObject({ provider: z.enum(VIDEO_PROVIDERS), ...providerFields })
    .optional()
    .meta({ description: "the provider behind video_generate; without one the tool does not exist" }),
  maxImageBytes: z
    .int()
    .min(1024)
    .max(64 * MiB)
    .default(20 * MiB)
    .meta({
      description:
        "the largest image kept; a download is also bounded by the egress policy's maxResponseBytes (5 MiB unless the operator raised it)",
    }),
  maxVideoBytes: z
    .int()
    .min(1024)
    .max(512 * MiB)
    .default(100 * MiB)
    .meta({
      description:
        "the largest video kept; a download is also bounded by the egress policy's maxResponseBytes (5 MiB unless the operator raised it)",
    }),
  pollIntervalMs: z
    .int()
    .min(10)
    .max(60_000)
    .default(2_000)
    .meta({ description: "how long to wait between two looks at a generation that is still running" }),
});

export type MediaConfig = z.output<typeof MediaConfigSchema>;
export type ProviderConfig = NonNullable<MediaConfig["image"] | MediaConfig["video"]>;
