import ExcelJS from "exceljs";
import JSZip from "jszip";
import { markdownDocument, passages, pdfDocument } from "./knowledge-data.ts";
import { randomSource } from "./random.ts";

// Ordinary documents of a given file size, of every type a datasource accepts, written from the
// retrieval corpus's prose: what a help centre uploads, for measuring what reading them costs.

export const DOCUMENT_TYPES = ["md", "txt", "csv", "json", "html", "pdf", "docx", "pptx", "xlsx"];

export const MIME_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const OFFICE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function relationships(list: ReadonlyArray<[id: string, type: string, target: string]>): string {
  const entries = list
    .map(
      ([id, type, target]) =>
        `<Relationship Id="${id}" Type="${OFFICE_REL}/${type}" Target="${target}"/>`,
    )
    .join("");
  return `${XML_HEADER}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries}</Relationships>`;
}

function contentTypes(parts: Record<string, string>): string {
  const overrides = Object.entries(parts)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join("");
  return `${XML_HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`;
}

function zip(parts: Record<string, string | Buffer>): Promise<Buffer> {
  const archive = new JSZip();
  for (const [path, content] of Object.entries(parts)) archive.file(path, content);
  return archive.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

/** Bytes that do not compress, standing for the pictures of a real document. */
function picture(bytes: number, seed: number): Buffer {
  const random = randomSource(seed);
  const data = Buffer.alloc(bytes);
  for (let index = 0; index + 4 <= bytes; index += 4) {
    data.writeUInt32LE(Math.floor(random() * 2 ** 32), index);
  }
  return data;
}

/** A Word document of `units` blocks: a heading every tenth, a small table every fiftieth. */
function docx(units: number, pictureBytes = 0): Promise<Buffer> {
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  const text = passages(units, 4, 11);
  const run = (value: string) =>
    `<w:r><w:rPr><w:lang w:val="en-US"/></w:rPr><w:t xml:space="preserve">${escapeXml(value)}</w:t></w:r>`;
  const paragraph = (value: string, style = "Normal") =>
    `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${run(value)}</w:p>`;
  const cell = (value: string) => `<w:tc>${paragraph(value)}</w:tc>`;
  const body = text
    .map((value, index) => {
      if (index % 50 === 49) {
        return `<w:tbl><w:tr>${cell("Plan")}${cell("Details")}</w:tr><w:tr>${cell(`Plan ${index}`)}${cell(value.slice(0, 120))}</w:tr></w:tbl>`;
      }
      if (index % 10 === 0) return paragraph(value.split(".")[0]!.slice(0, 80), "Heading2");
      return paragraph(value);
    })
    .join("");
  return zip({
    "[Content_Types].xml": contentTypes({
      "/word/document.xml":
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
      "/word/styles.xml":
        "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
    }),
    "_rels/.rels": relationships([["rId1", "officeDocument", "word/document.xml"]]),
    "word/_rels/document.xml.rels": relationships([["rId1", "styles", "styles.xml"]]),
    "word/styles.xml": `${XML_HEADER}<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`,
    "word/document.xml": `${XML_HEADER}<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
    ...(pictureBytes > 0 ? { "word/media/image1.png": picture(pictureBytes, 23) } : {}),
  });
}

/** A presentation of `units` slides, each a title and five bullets. */
function pptx(units: number, pictureBytes = 0): Promise<Buffer> {
  const NS = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${OFFICE_REL}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
  const text = passages(units * 6, 1, 13);
  const shape = (placeholder: string, lines: string[]) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Shape"/><p:cNvSpPr/><p:nvPr><p:ph type="${placeholder}"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${lines
      .map((line) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${escapeXml(line)}</a:t></a:r></a:p>`)
      .join("")}</p:txBody></p:sp>`;
  const parts: Record<string, string> = {};
  const types: Record<string, string> = {
    "/ppt/presentation.xml":
      "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
  };
  const ids: string[] = [];
  const rels: Array<[string, string, string]> = [];
  for (let slide = 1; slide <= units; slide++) {
    const lines = text.slice((slide - 1) * 6, slide * 6);
    parts[`ppt/slides/slide${slide}.xml`] =
      `${XML_HEADER}<p:sld ${NS}><p:cSld><p:spTree>${shape("title", [lines[0]!.slice(0, 60)])}${shape("body", lines.slice(1))}</p:spTree></p:cSld></p:sld>`;
    types[`/ppt/slides/slide${slide}.xml`] =
      "application/vnd.openxmlformats-officedocument.presentationml.slide+xml";
    ids.push(`<p:sldId id="${255 + slide}" r:id="rId${slide}"/>`);
    rels.push([`rId${slide}`, "slide", `slides/slide${slide}.xml`]);
  }
  return zip({
    ...parts,
    "[Content_Types].xml": contentTypes(types),
    "_rels/.rels": relationships([["rId1", "officeDocument", "ppt/presentation.xml"]]),
    "ppt/presentation.xml": `${XML_HEADER}<p:presentation ${NS}><p:sldIdLst>${ids.join("")}</p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels": relationships(rels),
    ...(pictureBytes > 0 ? { "ppt/media/image1.png": picture(pictureBytes, 29) } : {}),
  });
}

