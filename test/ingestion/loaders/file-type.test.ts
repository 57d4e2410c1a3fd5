import JSZip from "jszip";
import { describe, expect, test } from "vitest";
import {
  ACCEPTED_MIME_TYPES,
  detectFileType,
  UnsupportedFileTypeError,
} from "../../../src/ingestion/loaders/index.ts";
import { buildDocx, buildPptx, buildXlsx } from "./ooxml-fixtures.ts";
import { buildPdf } from "./pdf-fixture.ts";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const text = (value: string) => new TextEncoder().encode(value);

function refusal(bytes: Uint8Array, declared?: string, name?: string): UnsupportedFileTypeError {
  try {
    detectFileType(bytes, declared, name);
  } catch (error) {
    if (error instanceof UnsupportedFileTypeError) return error;
    throw error;
  }
  throw new Error("the file was accepted");
}

// A fixed-seed generator: "random" bytes that are the same on every run.
function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[index] = state >>> 24;
  }
  return bytes;
}

describe("detectFileType: content wins over the declared type", () => {
  test("reads a PDF sent as text/plain as a PDF", () => {
    expect(detectFileType(buildPdf([["Hi"]]), "text/plain", "notes.txt")).toBe("application/pdf");
  });

  test("finds a PDF header preceded by junk bytes", () => {
    const pdf = buildPdf([["Hi"]]);
    const withJunk = new Uint8Array([...text("\r\n  "), ...pdf]);
    expect(detectFileType(withJunk, undefined, undefined)).toBe("application/pdf");
  });

  test("tells DOCX, PPTX and XLSX apart by their parts, whatever was declared", async () => {
    expect(detectFileType(await buildDocx(), "application/octet-stream", "a.bin")).toBe(DOCX);
    expect(
      detectFileType(await buildPptx([{ title: "T", body: [] }]), "text/plain", undefined),
    ).toBe(PPTX);
    expect(detectFileType(await buildXlsx(), DOCX, "report.docx")).toBe(XLSX);
  });

  test("refuses a ZIP archive that is not an Office document", async () => {
    const zip = new JSZip();
    zip.file("readme.txt", "hello");
    const error = refusal(await zip.generateAsync({ type: "uint8array" }), "application/zip");
    expect(error.message).toContain(
      "a ZIP archive that is not a Word, PowerPoint or Excel document",
    );
  });

  test("lets a damaged Office file through as its declared type so loading reports the damage", async () => {
    const docx = await buildDocx();
    const damaged = docx.subarray(0, docx.length - 30);
    expect(detectFileType(damaged, DOCX, "a.docx")).toBe(DOCX);
    expect(refusal(damaged, "text/plain").message).toContain("damaged or unsupported ZIP archive");
  });
});

describe("detectFileType: refusals", () => {
  test("refuses an ELF executable sent as text/plain, naming the accepted types", () => {
    const elf = new Uint8Array(256);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    const error = refusal(elf, "text/plain", "notes.txt");
    expect(error.message).toMatch(
      /^The file is an executable \(ELF\), which is not accepted\. Accepted types: /,
    );
    for (const type of ACCEPTED_MIME_TYPES) expect(error.message).toContain(type);
    expect(error.acceptedTypes).toEqual(ACCEPTED_MIME_TYPES);
  });

  test("refuses a Windows executable", () => {
    const exe = new Uint8Array(512);
    exe.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
    expect(refusal(exe, "text/plain").message).toContain("an executable (Windows)");
  });

  test("refuses a script with an interpreter line", () => {
    expect(refusal(text("#!/bin/sh\nrm -rf /tmp/x\n"), "text/plain").message).toContain(
      "an executable script",
    );
    expect(refusal(text("#! /usr/bin/env python3\nprint(1)\n"), "text/plain").message).toContain(
      "an executable script",
    );
  });

  test("refuses random binary data", () => {
    expect(refusal(pseudoRandomBytes(4096, 42), "text/plain").message).toContain(
      "binary data, not text",
    );
  });

  test("refuses images, archives and legacy Office files by name", () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(refusal(png, "text/plain").message).toContain("a PNG image");
    expect(refusal(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0]), "text/csv").message).toContain(
      "a gzip archive",
    );
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(refusal(ole, "application/msword").message).toContain(
      "password-protected Office file, which is not accepted; save it without a password as .docx",
    );
  });

  test("refuses text that is not UTF-8, and text full of control characters", () => {
    expect(refusal(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]), "text/plain").message).toContain(
      "binary",
    );
    expect(
      refusal(text("a\u0001b\u0002c\u0003d\u0004".repeat(20)), "text/plain").message,
    ).toContain("binary");
  });

  test("refuses an empty file", () => {
    expect(refusal(new Uint8Array(0), "text/plain").message).toMatch(/^The file is empty\./);
  });
});

describe("detectFileType: choosing among text types", () => {
  test("uses the declared text type, including common aliases", () => {
    expect(detectFileType(text("a,b\n1,2\n"), "text/csv; charset=utf-8", undefined)).toBe(
      "text/csv",
    );
    expect(detectFileType(text("a,b\n1,2\n"), "application/vnd.ms-excel", "x.csv")).toBe(
      "text/csv",
    );
    expect(detectFileType(text("# Hi\n"), "text/x-markdown", undefined)).toBe("text/markdown");
    expect(detectFileType(text('{"a":1}'), "application/ld+json", undefined)).toBe(
      "application/json",
    );
  });

  test("falls back to the extension when the declaration is generic", () => {
    expect(detectFileType(text("a,b\n1,2\n"), "application/octet-stream", "data.csv")).toBe(
      "text/csv",
    );
    expect(detectFileType(text("# Hi\n"), "text/plain", "README.md")).toBe("text/markdown");
    expect(detectFileType(text('{"a":1}'), undefined, "config.JSON")).toBe("application/json");
    expect(detectFileType(text("hello"), undefined, undefined)).toBe("text/plain");
    expect(detectFileType(text("<p>hi</p>"), "text/html", "page.html")).toBe("text/plain");
  });

  test("reads JSON that does not parse as plain text", () => {
    expect(detectFileType(text('{"a": 1,'), "application/json", "broken.json")).toBe("text/plain");
  });

  test("does not mistake text starting with MZ for an executable", () => {
    expect(detectFileType(text("MZ Corp annual report\n"), "text/plain", undefined)).toBe(
      "text/plain",
    );
  });

  test("accepts UTF-16 text with a byte-order mark", () => {
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...Array.from("Name,Age\n", (c) => [c.charCodeAt(0), 0]).flat(),
    ]);
    expect(detectFileType(utf16, "text/csv", "people.csv")).toBe("text/csv");
  });
});
