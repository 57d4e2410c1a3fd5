import { readdirSync, readFileSync } from "node:fs";
import { randomSource } from "./random.ts";

// Benchmark material derived from the retrieval corpus (test/fixtures/retrieval): sentences of
// real help-centre prose recombined, so full-text statistics and vectors look like real content.

const CORPUS_DIR = new URL("../../test/fixtures/retrieval/corpus/", import.meta.url);

function corpusSentences(): string[] {
  const sentences: string[] = [];
  for (const file of readdirSync(CORPUS_DIR).filter((name) => name.endsWith(".md"))) {
    const text = readFileSync(new URL(file, CORPUS_DIR), "utf8");
    for (const line of text.split("\n")) {
      if (line.startsWith("#") || line.trim() === "") continue;
      for (const sentence of line.split(/(?<=[.!?])\s+/)) {
        if (sentence.split(" ").length >= 5)
          sentences.push(sentence.replace(/^[-*]\s+/, "").trim());
      }
    }
  }
  return sentences;
}

export function corpusQuestions(): string[] {
  const questions = JSON.parse(readFileSync(new URL("../questions.json", CORPUS_DIR), "utf8")) as {
    question: string;
  }[];
  return questions.map((entry) => entry.question);
}

/** `count` passages of `sentencesEach` random corpus sentences. */
export function passages(count: number, sentencesEach: number, seed: number): string[] {
  const sentences = corpusSentences();
  const random = randomSource(seed);
  return Array.from({ length: count }, () =>
    Array.from(
      { length: sentencesEach },
      () => sentences[Math.floor(random() * sentences.length)]!,
    ).join(" "),
  );
}

/** A Markdown document of about `bytes` bytes: a title, then sections of recombined prose. */
export function markdownDocument(index: number, bytes: number, seed: number): string {
  const random = randomSource(seed + index);
  const sentences = corpusSentences();
  let text = `# Document ${index}\n\n`;
  let section = 0;
  while (text.length < bytes) {
    if (random() < 0.15) text += `## Section ${++section}\n\n`;
    const paragraph = Array.from(
      { length: 4 },
      () => sentences[Math.floor(random() * sentences.length)]!,
    );
    text += `${paragraph.join(" ")}\n\n`;
  }
  return text;
}

/** A valid PDF of about `bytes` bytes of page text (Helvetica, ~2 KB per page). */
export function pdfDocument(bytes: number, seed: number): Buffer {
  const random = randomSource(seed);
  const sentences = corpusSentences();
  const pages: string[][] = [];
  let total = 0;
  while (total < bytes) {
    const lines: string[] = [];
    for (let line = 0; line < 24; line += 1) {
      const sentence = sentences[Math.floor(random() * sentences.length)]!.slice(0, 90);
      lines.push(sentence);
      total += sentence.length;
    }
    pages.push(lines);
  }
  return buildPdf(pages);
}

function buildPdf(pages: string[][]): Buffer {
  const pdfText = (text: string) =>
    text.replace(/[^\x20-\x7e]/g, " ").replace(/[\\()]/g, (c) => `\\${c}`);
  const fontId = 3 + pages.length * 2;
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, index) => `${3 + index * 2} 0 R`).join(" ")}] /Count ${pages.length} >>`,
  ];
  for (const [index, lines] of pages.entries()) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${4 + index * 2} 0 R >>`,
    );
    const operations = lines.map((line, lineIndex) =>
      lineIndex === 0 ? `50 750 Td (${pdfText(line)}) Tj` : `0 -30 Td (${pdfText(line)}) Tj`,
    );
    const stream = `BT /F1 10 Tf ${operations.join(" ")} ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (const [index, object] of objects.entries()) {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}
