import { AudioFormatError, type AudioInfo, roundSeconds } from "./audio-format-error.ts";

const PCM = 1;
const IEEE_FLOAT = 3;
const EXTENSIBLE = 0xfffe;
/** Streaming writers put this (or 0) in the data size when they cannot seek back to fix it. */
const UNKNOWN_SIZE = 0xffffffff;

type WavFormat = {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
};

const ascii = (bytes: Uint8Array, offset: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + 4));

/** True when the bytes start like a RIFF/WAVE file (the rest may still be invalid). */
export function looksLikeWav(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0) === "RIFF" && ascii(bytes, 8) === "WAVE";
}

function readFormat(view: DataView, offset: number, size: number): WavFormat {
  if (size < 16) throw new AudioFormatError("The WAV file's fmt chunk is too short");
  const format: WavFormat = {
    audioFormat: view.getUint16(offset, true),
    channels: view.getUint16(offset + 2, true),
    sampleRate: view.getUint32(offset + 4, true),
    byteRate: view.getUint32(offset + 8, true),
    blockAlign: view.getUint16(offset + 12, true),
    bitsPerSample: view.getUint16(offset + 14, true),
  };
  if (format.channels === 0 || format.sampleRate === 0 || format.byteRate === 0) {
    throw new AudioFormatError("The WAV file's fmt chunk declares no channels or no sample rate");
  }
  // For uncompressed audio the byte rate follows from the other fields; checking it stops a
  // header from declaring a huge byte rate so that long audio is billed as a few milliseconds.
  const uncompressed = [PCM, IEEE_FLOAT, EXTENSIBLE].includes(format.audioFormat);
  if (
    uncompressed &&
    (format.blockAlign !== format.channels * Math.ceil(format.bitsPerSample / 8) ||
      format.byteRate !== format.sampleRate * format.blockAlign)
  ) {
    throw new AudioFormatError("The WAV file's fmt chunk is inconsistent (byte rate, block size)");
  }
  return format;
}

/**
 * Reads a RIFF/WAVE header: the fmt chunk, then the data chunk, whose size over the byte rate is
 * the duration. A data size larger than the bytes present (a truncated file) or left unknown by a
 * streaming writer counts only the bytes actually there.
 */
export function parseWav(bytes: Uint8Array): AudioInfo {
  if (!looksLikeWav(bytes)) throw new AudioFormatError("The file is not a RIFF/WAVE file");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: WavFormat | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = ascii(bytes, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    const present = bytes.length - body;
    if (id === "fmt ") {
      if (present < 16) break;
      format = readFormat(view, body, size);
    } else if (id === "data") {
      if (!format) throw new AudioFormatError("The WAV file has a data chunk before its fmt chunk");
      const dataBytes = size === UNKNOWN_SIZE || size === 0 ? present : Math.min(size, present);
      if (dataBytes < format.blockAlign || dataBytes === 0) {
        throw new AudioFormatError("The WAV file contains no audio samples");
      }
      return {
        format: "wav",
        mediaType: "audio/wav",
        durationSeconds: roundSeconds(dataBytes / format.byteRate),
        durationSource: "wav-data-chunk",
      };
    }
    // Chunks are padded to an even length.
    offset = body + size + (size % 2);
  }
  throw new AudioFormatError(
    format ? "The WAV file has no data chunk" : "The WAV file has no fmt chunk",
  );
}
