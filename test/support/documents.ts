/**
 * @module Real documents for the extractor's and read_document's tests, made by the libraries that write
 * them: a PDF from file_generate's renderer and one with heading sizes and a metadata title from pdf-lib, a
 * DOCX from the `docx` package, a saved web page, and zip archives built byte by byte for the hostile cases.
 */
import { createDeflate, deflateRawSync } from "node:zlib";
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { renderPdf } from "../../src/tools/generate/render-pdf.js";

export const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** file_generate's PDF: a title in large bold, then numbered report lines over three pages. */
export async function generatedReportPdf(): Promise<Uint8Array> {
  const lines = Array.from({ length: 130 }, (_, index) => `Line ${index + 1} of the quarterly report.`);
  lines.splice(60, 0, "", "Revenue by region", "");
  const pdf = await renderPdf("Quarterly Report", lines.join("\n"), 10);
  return pdf.bytes;
}

/**
 * A PDF with a metadata title and headings drawn larger than the body: "Terms" (20 pt) and "Payment" (15 pt)
 * on page 1, "Delivery" (15 pt) on page 2, "Annex" (20 pt) on page 3 with a line of two columns.
 */
export async function headedPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  document.setTitle("Supply Agreement 2026");
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);
  const pages: [string, number][][] = [
    [
      ["Terms", 20],
      ["The supplier delivers widgets.", 11],
      ["Payment", 15],
      ["Invoices are due in 30 days.", 11],
    ],
    [
      ["Delivery", 15],
      ["Goods ship from Lyon.", 11],
      ["Each pallet holds 40 boxes.", 11],
    ],
    [
      ["Annex", 20],
      ["# of boxes per pallet: 40", 11],
      ["Prices exclude VAT.", 11],
    ],
  ];
  for (const [index, lines] of pages.entries()) {
    const page = document.addPage([595, 842]);
    let y = 780;
    for (const [text, size] of lines) {
      y -= size * 2.2;
      page.drawText(text, { x: 56, y, size, font: size > 11 ? bold : regular });
    }
    // Two columns on one line, drawn apart as a table's cells are.
    if (index === 2) {
      y -= 11 * 2.2;
      page.drawText("Pallet", { x: 56, y, size: 11, font: regular });
      page.drawText("40 boxes", { x: 300, y, size: 11, font: regular });
    }
  }
  return document.save({ useObjectStreams: false });
}

/** A Word contract: a title in its properties, two heading levels and a price table with a pipe in a cell. */
export async function contractDocx(): Promise<Uint8Array> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const document = new Document({
    title: "Supply Contract",
    sections: [
      {
        children: [
          new Paragraph({ text: "Terms", heading: HeadingLevel.HEADING_1 }),
          new Paragraph("The supplier delivers widgets every month."),
          new Paragraph({ text: "Payment", heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ children: [cell("Item"), cell("Price")] }),
              new TableRow({ children: [cell("Widget | large"), cell("12 EUR")] }),
              new TableRow({ children: [cell("Bolt"), cell("1 EUR")] }),
            ],
          }),
          new Paragraph({ text: "Signatures", heading: HeadingLevel.HEADING_1 }),
          new Paragraph("Signed in Lyon."),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

/** A news page as a browser saves it: navigation, ads, a cookie banner and a footer around one article. */
export const SAVED_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Rivers of Lyon – City Magazine</title>
<script>window.track = () => fetch("https://ads.example/t");</script></head>
<body>
<header><nav><a href="/">Home</a> | <a href="/sport">Sport</a> | <a href="/weather">Weather</a></nav></header>
<div class="ad banner">BUY CHEAP WIDGETS NOW — limited offer</div>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Celebrity gossip</a></li></ul></aside>
<main><article>
<h1>Rivers of Lyon</h1>
<p>${"Lyon sits where the Rhône meets the Saône, and its two rivers have shaped the city's trade for centuries. ".repeat(4)}</p>
<h2>Bridges</h2>
<p>${"More than twenty bridges cross the two rivers, each built for the traffic of its own century. ".repeat(4)}</p>
<table><thead><tr><th>River</th><th>Length (km)</th></tr></thead>
<tbody><tr><td>Rhône</td><td>813</td></tr><tr><td>Saône</td><td>473</td></tr></tbody></table>
<p>${"The quays along both banks were rebuilt as walks and parks in the last twenty years. ".repeat(3)}</p>
</article></main>
<div id="cookie-banner">We use cookies. Accept all?</div>
<footer>© City Magazine · Advertise with us · Privacy</footer>
</body></html>`;

export interface RawZipEntry {
  name: string;
  /** The bytes as stored in the archive (already deflated when `method` is 8). */
  packed: Uint8Array;
  method: 0 | 8;
  /** What the central directory says the entry unpacks to. */
  declaredSize: number;
  /** The general-purpose flags; bit 0 marks an encrypted entry. */
  flags?: number;
}

/** A zip archive written byte by byte, so a test can make one that lies about its sizes. */
export function rawZip(entries: readonly RawZipEntry[]): Uint8Array {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.flags ?? 0, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.packed.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entry.flags ?? 0, 8);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt32LE(entry.packed.length, 20);
    record.writeUInt32LE(entry.declaredSize, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    parts.push(local, name, Buffer.from(entry.packed));
    central.push(record, name);
    offset += local.length + name.length + entry.packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}

/** `megabytes` MiB of zeros deflated: about a thousandth of that in the archive. */
export function deflatedZeros(megabytes: number): Uint8Array {
  return deflateRawSync(Buffer.alloc(megabytes * 1024 * 1024), { level: 9 });
}

/** The smallest DOCX Word's readers accept, written by hand around the main part's XML given. */
export function handMadeDocx(documentXml: string): Uint8Array {
  const stored = (name: string, xml: string) => {
    const bytes = new TextEncoder().encode(xml);
    return { name, packed: bytes, method: 0 as const, declaredSize: bytes.length };
  };
  return rawZip([
    stored(
      "[Content_Types].xml",
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    stored(
      "_rels/.rels",
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    stored("word/document.xml", documentXml),
  ]);
}

/**
 * A one-page PDF written by hand around its content stream, so a test can give that stream any dictionary
 * entries (a filter array, a /Length that lies) and any bytes. The page draws with Helvetica as /F1.
 */
export function handMadePdf(contentEntries: string, content: Uint8Array): Uint8Array {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  const parts: Buffer[] = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  const offsets: number[] = [];
  let length = parts[0]?.length ?? 0;
  for (const [index, object] of objects.entries()) {
    offsets.push(length);
    const body =
      object === null
        ? [
            Buffer.from(`${index + 1} 0 obj\n<< ${contentEntries} >>\nstream\n`),
            Buffer.from(content),
            Buffer.from("\nendstream\nendobj\n"),
          ]
        : [Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`)];
    parts.push(...body);
    length += body.reduce((sum, part) => sum + part.length, 0);
  }
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f \n" +
      offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join(""),
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    `startxref\n${length}\n%%EOF\n`,
  ];
  parts.push(Buffer.from(xref.join("\n")));
  return new Uint8Array(Buffer.concat(parts));
}

/** `megabytes` MiB of zeros in zlib's format (FlateDecode's), deflated a MiB at a time so none is ever held. */
export async function flatedZeros(megabytes: number): Promise<Uint8Array> {
  const deflater = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflater.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve, reject) => deflater.on("end", resolve).on("error", reject));
  const mebibyte = Buffer.alloc(1024 * 1024);
  for (let index = 0; index < megabytes; index++)
    if (!deflater.write(mebibyte)) await new Promise((resolve) => deflater.once("drain", resolve));
  deflater.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}
