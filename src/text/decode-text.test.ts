/** @module One decoder for uploaded text: the byte order mark, then the named charset, then UTF-8. */
import { describe, expect, it } from "vitest";
import { charsetOf, decodeText } from "./decode-text.js";

describe("decodeText", () => {
  it("reads the charset a media type names, a byte order mark first, UTF-8 for an unknown one", () => {
    expect(charsetOf('text/plain; charset="ISO-8859-1"')).toBe("ISO-8859-1");
    expect(charsetOf("text/plain")).toBeUndefined();
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "ISO-8859-1")).toBe("café");
    expect(decodeText(new Uint8Array(Buffer.from("hé", "utf16le")), "utf-16le")).toBe("hé");
    expect(decodeText(new Uint8Array([0xff, 0xfe, 0x68, 0x00]), "ISO-8859-1")).toBe("h");
    expect(decodeText(new TextEncoder().encode("é"), "no-such-charset")).toBe("é");
  });
});
