import ExcelJS from "exceljs";
import JSZip from "jszip";

// Real OOXML parts, written by hand with the namespaces and relationships Office itself uses, so
// the loaders are tested against the same structure they meet in files from Word and PowerPoint.

const RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const OFFICE_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
const NAMESPACES_PPT = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${OFFICE_REL}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
const XML_HEADER = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

function contentTypes(overrides: Record<string, string>): string {
  const entries = Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join("");
  return `${XML_HEADER}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${entries}</Types>`;
}

function relationships(list: ReadonlyArray<{ id: string; type: string; target: string }>): string {
  const entries = list
    .map(
      ({ id, type, target }) =>
        `<Relationship Id="${id}" Type="${OFFICE_REL}/${type}" Target="${target}"/>`,
    )
    .join("");
  return `${XML_HEADER}<Relationships xmlns="${RELS_NS}">${entries}</Relationships>`;
}

/** A Word document with a heading 1, a paragraph in three runs, a 2x3 table and a heading 2. */
export function buildDocx(extraParts: Record<string, Uint8Array> = {}): Promise<Uint8Array> {
  const cell = (text: string) => `<w:tc>${docxParagraph(text)}</w:tc>`;
  const row = (...cells: string[]) => `<w:tr>${cells.map(cell).join("")}</w:tr>`;
  return buildDocxWith({
    body: `${docxParagraph("Refund policy", "Heading1")}<w:p><w:r><w:t xml:space="preserve">Refunds are issued within </w:t></w:r><w:r><w:t>fourteen days</w:t></w:r><w:r><w:t xml:space="preserve"> of the request.</w:t></w:r></w:p><w:tbl>${row("Plan", "Price")}${row("Basic", "10 EUR")}${row("Pro", "25 EUR")}</w:tbl>${docxParagraph("Contact", "Heading2")}${docxParagraph("Write to support@example.com")}`,
    extraParts,
  });
}

/** A one-run paragraph, with a paragraph style when given one. */
export function docxParagraph(text: string, style?: string): string {
  return `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ""}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

/**
 * A Word document whose body is `body` (WordprocessingML inside `<w:body>`), with the heading
 * styles Heading1, Heading2 and Title, and optionally numbering, footnotes and external
 * hyperlinks (relationship id → URL).
 */
export async function buildDocxWith(options: {
  body: string;
  numbering?: string;
  /** `<w:footnote>` elements. */
  footnotes?: string;
  hyperlinks?: Record<string, string>;
  extraParts?: Record<string, Uint8Array>;
}): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    contentTypes({
      "/word/document.xml":
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
      "/word/styles.xml":
        "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
      ...(options.numbering === undefined
        ? {}
        : {
            "/word/numbering.xml":
              "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
          }),
    }),
  );
  zip.file(
    "_rels/.rels",
    relationships([{ id: "rId1", type: "officeDocument", target: "word/document.xml" }]),
  );
  const hyperlinks = Object.entries(options.hyperlinks ?? {})
    .map(
      ([id, url]) =>
        `<Relationship Id="${id}" Type="${OFFICE_REL}/hyperlink" Target="${url}" TargetMode="External"/>`,
    )
    .join("");
  zip.file(
    "word/_rels/document.xml.rels",
    relationships([
      { id: "rIdStyles", type: "styles", target: "styles.xml" },
      ...(options.numbering === undefined
        ? []
        : [{ id: "rIdNumbering", type: "numbering", target: "numbering.xml" }]),
      ...(options.footnotes === undefined
        ? []
        : [{ id: "rIdFootnotes", type: "footnotes", target: "footnotes.xml" }]),
    ]).replace("</Relationships>", `${hyperlinks}</Relationships>`),
  );
  zip.file(
    "word/styles.xml",
    `${XML_HEADER}<w:styles xmlns:w="${W_NS}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>`,
  );
  if (options.numbering !== undefined) {
    zip.file(
      "word/numbering.xml",
      `${XML_HEADER}<w:numbering xmlns:w="${W_NS}">${options.numbering}</w:numbering>`,
    );
  }
  if (options.footnotes !== undefined) {
    zip.file(
      "word/footnotes.xml",
      `${XML_HEADER}<w:footnotes xmlns:w="${W_NS}">${options.footnotes}</w:footnotes>`,
    );
  }
  zip.file(
    "word/document.xml",
    `${XML_HEADER}<w:document xmlns:w="${W_NS}" xmlns:r="${OFFICE_REL}"><w:body>${options.body}</w:body></w:document>`,
  );
  for (const [path, data] of Object.entries(options.extraParts ?? {})) zip.file(path, data);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

export type SlideFixture = { title: string; body: string[]; notes?: string; table?: string[][] };

/**
 * A presentation whose slide files are numbered in reverse of the presentation order, so a
 * loader that sorts by file name instead of `p:sldIdLst` gets the order wrong.
 */
