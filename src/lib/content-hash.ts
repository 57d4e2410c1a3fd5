import { createHash } from "node:crypto";

/**
 * SHA-256 hex of the text after NFC normalisation and whitespace collapsing, so that a re-sync
 * which only changes line wrapping or Unicode composition yields the same hash and writes nothing.
 */
export function contentHash(text: string): string {
  const normalised = text.normalize("NFC").replace(/\s+/gu, " ").trim();
  return createHash("sha256").update(normalised, "utf8").digest("hex");
}
