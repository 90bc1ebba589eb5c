import { describe, expect, it } from "vitest";
import { extensionOfMediaType, mediaTypeOfName } from "./artifact-address.js";

describe("mediaTypeOfName and extensionOfMediaType", () => {
  it.each([
    ["video-luma.mp4", "video/mp4", "mp4"],
    ["clip.MOV", "video/quicktime", "mov"],
    ["clip.webm", "video/webm", "webm"],
    ["image-replicate.avif", "image/avif", "avif"],
    ["image-openai.png", "image/png", "png"],
    ["speech.wav", "audio/wav", "wav"],
  ])("reads %s back as %s, named .%s", (name, mediaType, extension) => {
    expect(mediaTypeOfName(name)).toBe(mediaType);
    expect(extensionOfMediaType(mediaType)).toBe(extension);
  });

  it("serves an unknown extension, or none, as an octet stream, named .bin", () => {
    expect(mediaTypeOfName("archive.xyz")).toBe("application/octet-stream");
    expect(mediaTypeOfName("README")).toBe("application/octet-stream");
    expect(extensionOfMediaType("application/x-unknown")).toBe("bin");
  });
});
