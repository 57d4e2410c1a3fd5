// Builds small but valid PDFs byte by byte, with the cross-reference table's offsets computed
// from the bytes actually written, so pdf.js reads them without falling back to repair mode.

export type PdfFixtureOptions = {
  /** Adds a standard-security /Encrypt dictionary, making the file need a password. */
  encrypted?: boolean;
  title?: string;
};

/** A PDF with one page per entry; each page shows its lines of text in Helvetica. */
export function buildPdf(
  pages: readonly (readonly string[])[],
  options: PdfFixtureOptions = {},
): Uint8Array {
  const pageCount = pages.length;
  const fontId = 3 + pageCount * 2;
  const infoId = fontId + 1;
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, index) => `${3 + index * 2} 0 R`).join(" ")}] /Count ${pageCount} >>`,
  ];
  pages.forEach((lines, index) => {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${fontId} 0 R >> >> /Contents ${4 + index * 2} 0 R >>`,
    );
    const operations = lines.map((line, lineIndex) =>
      lineIndex === 0
        ? `72 720 Td (${escapePdfString(line)}) Tj`
        : `0 -28 Td (${escapePdfString(line)}) Tj`,
    );
    const stream = `BT /F1 18 Tf ${operations.join(" ")} ET`;
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  objects.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  objects.push(`<< /Title (${escapePdfString(options.title ?? "")}) >>`);

  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefOffset = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  const encryption = options.encrypted
    ? " /Encrypt << /Filter /Standard /V 1 /R 2 /O (0123456789abcdef0123456789abcdef) /U (0123456789abcdef0123456789abcdef) /P -4 >> /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]"
    : "";
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoId} 0 R${encryption} >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
  // Every character written is ASCII, so string offsets are byte offsets.
  return new TextEncoder().encode(body);
}

function escapePdfString(text: string): string {
  return text.replace(/[\\()]/g, (character) => `\\${character}`);
}
