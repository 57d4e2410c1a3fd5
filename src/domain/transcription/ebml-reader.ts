import { AudioFormatError } from "./audio-format-error.ts";

/** The size of an element whose writer did not know it (live recorders such as MediaRecorder). */
export const UNKNOWN_SIZE = -1;

export type ElementHeader = {
  /** The element ID with its length marker kept, as the Matroska spec writes them (0x1A45DFA3). */
  id: number;
  dataStart: number;
  /** Bytes of data, or UNKNOWN_SIZE. */
  size: number;
};

type Vint = { value: number; length: number; allOnes: boolean };

/** An EBML variable-length integer: the count of leading zero bits gives its length (1 to 8). */
function readVint(bytes: Uint8Array, offset: number, keepMarker: boolean): Vint | null {
  const first = bytes[offset];
  if (first === undefined) return null;
  if (first === 0) throw new AudioFormatError("The WebM file has a malformed element header");
  const length = Math.clz32(first) - 23;
  if (offset + length > bytes.length) return null;
  const marker = 0x80 >> (length - 1);
  let value = keepMarker ? first : first & (marker - 1);
  let allOnes = (first & (marker - 1)) === marker - 1;
  for (let index = 1; index < length; index += 1) {
    const byte = bytes[offset + index]!;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, allOnes };
}

/** The element header at `offset`, or null when the bytes end inside it (a truncated file). */
export function readElementHeader(bytes: Uint8Array, offset: number): ElementHeader | null {
  const id = readVint(bytes, offset, true);
  if (!id) return null;
  const size = readVint(bytes, offset + id.length, false);
  if (!size) return null;
  return {
    id: id.value,
    dataStart: offset + id.length + size.length,
    size: size.allOnes ? UNKNOWN_SIZE : size.value,
  };
}

/** Where an element's data ends, clipped to `limit` (its parent's end or the end of the file). */
export const dataEndOf = (header: ElementHeader, limit: number) =>
  header.size === UNKNOWN_SIZE ? limit : Math.min(header.dataStart + header.size, limit);

/** Calls `visit` for each child of a master element of known size, in order. */
export function forEachChild(
  bytes: Uint8Array,
  start: number,
  end: number,
  visit: (child: ElementHeader, dataEnd: number) => void,
): void {
  let offset = start;
  while (offset < end) {
    const child = readElementHeader(bytes, offset);
    if (!child || child.size === UNKNOWN_SIZE) return;
    const dataEnd = dataEndOf(child, end);
    visit(child, dataEnd);
    offset = child.dataStart + child.size;
  }
}

/** An unsigned integer element (at most 8 bytes; values past 2^53 lose precision, none matter). */
export function readUint(bytes: Uint8Array, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end && index < start + 8; index += 1) {
    value = value * 256 + bytes[index]!;
  }
  return value;
}

/** A float element: 4 or 8 bytes big-endian, or 0 bytes meaning 0. */
export function readFloat(bytes: Uint8Array, start: number, end: number): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (end - start === 8) return view.getFloat64(start);
  if (end - start === 4) return view.getFloat32(start);
  if (end === start) return 0;
  return undefined;
}

/** A string element, without the NUL padding writers may add. */
export function readString(bytes: Uint8Array, start: number, end: number): string {
  return new TextDecoder("latin1").decode(bytes.subarray(start, end)).replace(/\0+$/, "");
}

/** A Block's track number and its signed 16-bit timecode relative to its cluster. */
export function readBlockHead(
  bytes: Uint8Array,
  start: number,
  end: number,
): { track: number; relativeTimecode: number } | null {
  const track = readVint(bytes, start, false);
  if (!track) return null;
  const at = start + track.length;
  if (at + 2 > end) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { track: track.value, relativeTimecode: view.getInt16(at) };
}
