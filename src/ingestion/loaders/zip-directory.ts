import { pipeline, Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";

// jszip reads the central directory only inside its async loadAsync and keeps the declared sizes
// in a private field; file-type detection must be synchronous and the zip-bomb guard must see
// every entry's declared size and data offset before anything inflates, so the directory (a flat
// table of fixed-size records) is read here. Inflation is node:zlib's, a slice at a time.

export type ZipEntry = {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** 0 = stored, 8 = deflate; anything else is unsupported by every OOXML reader we use. */
  method: number;
  encrypted: boolean;
  localHeaderOffset: number;
};

export class ZipFormatError extends Error {
  override readonly name = "ZipFormatError";

  constructor(
    readonly reason: "corrupt" | "too-many-entries",
    message: string,
  ) {
    super(message);
  }
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END_OF_DIRECTORY = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;

export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5);
}

/** Lists the entries of a ZIP archive from its central directory, without inflating anything. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const endOffset = findEndOfDirectory(view);
  let entryCount = view.getUint16(endOffset + 10, true);
  let directoryOffset = view.getUint32(endOffset + 16, true);
  if (entryCount === U16_MAX || directoryOffset === U32_MAX) {
    const zip64 = readZip64End(view, endOffset);
    entryCount = zip64.entryCount;
    directoryOffset = zip64.directoryOffset;
  }
  if (entryCount > maxEntries) {
    throw new ZipFormatError(
      "too-many-entries",
      `The archive holds ${entryCount} files; the limit is ${maxEntries}`,
    );
  }
  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < entryCount; index++) {
    requireBytes(view, offset, 46);
    if (view.getUint32(offset, true) !== CENTRAL_ENTRY) throw corrupt();
    const flags = view.getUint16(offset + 8, true);
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    requireBytes(view, offset + 46, nameLength + extraLength);
    const entry: ZipEntry = {
      name: new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      compressedSize: view.getUint32(offset + 20, true),
      uncompressedSize: view.getUint32(offset + 24, true),
      method: view.getUint16(offset + 10, true),
      encrypted: (flags & 1) === 1,
      localHeaderOffset: view.getUint32(offset + 42, true),
    };
    applyZip64Extra(view, offset + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The compressed bytes of one entry, located through its local header. */
export function entryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  requireBytes(view, entry.localHeaderOffset, 30);
  if (view.getUint32(entry.localHeaderOffset, true) !== LOCAL_HEADER) throw corrupt();
  const nameLength = view.getUint16(entry.localHeaderOffset + 26, true);
  const extraLength = view.getUint16(entry.localHeaderOffset + 28, true);
  const start = entry.localHeaderOffset + 30 + nameLength + extraLength;
  requireBytes(view, start, entry.compressedSize);
  return bytes.subarray(start, start + entry.compressedSize);
}

// Compressed data is handed to zlib this much at a time, so at most one slice's expansion (about
// 1 MB for XML, 16 MB for the most compressible data) is waiting to be read.
const SLICE_BYTES = 16 * 1024;

/**
 * The inflated bytes of an entry's data (from `entryData`), chunk by chunk as the reader takes
 * them: a part of tens of megabytes is never whole in memory. Stopping early ends the inflation.
 */
export function inflatedChunks(data: Uint8Array, method: number): AsyncIterable<Uint8Array> {
  const slices = Readable.from(slicesOf(data));
  return method === 0 ? slices : pipeline(slices, createInflateRaw(), () => {});
}

function* slicesOf(data: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < data.byteLength; start += SLICE_BYTES) {
    yield data.subarray(start, start + SLICE_BYTES);
  }
}

function findEndOfDirectory(view: DataView): number {
  // The end record is 22 bytes followed by a comment of at most 64 KiB.
  const lowest = Math.max(0, view.byteLength - 22 - U16_MAX);
  for (let offset = view.byteLength - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  throw corrupt();
}

function readZip64End(view: DataView, endOffset: number) {
  const locatorOffset = endOffset - 20;
  if (locatorOffset < 0 || view.getUint32(locatorOffset, true) !== ZIP64_LOCATOR) throw corrupt();
  const recordOffset = toSafeNumber(view.getBigUint64(locatorOffset + 8, true));
  requireBytes(view, recordOffset, 56);
  if (view.getUint32(recordOffset, true) !== ZIP64_END_OF_DIRECTORY) throw corrupt();
  return {
    entryCount: toSafeNumber(view.getBigUint64(recordOffset + 32, true)),
    directoryOffset: toSafeNumber(view.getBigUint64(recordOffset + 48, true)),
  };
}

// ZIP64 moves sizes that do not fit 32 bits into extra field 0x0001, in a fixed order and only
// for the fields whose 32-bit slot is saturated.
function applyZip64Extra(view: DataView, start: number, length: number, entry: ZipEntry): void {
  let offset = start;
  while (offset + 4 <= start + length) {
    const id = view.getUint16(offset, true);
    const size = view.getUint16(offset + 2, true);
    if (id === 0x0001) {
      let field = offset + 4;
      const next = () => {
        requireBytes(view, field, 8);
        const value = toSafeNumber(view.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (entry.uncompressedSize === U32_MAX) entry.uncompressedSize = next();
      if (entry.compressedSize === U32_MAX) entry.compressedSize = next();
      if (entry.localHeaderOffset === U32_MAX) entry.localHeaderOffset = next();
      return;
    }
    offset += 4 + size;
  }
}

function toSafeNumber(value: bigint): number {
  // Past 2^53 the archive is absurd anyway; saturating keeps every size check meaningful.
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

function requireBytes(view: DataView, offset: number, length: number): void {
  if (offset < 0 || length < 0 || offset + length > view.byteLength) throw corrupt();
}

function corrupt(): ZipFormatError {
  return new ZipFormatError("corrupt", "The archive is corrupt or truncated");
}
