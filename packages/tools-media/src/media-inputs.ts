/** @module The fields both generation tools take, bounded: a prompt and an aspect ratio. */
import { z } from "zod";
import { ASPECT_RATIOS } from "./media-provider.js";

/** Within every provider's bounds: Luma takes 3 to 5000 characters, dall-e-3 at most 4000. */
export const PROMPT_CHARS = { min: 3, max: 4000 } as const;

export const promptField = z
  .string()
  .trim()
  .min(PROMPT_CHARS.min)
  .max(PROMPT_CHARS.max)
  .refine((text) => !hasControlCharacters(text), "no control characters besides tabs and line breaks")
  .describe("what to generate, in plain words: subject, setting, style");

export const aspectRatioField = z
  .enum(ASPECT_RATIOS)
  .default("1:1")
  .describe("1:1 square, 16:9 landscape or 9:16 portrait");

function hasControlCharacters(text: string): boolean {
  for (const character of text) {
    const code = character.charCodeAt(0);
    if ((code < 0x20 && character !== "\t" && character !== "\n" && character !== "\r") || code === 0x7f)
      return true;
  }
  return false;
}
