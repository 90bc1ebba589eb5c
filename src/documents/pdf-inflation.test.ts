/**
 * @module The PDF inflation budget on real PDFs: bombs written by hand (a content stream of deflated zeros far
 * over the budget, behind a filter array, behind a /Length that lies, in an encrypted file), the run-length and
 * LZW filters counted by their codes, and the fixtures' ordinary PDFs that must still read.
 */
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { flatedZeros, generatedReportPdf, handMadePdf, headedPdf } from "../../test/support/documents.js";
import { refusal } from "../../test/support/refusal.js";
import type { ExtractRequest } from "../ports/document-extractor.js";
import { createDocumentExtractor } from "./document-extractor.js";
import { checkPdfInflation, PDF_LIMITS } from "./pdf-inflation.js";

const MiB = 1024 * 1024;
const hello = new TextEncoder().encode("BT /F1 12 Tf 20 100 Td (Hello from a flate stream) Tj ET");

const read = (bytes: Uint8Array, extra: Partial<ExtractRequest> = {}) =>
  createDocumentExtractor().extract({
    bytes,
    mediaType: "application/pdf",
    maxChars: 50_000,
    maxPages: 50,
    ...extra,
  });

describe("checkPdfInflation", () => {
  it("refuses a PDF bomb before pdf.js parses it, quickly and without holding what it inflates to", async () => {
    const bomb = handMadePdf("/Filter /FlateDecode", await flatedZeros(512));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    const started = performance.now();
    const failure = await refusal(read(bomb));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
    expect(failure.code).toBe("invalid_input");
    expect(failure.message).toBe(
      "the PDF was refused before it was read: its compressed streams inflate to more than 64 MiB, the most a document may unpack to",
    );
    expect(failure.details).toEqual({ reason: "too_large_unpacked", limit: PDF_LIMITS.inflatedBytes });
  });

  it("still reads the fixtures' PDFs and a hand-made one whose small stream is deflated", async () => {
    await expect(checkPdfInflation(await generatedReportPdf())).resolves.toBeUndefined();
    await expect(checkPdfInflation(await headedPdf())).resolves.toBeUndefined();
    const document = await read(handMadePdf("/Filter [/FlateDecode]", deflateSync(hello)));
    expect(document.sections.map((section) => section.text).join(" ")).toContain("Hello from a flate stream");
  });

  it("counts every stream, object streams among them, against the budget", async () => {
    // pdf-lib's default save packs the objects into a compressed object stream.
    const failure = await refusal(checkPdfInflation(await headedPdf(), undefined, 100));
    expect(failure.details).toEqual({ reason: "too_large_unpacked", limit: 100 });
    const separate = handMadePdf("/Filter /FlateDecode", deflateSync(new Uint8Array(5000)));
    await expect(checkPdfInflation(separate, undefined, 5000)).resolves.toBeUndefined();
    await refusal(checkPdfInflation(separate, undefined, 4999));
  });

  it("refuses a bomb behind a filter array that starts with ASCIIHexDecode or ASCII85Decode", async () => {
    const packed = await flatedZeros(128);
    const hex = handMadePdf(
      "/Filter [/ASCIIHexDecode /FlateDecode]",
      new TextEncoder().encode(`${Buffer.from(packed).toString("hex")}>`),
    );
    expect((await refusal(read(hex))).details).toMatchObject({ reason: "too_large_unpacked" });
    const small = handMadePdf(
      "/Filter [/AHx /Fl]",
      new TextEncoder().encode(`${Buffer.from(deflateSync(hello)).toString("hex")}>`),
    );
    await expect(checkPdfInflation(small)).resolves.toBeUndefined();
    expect((await read(small)).sections[0]?.text).toContain("Hello from a flate stream");
    // `z` is four zero bytes in ASCII85: "z" repeated decodes to four times its length.
    const eighty = handMadePdf("/Filter /ASCII85Decode", new TextEncoder().encode(`${"z".repeat(1000)}~>`));
    await expect(checkPdfInflation(eighty, undefined, 4000)).resolves.toBeUndefined();
    await refusal(checkPdfInflation(eighty, undefined, 3999));
  });

  it("reads a stream to its true end, whatever its /Length or an early endstream says", async () => {
    const packed = await flatedZeros(128);
    const lying = handMadePdf("/Length 10 /Filter /FlateDecode", packed);
    expect((await refusal(read(lying))).message).toContain("more than 64 MiB");
    // No `endstream` at all, and a /Length far past the file's end: the data is still inflated to its end.
    const cut = handMadePdf("/Length 999999999 /Filter /FlateDecode", packed);
    const unended = cut.subarray(0, cut.indexOf(0x0a, cut.length - packed.length - 2) + 1 + packed.length);
    await refusal(checkPdfInflation(unended));
  });

  it("counts run-length and LZW streams by their codes", async () => {
    // Each pair repeats one byte 128 times: 40 pairs make 5120 bytes, then 128 ends the data.
    const runs = new Uint8Array([...Array.from({ length: 40 }, () => [129, 0x41]).flat(), 128]);
    const runLength = handMadePdf("/Filter /RunLengthDecode", runs);
    await expect(checkPdfInflation(runLength, undefined, 5120)).resolves.toBeUndefined();
    await refusal(checkPdfInflation(runLength, undefined, 5119));
    // After a clear, codes 0, 258, 259, ... each name the string before it and one byte more: 1 + 2 + ... + 200.
    const codes = [256, 0, ...Array.from({ length: 199 }, (_, index) => 258 + index), 257];
    const lzw = handMadePdf("/Filter /LZWDecode", lzwCodes(codes));
    const size = (200 * 201) / 2;
    await expect(checkPdfInflation(lzw, undefined, size)).resolves.toBeUndefined();
    await refusal(checkPdfInflation(lzw, undefined, size - 1));
  });

  it("counts an encrypted PDF's streams at deflate's greatest ratio, as their data cannot be read first", async () => {
    // 100 bytes of data, and the end of line before `endstream` that pdf.js may take as data.
    const bytes = Buffer.from(handMadePdf("/Filter /FlateDecode", new Uint8Array(100)));
    const encrypted = new Uint8Array(
      Buffer.from(bytes.toString("latin1").replace("/Root 1 0 R", "/Root 1 0 R /Encrypt 9 0 R"), "latin1"),
    );
    await expect(checkPdfInflation(encrypted, undefined, 101 * 1032)).resolves.toBeUndefined();
    expect((await refusal(checkPdfInflation(encrypted, undefined, 101 * 1032 - 1))).message).toContain(
      "it is encrypted",
    );
  });

  it("refuses streams hidden inside one another, and more streams than it measures", async () => {
    // Stored (level 0) deflate data shows the stream inside it: each level is inflated again, over and over.
    let nested: Uint8Array = deflateSync(new Uint8Array(10_000).fill(7), { level: 0 });
    for (let level = 0; level < 4; level++)
      nested = deflateSync(Buffer.concat([Buffer.from("<< >>stream\n"), nested]), { level: 0 });
    const overlapping = await refusal(checkPdfInflation(handMadePdf("/Filter /FlateDecode", nested)));
    expect(overlapping.details).toEqual({ reason: "overlapping_streams" });

    const many = new TextEncoder().encode("<< >>stream\nx\nendstream\n".repeat(PDF_LIMITS.streams + 1));
    const failure = await refusal(checkPdfInflation(handMadePdf("", many)));
    expect(failure.message).toBe(
      `the PDF was refused before it was read: it has more than ${PDF_LIMITS.streams} streams`,
    );
  });

  it("stops when the call is cancelled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    await expect(checkPdfInflation(await headedPdf(), controller.signal)).rejects.toThrow("cancelled");
  });
});

/** LZW codes packed most significant bit first, 9 bits wide while fewer than 511 codes are in use. */
function lzwCodes(codes: number[]): Uint8Array {
  let bits = "";
  for (const code of codes) bits += code.toString(2).padStart(9, "0");
  bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, "0");
  return Uint8Array.from(bits.match(/.{8}/g) ?? [], (byte) => Number.parseInt(byte, 2));
}
