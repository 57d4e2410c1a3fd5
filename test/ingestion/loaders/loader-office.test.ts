import ExcelJS from "exceljs";
import { describe, expect, test } from "vitest";
import {
  type AcceptedMime,
  DocumentLoadError,
  loadDocument,
} from "../../../src/ingestion/loaders/index.ts";
import { hostileDocx, hostilePptx } from "../../fixtures/hostile-documents.ts";
import {
  buildDocx,
  buildDocxWith,
  buildPptx,
  buildXlsx,
  buildXlsxFromParts,
  docxParagraph,
} from "./ooxml-fixtures.ts";

const DOCX: AcceptedMime =
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX: AcceptedMime =
  "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const XLSX: AcceptedMime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

describe("DOCX loader", () => {
  test("keeps headings as # lines, joins runs, and renders table rows with their header", async () => {
    const sections = await loadDocument({ bytes: await buildDocx(), mimeType: DOCX });
    expect(sections).toEqual([
      {
        text: [
          "# Refund policy",
          "",
          "Refunds are issued within fourteen days of the request.",
          "",
          "Plan: Basic | Price: 10 EUR",
          "Plan: Pro | Price: 25 EUR",
          "",
          "## Contact",
          "",
          "Write to support@example.com",
        ].join("\n"),
        metadata: { title: "Refund policy" },
      },
    ]);
  });

  test("writes numbered and bulleted lists, external links, line breaks and tabs", async () => {
    const item = (numId: number, level: number, text: string) =>
      `<w:p><w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const bytes = await buildDocxWith({
      numbering: [
        '<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/></w:lvl><w:lvl w:ilvl="1"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>',
        '<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>',
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>',
        '<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>',
      ].join(""),
      hyperlinks: { rIdManual: "https://example.com/manual" },
      body: [
        docxParagraph("Setting up", "Title"),
        item(1, 0, "Open the box"),
        item(1, 0, "Plug it in"),
        item(1, 1, "Use the grey cable"),
        item(1, 0, "Press start"),
        docxParagraph("Spare parts:"),
        item(2, 0, "Fuse"),
        item(2, 0, "Cable"),
        '<w:p><w:r><w:t xml:space="preserve">Read the </w:t></w:r><w:hyperlink r:id="rIdManual"><w:r><w:t>manual</w:t></w:r></w:hyperlink><w:r><w:t xml:space="preserve"> first.</w:t></w:r></w:p>',
        "<w:p><w:r><w:t>Line one</w:t><w:br/><w:t>Line</w:t><w:tab/><w:t>two</w:t></w:r></w:p>",
        // A link to a bookmark of the document itself leads nowhere once the text is a chunk.
        '<w:p><w:hyperlink w:anchor="_Toc1"><w:r><w:t>See above</w:t></w:r></w:hyperlink></w:p>',
      ].join(""),
    });
    const sections = await loadDocument({ bytes, mimeType: DOCX });
    expect(sections).toEqual([
      {
        text: [
          "# Setting up",
          "",
          "1. Open the box",
          "2. Plug it in",
          "    - Use the grey cable",
          "3. Press start",
          "",
          "Spare parts:",
          "",
          "- Fuse",
          "- Cable",
          "",
          "Read the [manual](https://example.com/manual) first.",
          "",
          "Line one",
          "Line two",
          "",
          "See above",
        ].join("\n"),
        metadata: { title: "Setting up" },
      },
    ]);
  });

  test("reads the text as it stands: no deletions, field codes or duplicate text boxes", async () => {
    const mc = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
    const textBox = "<w:txbxContent><w:p><w:r><w:t>Boxed text</w:t></w:r></w:p></w:txbxContent>";
    const cell = (text: string, properties = "") =>
      `<w:tc>${properties ? `<w:tcPr>${properties}</w:tcPr>` : ""}${docxParagraph(text)}</w:tc>`;
    const bytes = await buildDocxWith({
      footnotes:
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Prices change in January.</w:t></w:r></w:p></w:footnote>',
      body: [
        '<w:p><w:r><w:t xml:space="preserve">Price: </w:t></w:r><w:del w:id="1" w:author="A"><w:r><w:delText>10</w:delText></w:r></w:del><w:ins w:id="2" w:author="A"><w:r><w:t>12</w:t></w:r></w:ins><w:r><w:t xml:space="preserve"> EUR, page </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>',
        '<w:p><w:pPr><w:pPrChange w:id="3" w:author="A"><w:pPr><w:pStyle w:val="Heading1"/></w:pPr></w:pPrChange></w:pPr><w:r><w:t>Formerly a heading</w:t></w:r></w:p>',
        `<w:p><w:r><w:t>Figure</w:t></w:r><w:r><mc:AlternateContent ${mc}><mc:Choice Requires="wps"><w:drawing>${textBox}</w:drawing></mc:Choice><mc:Fallback><w:pict>${textBox}</w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>`,
        "<w:tbl>",
        `<w:tr>${cell("Region")}${cell("Plan")}${cell("Price")}</w:tr>`,
        `<w:tr>${cell("EU", '<w:vMerge w:val="restart"/>')}${cell("Basic")}${cell("10 EUR")}</w:tr>`,
        `<w:tr>${cell("", "<w:vMerge/>")}${cell("Pro")}${cell("25 EUR")}</w:tr>`,
        `<w:tr>${cell("Custom", '<w:gridSpan w:val="2"/>')}${cell("on request")}</w:tr>`,
        "</w:tbl>",
      ].join(""),
    });
    const [section] = await loadDocument({ bytes, mimeType: DOCX });
    expect(section?.text).toBe(
      [
        "Price: 12 EUR, page 3[1]",
        "",
        "Formerly a heading",
        "",
        "Figure",
        "",
        "Boxed text",
        "",
        "Region: EU | Plan: Basic | Price: 10 EUR",
        "Plan: Pro | Price: 25 EUR",
        "Region: Custom | Price: on request",
        "",
        "1. Prices change in January.",
      ].join("\n"),
    );
  });

  test("refuses a document over the character cap", async () => {
    const bytes = await hostileDocx(100_000);
    await expect(
      loadDocument({ bytes, mimeType: DOCX }, { maxCharacters: 50_000 }),
    ).rejects.toThrow("The document holds more than 50000 characters of text; the limit is 50000");
  });

  test("reads a document of 200,000 short paragraphs", async () => {
    const [section] = await loadDocument({ bytes: await hostileDocx(200_000), mimeType: DOCX });
    const paragraphs = section?.text.split("\n\n") ?? [];
    expect(paragraphs).toHaveLength(200_000);
    expect(paragraphs[0]).toBe("0");
    expect(paragraphs.at(-1)).toBe("199999");
  });

  test("refuses a ZIP that has no Word document in it", async () => {
    const bytes = await buildXlsx();
    await expect(loadDocument({ bytes, mimeType: DOCX })).rejects.toThrow(
      "The DOCX could not be read: it is corrupt or not a Word document",
    );
  });

  test("refuses a truncated DOCX", async () => {
    const bytes = await buildDocx();
    await expect(
      loadDocument({ bytes: bytes.subarray(0, bytes.length - 40), mimeType: DOCX }),
    ).rejects.toThrow("The DOCX could not be read: it is corrupt or truncated");
  });
});

describe("PPTX loader", () => {
  const slides = [
    {
      title: "Quarterly review",
      body: ["Revenue grew 12%", "Churn fell to 2%"],
      notes: "Mention the new region.",
    },
    {
      title: "Pricing",
      body: [],
      table: [
        ["Plan", "Seats"],
        ["Team", "10"],
        ["Business", "50"],
      ],
    },
    { title: "Next steps", body: ["Hire two engineers", "R&amp;D budget &#8364;2M"] },
  ];

  test("returns one section per slide in presentation order, not file-name order", async () => {
    const sections = await loadDocument({ bytes: await buildPptx(slides), mimeType: PPTX });
    expect(sections.map((section) => section.metadata)).toEqual([
      { slide: 1, title: "Quarterly review" },
      { slide: 2, title: "Pricing" },
      { slide: 3, title: "Next steps" },
    ]);
    expect(sections[0]?.text).toBe(
      "# Quarterly review\n\nRevenue grew 12%\nChurn fell to 2%\n\nSpeaker notes:\nMention the new region.",
    );
    expect(sections[1]?.text).toBe(
      "# Pricing\n\nPlan: Team | Seats: 10\nPlan: Business | Seats: 50",
    );
    expect(sections[2]?.text).toBe("# Next steps\n\nHire two engineers\nR&D budget €2M");
  });

  test("leaves out slide-number placeholders", async () => {
    const sections = await loadDocument({ bytes: await buildPptx(slides), mimeType: PPTX });
    for (const section of sections) expect(section.text).not.toMatch(/^\d+$/m);
  });

  test("refuses a deck with more slides than the page limit", async () => {
    const bytes = await buildPptx(slides);
    await expect(loadDocument({ bytes, mimeType: PPTX }, { maxPages: 2 })).rejects.toThrow(
      "The document has 3 slides; the limit is 2",
    );
  });

  test("reads a slide of 200,000 paragraphs instead of calling it corrupt", async () => {
    const sections = await loadDocument({ bytes: await hostilePptx(200_000), mimeType: PPTX });
    expect(sections).toHaveLength(1);
    const lines = sections[0]?.text.split("\n") ?? [];
    expect(lines).toHaveLength(200_000);
    expect(lines[0]).toBe("0");
    expect(lines.at(-1)).toBe("199999");
  });

  test("refuses a slide over the character cap", async () => {
    const bytes = await hostilePptx(200_000);
    await expect(
      loadDocument({ bytes, mimeType: PPTX }, { maxCharacters: 100_000 }),
    ).rejects.toThrow(
      "The document holds more than 100000 characters of text; the limit is 100000",
    );
  });

  test("refuses a ZIP without a slide list", async () => {
    const bytes = await buildDocx();
    await expect(loadDocument({ bytes, mimeType: PPTX })).rejects.toThrow(DocumentLoadError);
  });
});

describe("XLSX loader", () => {
  test("renders each row with its header, sheet by sheet", async () => {
    const sections = await loadDocument({ bytes: await buildXlsx(), mimeType: XLSX });
    expect(sections).toEqual([
      {
        text: [
          "# Customers",
          "",
          "Name: Alice Martin | Email: alice@example.com | Joined: 2024-03-01 | Orders: 3 | Spend: 120",
          "Name: Bob Stone | Email: bob@example.com | Orders: 1 | Spend: 40",
        ].join("\n"),
        metadata: { sheet: "Customers" },
      },
      {
        text: "# Products\n\nSKU: P-100 | Product: Espresso machine",
        metadata: { sheet: "Products" },
      },
    ]);
  });

  test("reads sheets in tab order with inline strings, booleans, errors and custom dates", async () => {
    const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
    const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    const bytes = await buildXlsxFromParts({
      "xl/workbook.xml": `<workbook ${S} xmlns:r="${R}"><sheets><sheet name="Orders" sheetId="1" r:id="rId2"/><sheet name="Notes" sheetId="2" r:id="rId1"/></sheets></workbook>`,
      "xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${R}/worksheet" Target="/xl/worksheets/sheet2.xml"/><Relationship Id="rId3" Type="${R}/styles" Target="styles.xml"/><Relationship Id="rId4" Type="${R}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
      "xl/styles.xml": `<styleSheet ${S}><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy hh:mm"/></numFmts><cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="4"/></cellXfs></styleSheet>`,
      "xl/sharedStrings.xml": `<sst ${S}><si><t>Order</t></si><si><r><t xml:space="preserve">Paid </t></r><r><t>on</t></r><rPh sb="0" eb="1"><t>ペイド</t></rPh></si><si><t>Line_x000D_break</t></si></sst>`,
      "xl/worksheets/sheet1.xml": `<worksheet ${S}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Note</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><r><t xml:space="preserve">Call </t></r><r><t>back</t></r></is></c></row></sheetData></worksheet>`,
      "xl/worksheets/sheet2.xml": `<worksheet ${S}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><t>Total</t></is></c><c r="E1" t="inlineStr"><is><t>Done</t></is></c></row><row r="2"><c r="A2"><v>1001</v></c><c r="B2" s="1"><v>45352.5</v></c><c r="C2" s="2"><f>SUM(F2:F9)</f><v>1234.5</v></c><c r="D2" t="s"><v>2</v></c><c r="E2" t="b"><v>1</v></c></row><row r="3"><c r="A3"><v>1002</v></c><c r="C3" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="D3"><f>A3*2</f></c><c r="E3" t="b"><v>0</v></c></row></sheetData></worksheet>`,
    });
    const sections = await loadDocument({ bytes, mimeType: XLSX });
    expect(sections).toEqual([
      {
        text: [
          "# Orders",
          "",
          "Order: 1001 | Paid on: 2024-03-01 12:00:00 | Total: 1234.5 | Column 4: Line break | Done: true",
          "Order: 1002 | Total: #DIV/0! | Done: false",
        ].join("\n"),
        metadata: { sheet: "Orders" },
      },
      { text: "# Notes\n\nNote: Call back", metadata: { sheet: "Notes" } },
    ]);
  });

  test("keeps non-ASCII text whole across the chunks a large sheet is read in", async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Données");
    sheet.addRow(["Libellé", "N°"]);
    const expected: string[] = [];
    for (let index = 0; index < 3_000; index++) {
      const label = `Café crème — ünïcödé 日本語テキスト ${index}`;
      sheet.addRow([label, index]);
      expected.push(`Libellé: ${label} | N°: ${index}`);
    }
    const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
    const sections = await loadDocument({ bytes, mimeType: XLSX });
    expect(sections).toHaveLength(6);
    const lines = sections.flatMap((section) => section.text.split("\n").slice(2));
    expect(lines).toEqual(expected);
  });

  test("refuses bytes that are not a workbook", async () => {
    const bytes = await buildDocx();
    await expect(loadDocument({ bytes, mimeType: XLSX })).rejects.toThrow(
      "The XLSX could not be read: it is corrupt or not an Excel workbook",
    );
  });
});
