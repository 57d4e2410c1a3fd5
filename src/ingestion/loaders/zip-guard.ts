import { DocumentLoadError } from "./loader-errors.ts";
import {
  entryData,
  inflatedChunks,
  readZipDirectory,
  type ZipEntry,
  ZipFormatError,
} from "./zip-directory.ts";

/** Far above any real Office file (a 500-slide deck has ~3,000 parts), far below a DoS. */
export const MAX_ARCHIVE_ENTRIES = 20_000;
// DEFLATE tops out near 1032:1; XML reaches 20-100:1. Only a multi-megabyte part squeezed harder
// than this is the signature of a bomb rather than of a real document.
const MAX_RATIO = 500;
const RATIO_CHECK_FROM_BYTES = 1024 * 1024;

/**
 * Refuses an OOXML archive that is corrupt, encrypted, or expands beyond `maxUncompressedBytes`.
 * The declared sizes are checked first; then every part is inflated and counted, its output
 * thrown away chunk by chunk, up to its declared size, so an archive whose headers lie is caught
 * before the loaders inflate it for real. Returns the archive's entries.
 */
export async function assertSafeArchive(
  bytes: Uint8Array,
  maxUncompressedBytes: number,
  kind: string,
): Promise<ZipEntry[]> {
  const entries = readDirectory(bytes, kind);
  const limit = formatMiB(maxUncompressedBytes);
  let declaredTotal = 0;
  for (const entry of entries) {
    if (entry.encrypted) throw new DocumentLoadError(`The ${kind} is encrypted and cannot be read`);
    if (entry.method !== 0 && entry.method !== 8) {
      throw new DocumentLoadError(`The ${kind} uses an unsupported compression method`);
    }
    declaredTotal += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (declaredTotal > maxUncompressedBytes) {
      throw new DocumentLoadError(
        `The archive expands beyond ${limit}; refusing a possible zip bomb`,
      );
    }
    if (entry.uncompressedSize >= RATIO_CHECK_FROM_BYTES && ratio > MAX_RATIO) {
      throw new DocumentLoadError(
        `The archive has a part compressed ${Math.round(ratio)}:1; refusing a possible zip bomb`,
      );
    }
  }
  for (const entry of entries) {
    if (entry.name.endsWith("/") && entry.uncompressedSize === 0) continue;
    const data = dataOf(bytes, entry, kind);
    if (entry.method === 0) {
      if (data.byteLength !== entry.uncompressedSize) throw corrupt(kind);
      continue;
    }
    await inflateWithin(data, entry.uncompressedSize, kind);
  }
  return entries;
}

// Counted as it inflates, chunk by chunk: a 95 MB part inflated whole took as much memory again
// (and more while zlib's output buffers were joined) before any loader read it.
async function inflateWithin(data: Uint8Array, declaredSize: number, kind: string): Promise<void> {
  let inflatedBytes = 0;
  try {
    for await (const chunk of inflatedChunks(data, 8)) {
      inflatedBytes += chunk.byteLength;
      if (inflatedBytes > declaredSize) break;
    }
  } catch {
    throw corrupt(kind);
  }
  if (inflatedBytes > declaredSize) {
    throw new DocumentLoadError(
      "The archive expands beyond the sizes it declares; refusing a possible zip bomb",
    );
  }
}

function readDirectory(bytes: Uint8Array, kind: string) {
  try {
    return readZipDirectory(bytes, MAX_ARCHIVE_ENTRIES);
  } catch (error) {
    if (error instanceof ZipFormatError && error.reason === "too-many-entries") {
      throw new DocumentLoadError(`${error.message}; refusing a possible zip bomb`);
    }
    throw corrupt(kind);
  }
}

function dataOf(bytes: Uint8Array, entry: Parameters<typeof entryData>[1], kind: string) {
  try {
    return entryData(bytes, entry);
  } catch {
    throw corrupt(kind);
  }
}

function corrupt(kind: string): DocumentLoadError {
  return new DocumentLoadError(`The ${kind} could not be read: it is corrupt or truncated`);
}

export function formatMiB(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return `${Number.isInteger(mebibytes) ? mebibytes : mebibytes.toFixed(1)} MiB`;
}
