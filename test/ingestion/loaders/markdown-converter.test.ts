import { describe, expect, test } from "vitest";
import { createMarkdownConverter } from "../../../src/ingestion/loaders/markdown-converter.ts";

describe("createMarkdownConverter", () => {
  const toMarkdown = createMarkdownConverter();

  test("keeps in-page link text, drops back-reference arrows and never escapes Markdown", () => {
    const html =
      '<p>Ouch<a href="#footnote-1">[1]</a>, file_name 1. ok</p><ol><li><a href="#footnote-ref-1">↑</a> A footnote.</li></ol>';
    expect(toMarkdown(html)).toMatch(/^Ouch\[1\], file_name 1\. ok\n\n1\. +A footnote\.$/);
  });

  test("renders a single-row table as one line and drops images", () => {
    expect(
      toMarkdown('<table><tr><td>A</td><td>B</td></tr></table><img src="x.png" alt="x">'),
    ).toBe("A | B");
  });
});
