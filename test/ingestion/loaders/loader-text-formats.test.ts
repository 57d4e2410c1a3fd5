import { describe, expect, test } from "vitest";
import { DocumentLoadError, loadDocument } from "../../../src/ingestion/loaders/index.ts";

const text = (value: string) => new TextEncoder().encode(value);

describe("CSV loader", () => {
  test("renders every row with its header, skipping empty values and blank lines", async () => {
    const csv = 'name,city,note\r\nAlice,Paris,"likes ""quotes"", commas"\r\n\r\nBob,,\r\n';
    expect(await loadDocument({ bytes: text(csv), mimeType: "text/csv" })).toEqual([
      { text: 'name: Alice | city: Paris | note: likes "quotes", commas\nname: Bob', metadata: {} },
    ]);
  });

  test("reads semicolon- and tab-separated exports and names blank header cells", async () => {
    const semicolons = "\uFEFFProduct;Price;\nTea;3,50;extra\n";
    expect((await loadDocument({ bytes: text(semicolons), mimeType: "text/csv" }))[0]?.text).toBe(
      "Product: Tea | Price: 3,50 | Column 3: extra",
    );
    const tabs = "a\tb\n1\t2\n";
    expect((await loadDocument({ bytes: text(tabs), mimeType: "text/csv" }))[0]?.text).toBe(
      "a: 1 | b: 2",
    );
  });

  test("splits a long table into sections of whole rows", async () => {
    const rows = Array.from({ length: 1200 }, (_, index) => `item ${index},${index}`);
    const sections = await loadDocument({
      bytes: text(`name,count\n${rows.join("\n")}`),
      mimeType: "text/csv",
    });
    expect(sections.map((section) => section.text.split("\n").length)).toEqual([500, 500, 200]);
    expect(sections[2]?.text.split("\n").at(-1)).toBe("name: item 1199 | count: 1199");
  });

  test("keeps a header-only file", async () => {
    expect(await loadDocument({ bytes: text("a,b,c\n"), mimeType: "text/csv" })).toEqual([
      { text: "a | b | c", metadata: {} },
    ]);
  });
});

describe("JSON loader", () => {
  test("writes one path: value line per leaf, records separated by a blank line", async () => {
    const json = JSON.stringify({
      store: { name: "Main St", open: true },
      staff: [
        { name: "Ana", roles: ["manager", "barista"] },
        { name: "Ben", roles: [] },
      ],
      closed: null,
    });
    const [section] = await loadDocument({ bytes: text(json), mimeType: "application/json" });
    expect(section?.text).toBe(
      [
        "store.name: Main St",
        "store.open: true",
        "staff[0].name: Ana",
        "staff[0].roles[0]: manager",
        "staff[0].roles[1]: barista",
        "",
        "staff[1].name: Ben",
        "staff[1].roles: []",
        "closed: null",
      ].join("\n"),
    );
  });

  test("handles a scalar document and refuses invalid or absurdly nested JSON", async () => {
    expect(
      (await loadDocument({ bytes: text('"just text"'), mimeType: "application/json" }))[0]?.text,
    ).toBe("just text");
    await expect(
      loadDocument({ bytes: text("{oops"), mimeType: "application/json" }),
    ).rejects.toThrow("The JSON file could not be parsed: it is not valid JSON");
    const deep = `${"[".repeat(500)}1${"]".repeat(500)}`;
    await expect(loadDocument({ bytes: text(deep), mimeType: "application/json" })).rejects.toThrow(
      "nested more than 200 levels deep",
    );
  });
});

describe("Markdown and plain-text loaders", () => {
  test("keeps Markdown, rewrites setext headings as # headings and takes the first heading as title", async () => {
    const markdown =
      "Getting started\n===============\n\nInstall it.\r\n\r\n\r\n\r\nUsage\n-----\n\nRun it.\n";
    expect(await loadDocument({ bytes: text(markdown), mimeType: "text/markdown" })).toEqual([
      {
        text: "# Getting started\n\nInstall it.\n\n## Usage\n\nRun it.",
        metadata: { title: "Getting started" },
      },
    ]);
  });

  test("leaves front matter and fenced code alone and takes the front matter's title", async () => {
    const markdown =
      '---\ntitle: "Install guide"\ntags: [setup]\n---\n\n```\nNAME\n----\n```\n\n# Steps\n';
    expect(await loadDocument({ bytes: text(markdown), mimeType: "text/markdown" })).toEqual([
      {
        text: '---\ntitle: "Install guide"\ntags: [setup]\n---\n\n```\nNAME\n----\n```\n\n# Steps',
        metadata: { title: "Install guide" },
      },
    ]);
  });

  test("does not turn a list or a table rule into a heading", async () => {
    const markdown = "- item\n---\n\n| a |\n|---|\n";
    const [section] = await loadDocument({ bytes: text(markdown), mimeType: "text/markdown" });
    expect(section?.text).toBe("- item\n---\n\n| a |\n|---|");
    expect(section?.metadata).toEqual({});
  });

  test("returns plain text as one section with normalised line endings", async () => {
    expect(
      await loadDocument({
        bytes: text("\uFEFFline one  \r\nline two\r\n"),
        mimeType: "text/plain",
      }),
    ).toEqual([{ text: "line one\nline two", metadata: {} }]);
  });

  test("returns no section for a blank file and refuses bytes that are not text", async () => {
    expect(await loadDocument({ bytes: text(" \n\n "), mimeType: "text/plain" })).toEqual([]);
    await expect(
      loadDocument({ bytes: new Uint8Array([0x41, 0x00, 0xff, 0xfe]), mimeType: "text/plain" }),
    ).rejects.toBeInstanceOf(DocumentLoadError);
  });

  test("refuses text over the character limit", async () => {
    await expect(
      loadDocument(
        { bytes: text("x".repeat(101)), mimeType: "text/plain" },
        { maxCharacters: 100 },
      ),
    ).rejects.toThrow("more than 100 characters");
  });
});
