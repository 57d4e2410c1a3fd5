import { describe, expect, it } from "vitest";
import {
  type AcceptedMime,
  DocumentLoadError,
  loadDocument,
} from "../../../src/ingestion/loaders/index.ts";
import { hostilePptx } from "../../fixtures/hostile-documents.ts";
import { buildDocx, buildPptx, buildXlsx } from "./ooxml-fixtures.ts";

const DOCX: AcceptedMime =
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX: AcceptedMime =
  "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const XLSX: AcceptedMime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

describe("DOCX loader", () => {
  it("keeps headings as # lines, joins runs, and renders table rows with their header", async () => {
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

  it("refuses a ZIP that has no Word document in it", async () => {
    const bytes = await buildXlsx();
    await expect(loadDocument({ bytes, mimeType: DOCX })).rejects.toThrow(
      "The DOCX could not be read: it is corrupt or not a Word document",
    );
  });

  it("refuses a truncated DOCX", async () => {
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

  it("returns one section per slide in presentation order, not file-name order", async () => {
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

  it("leaves out slide-number placeholders", async () => {
    const sections = await loadDocument({ bytes: await buildPptx(slides), mimeType: PPTX });
    for (const section of sections) expect(section.text).not.toMatch(/^\d+$/m);
  });

  it("refuses a deck with more slides than the page limit", async () => {
    const bytes = await buildPptx(slides);
    await expect(loadDocument({ bytes, mimeType: PPTX }, { maxPages: 2 })).rejects.toThrow(
      "The document has 3 slides; the limit is 2",
    );
  });

  it("reads a slide of 200,000 paragraphs instead of calling it corrupt", async () => {
    const sections = await loadDocument({ bytes: await hostilePptx(200_000), mimeType: PPTX });
    expect(sections).toHaveLength(1);
    const lines = sections[0]?.text.split("\n") ?? [];
    expect(lines).toHaveLength(200_000);
    expect(lines[0]).toBe("0");
    expect(lines.at(-1)).toBe("199999");
  });

  it("refuses a slide over the character cap", async () => {
    const bytes = await hostilePptx(200_000);
    await expect(
      loadDocument({ bytes, mimeType: PPTX }, { maxCharacters: 100_000 }),
    ).rejects.toThrow(
      "The document holds more than 100000 characters of text; the limit is 100000",
    );
  });

  it("refuses a ZIP without a slide list", async () => {
    const bytes = await buildDocx();
    await expect(loadDocument({ bytes, mimeType: PPTX })).rejects.toThrow(DocumentLoadError);
  });
});

describe("XLSX loader", () => {
  it("renders each row with its header, sheet by sheet", async () => {
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

  it("refuses bytes that are not a workbook", async () => {
    const bytes = await buildDocx();
    await expect(loadDocument({ bytes, mimeType: XLSX })).rejects.toThrow(
      "The XLSX could not be read: it is corrupt or not an Excel workbook",
    );
  });
});
