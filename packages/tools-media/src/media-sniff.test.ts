import { describe, expect, it } from "vitest";
import { HTML, MP4, PNG } from "./fake/media-files.js";
import { sniffMedia } from "./media-sniff.js";

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe("sniffMedia", () => {
  it("reads images and videos by their signatures", () => {
    expect(sniffMedia(PNG)?.mediaType).toBe("image/png");
    expect(sniffMedia(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0))?.mediaType).toBe("image/jpeg");
    expect(sniffMedia(text("GIF89a......"))?.mediaType).toBe("image/gif");
    expect(sniffMedia(text("RIFF\0\0\0\0WEBPVP8 "))?.mediaType).toBe("image/webp");
    expect(sniffMedia(text("\0\0\0\x1cftypavif\0\0\0\0"))?.mediaType).toBe("image/avif");
    expect(sniffMedia(MP4)).toEqual({ kind: "video", mediaType: "video/mp4", extension: "mp4" });
    expect(sniffMedia(text("\0\0\0\x14ftypqt  \0\0\0\0"))?.mediaType).toBe("video/quicktime");
    expect(sniffMedia(bytes(0x1a, 0x45, 0xdf, 0xa3, 1))?.mediaType).toBe("video/webm");
  });

  it("knows nothing else: a page, an SVG (script can hide in it), a truncated signature, nothing", () => {
    expect(sniffMedia(HTML)).toBeUndefined();
    expect(sniffMedia(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffMedia(PNG.subarray(0, 4))).toBeUndefined();
    expect(sniffMedia(text("RIFF\0\0\0\0WAVE"))).toBeUndefined();
    expect(sniffMedia(new Uint8Array())).toBeUndefined();
  });
});