export async function buildPptx(slides: readonly SlideFixture[]): Promise<Uint8Array> {
  const zip = new JSZip();
  const fileNumber = (index: number) => slides.length - index;
  const overrides: Record<string, string> = {
    "/ppt/presentation.xml":
      "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
  };
  slides.forEach((_, index) => {
    overrides[`/ppt/slides/slide${fileNumber(index)}.xml`] =
      "application/vnd.openxmlformats-officedocument.presentationml.slide+xml";
  });
  zip.file("[Content_Types].xml", contentTypes(overrides));
  zip.file(
    "_rels/.rels",
    relationships([{ id: "rId1", type: "officeDocument", target: "ppt/presentation.xml" }]),
  );
  const slideIds = slides
    .map((_, index) => `<p:sldId id="${256 + index}" r:id="rId${10 + index}"/>`)
    .join("");
  zip.file(
    "ppt/presentation.xml",
    `${XML_HEADER}<p:presentation ${NAMESPACES_PPT}><p:sldIdLst>${slideIds}</p:sldIdLst></p:presentation>`,
  );
  zip.file(
    "ppt/_rels/presentation.xml.rels",
    relationships(
      slides.map((_, index) => ({
        id: `rId${10 + index}`,
        type: "slide",
        target: `slides/slide${fileNumber(index)}.xml`,
      })),
    ),
  );
  slides.forEach((slide, index) => {
    const number = fileNumber(index);
    zip.file(`ppt/slides/slide${number}.xml`, slideXml(slide, index + 1));
    if (slide.notes !== undefined) {
      zip.file(
        `ppt/slides/_rels/slide${number}.xml.rels`,
        relationships([
          { id: "rId1", type: "notesSlide", target: `../notesSlides/notesSlide${number}.xml` },
        ]),
      );
      zip.file(
        `ppt/notesSlides/notesSlide${number}.xml`,
        `${XML_HEADER}<p:notes ${NAMESPACES_PPT}><p:cSld><p:spTree>${shape("sldImg", [])}${shape("body", [slide.notes])}</p:spTree></p:cSld></p:notes>`,
      );
    }
  });
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

function slideXml(slide: SlideFixture, slideNumber: number): string {
  const table = slide.table
    ? `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${slide.table
        .map(
          (cells) =>
            `<a:tr h="370840">${cells.map((text) => `<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></a:txBody></a:tc>`).join("")}</a:tr>`,
        )
        .join("")}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`
    : "";
  return `${XML_HEADER}<p:sld ${NAMESPACES_PPT}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${shape("title", [slide.title])}${shape(undefined, slide.body)}${table}${shape("sldNum", [String(slideNumber)])}</p:spTree></p:cSld></p:sld>`;
}

function shape(placeholder: string | undefined, paragraphs: readonly string[]): string {
  const ph = placeholder === undefined ? '<p:ph idx="1"/>' : `<p:ph type="${placeholder}"/>`;
  const runs = paragraphs
    .map((text) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${text}</a:t></a:r></a:p>`)
    .join("");
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Shape"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${runs}</p:txBody></p:sp>`;
}

/** A workbook with two sheets: customers (text, date, formula, rich text) and products. */
export async function buildXlsx(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const customers = workbook.addWorksheet("Customers");
  customers.addRow(["Name", "Email", "Joined", "Orders", "Spend"]);
  customers.addRow([
    "Alice Martin",
    "alice@example.com",
    new Date(Date.UTC(2024, 2, 1)),
    3,
    { formula: "D2*40", result: 120 },
  ]);
  customers.addRow([]);
  customers.addRow([
    { richText: [{ text: "Bob " }, { text: "Stone", font: { bold: true } }] },
    "bob@example.com",
    null,
    1,
    40,
  ]);
  const products = workbook.addWorksheet("Products");
  products.addRow(["SKU", "Product"]);
  products.addRow(["P-100", "Espresso machine"]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/**
 * A workbook from hand-written SpreadsheetML parts (`xl/workbook.xml`, its relationships, sheets,
 * styles…), for what exceljs's writer never produces: inline strings, sheet files named out of
 * tab order, custom date formats.
 */
export async function buildXlsxFromParts(parts: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    contentTypes({
      "/xl/workbook.xml":
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    }),
  );
  zip.file(
    "_rels/.rels",
    relationships([{ id: "rId1", type: "officeDocument", target: "xl/workbook.xml" }]),
  );
  for (const [path, xml] of Object.entries(parts)) zip.file(path, `${XML_HEADER}${xml}`);
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" });
}

/** Rewrites the uncompressed size an archive declares for one entry, in both of its headers. */
export function patchDeclaredSize(
  zipBytes: Uint8Array,
  entryName: string,
  size: number,
): Uint8Array {
  const bytes = zipBytes.slice();
  const view = new DataView(bytes.buffer);
  for (let offset = 0; offset + 46 <= bytes.length; offset++) {
    if (view.getUint32(offset, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(offset + 28, true);
    const name = new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    if (name !== entryName) continue;
    view.setUint32(offset + 24, size, true);
    view.setUint32(view.getUint32(offset + 42, true) + 22, size, true);
    return bytes;
  }
  throw new Error(`no entry ${entryName}`);
}
