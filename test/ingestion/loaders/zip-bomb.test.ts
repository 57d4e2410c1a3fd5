import JSZip from "jszip";
import { describe, expect, test } from "vitest";
import {
  type AcceptedMime,
  DocumentLoadError,
  loadDocument,
} from "../../../src/ingestion/loaders/index.ts";
import { buildDocx, buildXlsx, patchDeclaredSize } from "./ooxml-fixtures.ts";

const DOCX: AcceptedMime =
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX: AcceptedMime =
  "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const XLSX: AcceptedMime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const MiB = 1024 * 1024;

async function zeros(size: number, level: number): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(await buildDocx());
  zip.file("word/media/padding.bin", new Uint8Array(size), {
    compression: "DEFLATE",
    compressionOptions: { level },
  });
  return zip.generateAsync({ type: "uint8array" });
}

describe("zip-bomb and corrupt-archive safety", () => {
  test("refuses a DOCX that expands to 200 MiB under the default 100 MiB limit", async () => {
    const bomb = await zeros(200 * MiB, 1);
    expect(bomb.byteLength).toBeLessThan(2 * MiB);
    const attempt = loadDocument({ bytes: bomb, mimeType: DOCX });
    await expect(attempt).rejects.toBeInstanceOf(DocumentLoadError);
    await expect(attempt).rejects.toThrow(
      "The archive expands beyond 100 MiB; refusing a possible zip bomb",
    );
  });

  test("applies a lower limit given by the caller, to every OOXML type", async () => {
    const bomb = await zeros(3 * MiB, 1);
    for (const mimeType of [DOCX, PPTX, XLSX]) {
      await expect(
        loadDocument({ bytes: bomb, mimeType }, { maxUncompressedBytes: 2 * MiB }),
      ).rejects.toThrow("The archive expands beyond 2 MiB; refusing a possible zip bomb");
    }
    await expect(
      loadDocument({ bytes: bomb, mimeType: DOCX }, { maxUncompressedBytes: 4 * MiB }),
    ).resolves.toHaveLength(1);
  });

  test("refuses a part compressed far beyond what documents reach, even under the limit", async () => {
    const bomb = await zeros(20 * MiB, 9);
    await expect(loadDocument({ bytes: bomb, mimeType: DOCX })).rejects.toThrow(
      /compressed \d+:1; refusing a possible zip bomb/,
    );
  });

  test("catches an archive whose headers understate what a part inflates to", async () => {
    const honest = await zeros(2 * MiB, 6);
    const lying = patchDeclaredSize(honest, "word/media/padding.bin", 1000);
    await expect(loadDocument({ bytes: lying, mimeType: DOCX })).rejects.toThrow(
      "The archive expands beyond the sizes it declares; refusing a possible zip bomb",
    );
  });

  test("refuses an archive with an absurd number of parts", async () => {
    const zip = new JSZip();
    for (let index = 0; index < 20_001; index++) zip.file(`xl/p${index}.xml`, "");
    const bytes = await zip.generateAsync({ type: "uint8array" });
    // jszip adds the "xl/" folder as an entry of its own.
    await expect(loadDocument({ bytes, mimeType: XLSX })).rejects.toThrow(
      "The archive holds 20002 files; the limit is 20000; refusing a possible zip bomb",
    );
  });

  test("refuses a ZIP whose data was damaged after the directory was written", async () => {
    const bytes = (await buildXlsx()).slice();
    // Overwrite the middle of the file, where compressed part data lives.
    bytes.fill(0x41, Math.floor(bytes.length / 3), Math.floor(bytes.length / 3) + 400);
    await expect(loadDocument({ bytes, mimeType: XLSX })).rejects.toThrow(DocumentLoadError);
  });

  test("refuses bytes that are not a ZIP at all", async () => {
    const bytes = new TextEncoder().encode("PK\u0003\u0004 not really a zip");
    await expect(loadDocument({ bytes, mimeType: PPTX })).rejects.toThrow(
      "The PPTX could not be read: it is corrupt or truncated",
    );
  });
});