/** A workbook of one sheet: `units` rows of an id, a sentence, a number, a date and a status. */
async function xlsx(units: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Tickets");
  sheet.addRow(["Ticket", "Summary", "Minutes", "Opened", "Status"]);
  const text = passages(units, 1, 17);
  for (const [index, summary] of text.entries()) {
    sheet.addRow([
      `T-${index}`,
      summary,
      (index * 7) % 600,
      new Date(Date.UTC(2025, index % 12, 1 + (index % 28))),
      index % 3 === 0 ? "open" : "closed",
    ]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The document of this type built from `units` units of prose (paragraphs, rows, slides…). */
async function build(type: string, units: number, pictureBytes = 0): Promise<Buffer> {
  switch (type) {
    case "md":
      return Buffer.from(markdownDocument(units, units * 400, 3));
    case "txt":
      return Buffer.from(passages(units, 4, 5).join("\n\n"));
    case "csv":
      return Buffer.from(
        `ticket,summary,minutes\n${passages(units, 1, 7)
          .map((line, index) => `T-${index},"${line.replace(/"/g, '""')}",${index % 600}`)
          .join("\n")}\n`,
      );
    case "json":
      return Buffer.from(
        JSON.stringify(
          passages(units, 2, 9).map((answer, index) => ({
            id: index,
            question: `Q${index}`,
            answer,
          })),
        ),
      );
    case "html":
      return Buffer.from(
        `<!doctype html><html><head><title>Help</title></head><body><nav><a href="/">Home</a></nav><main>${passages(
          units,
          4,
          19,
        )
          .map((text, index) =>
            index % 10 === 0
              ? `<h2>${escapeXml(text.slice(0, 60))}</h2>`
              : `<p>${escapeXml(text)}</p>`,
          )
          .join("")}</main></body></html>`,
      );
    case "pdf":
      return pdfDocument(units * 400, 21);
    case "docx":
      return docx(units, pictureBytes);
    case "pptx":
      return pptx(units, pictureBytes);
    case "xlsx":
      return xlsx(units);
    default:
      throw new Error(`no generator for ${type}`);
  }
}

/** Above this size a Word document or a presentation is mostly pictures, as real ones are. */
const TEXT_ONLY_UP_TO = 1024 * 1024;

/**
 * A document of this type of about `bytes` bytes on disk, sized from a sample's size per unit.
 * Word documents and presentations over 1 MB are a quarter text, the rest pictures.
 */
export async function ordinaryDocument(type: string, bytes: number): Promise<Buffer> {
  const withPictures = (type === "docx" || type === "pptx") && bytes > TEXT_ONLY_UP_TO;
  const textBytes = withPictures ? bytes / 4 : bytes;
  const sampleUnits = 500;
  const sample = await build(type, sampleUnits);
  const units = Math.max(1, Math.round((sampleUnits * textBytes) / sample.byteLength));
  if (!withPictures) return build(type, units);
  const text = await build(type, units);
  return build(type, units, Math.max(0, Math.round(bytes - text.byteLength)));
}
