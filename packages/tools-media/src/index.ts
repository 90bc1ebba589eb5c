/** @module @toolreg/tools-media — image_generate and video_generate; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type MediaConfig, MediaConfigSchema } from "./media-config.js";
export { mediaToolkit } from "./toolkit.js";
