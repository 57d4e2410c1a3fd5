import { AudioFormatError, type AudioInfo, roundSeconds } from "./audio-format-error.ts";

// Page layout from the Ogg specification (RFC 3533 §6); Opus mapping from RFC 7845.
const PAGE_HEADER_BYTES = 27;
const CONTINUED_PACKET = 0x01;
const BEGINNING_OF_STREAM = 0x02;
/** A granule position of -1: no packet ends on this page. */
const NO_GRANULE = -1n;
/** Opus granule positions count 48 kHz samples, whatever the input sample rate (RFC 7845 §4). */
const OPUS_SAMPLE_RATE = 48_000;
/** No Opus packet decodes to more than 120 ms (RFC 6716 §3.2.5). */
const MAX_PACKET_SAMPLES = 5760;
/** OpusHead with the largest channel mapping table: 21 bytes, then one byte per channel. */
const HEAD_PREFIX_BYTES = 21 + 255;

type OpusHead = { preSkip: number };

type StreamState = {
  serial: number;
  head: OpusHead | undefined;
  packets: number;
  /** Samples of every audio packet, and of the latest one (the only one end trimming may cut). */
  audioSamples: number;
  lastPacketSamples: number;
  lastGranule: bigint | undefined;
};

/** True when the bytes start with an Ogg page's capture pattern "OggS". */
export function looksLikeOgg(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x4f &&
    bytes[1] === 0x67 &&
    bytes[2] === 0x67 &&
    bytes[3] === 0x53
  );
}

function readOpusHead(packet: Uint8Array): OpusHead {
  const view = new DataView(packet.buffer, packet.byteOffset, packet.byteLength);
  if (packet.length < 19) throw new AudioFormatError("The Opus identification header is too short");
  // Only the major version (upper four bits) breaks compatibility; minor versions must be read.
  if (view.getUint8(8) >> 4 !== 0) {
    throw new AudioFormatError("The Opus identification header has an unsupported version");
  }
  const channels = view.getUint8(9);
  const mappingFamily = view.getUint8(18);
  if (channels === 0 || (mappingFamily === 0 && channels > 2)) {
    throw new AudioFormatError("The Opus identification header declares an invalid channel count");
  }
  if (mappingFamily !== 0 && packet.length < 21 + channels) {
    throw new AudioFormatError("The Opus identification header's channel mapping is incomplete");
  }
  // The input sample rate (bytes 12-15) only describes the source; Opus always decodes at 48 kHz.
  return { preSkip: view.getUint16(10, true) };
}

/** Samples one Opus packet decodes to, from its TOC byte (RFC 6716 §3.1); 0 when malformed. */
function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const config = toc >> 3;
  let frameSamples: number;
  if (config < 12) frameSamples = [480, 960, 1920, 2880][config & 3]!;
  else if (config < 16) frameSamples = config & 1 ? 960 : 480;
  else frameSamples = 120 << (config & 3);
  const code = toc & 3;
  const frames = code === 0 ? 1 : code < 3 ? 2 : (packet[1] ?? 0) & 0x3f;
  const samples = frames * frameSamples;
  return samples <= MAX_PACKET_SAMPLES ? samples : 0;
}

const startsWith = (packet: Uint8Array, magic: string) =>
  packet.length >= magic.length &&
  String.fromCharCode(...packet.subarray(0, magic.length)) === magic;

function notePacket(state: StreamState, packet: Uint8Array): void {
  if (state.packets === 0) {
    if (!startsWith(packet, "OpusHead")) throw new AudioFormatError("Ogg audio must be Opus");
    state.head = readOpusHead(packet);
  } else if (state.packets === 1) {
    if (!startsWith(packet, "OpusTags")) {
      throw new AudioFormatError("The Ogg Opus stream has no OpusTags header after its OpusHead");
    }
  } else {
    state.lastPacketSamples = opusPacketSamples(packet);
    state.audioSamples += state.lastPacketSamples;
  }
  state.packets += 1;
}

type PageHeader = {
  flags: number;
  granule: bigint;
  serial: number;
  /** The page's lacing values: a packet ends with the first value under 255. */
  lacing: Uint8Array;
  dataStart: number;
  end: number;
};

/** The page at `offset`, checked against the bytes present before any of its lengths is used. */
function readPageHeader(bytes: Uint8Array, offset: number, page: number): PageHeader {
  const where = `page ${page}`;
  if (offset + PAGE_HEADER_BYTES > bytes.length) {
    throw new AudioFormatError(`The Ogg file is truncated in the header of ${where}`);
  }
  if (!looksLikeOgg(bytes.subarray(offset))) {
    throw new AudioFormatError(`The Ogg file is damaged: ${where} does not start with OggS`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, PAGE_HEADER_BYTES);
  if (view.getUint8(4) !== 0) {
    throw new AudioFormatError(`The Ogg file is damaged: ${where} has an unknown version`);
  }
  const dataStart = offset + PAGE_HEADER_BYTES + view.getUint8(26);
  if (dataStart > bytes.length) {
    throw new AudioFormatError(`The Ogg file is truncated in the segment table of ${where}`);
  }
  const lacing = bytes.subarray(offset + PAGE_HEADER_BYTES, dataStart);
  const end = dataStart + lacing.reduce((sum, size) => sum + size, 0);
  if (end > bytes.length) {
    throw new AudioFormatError(`The Ogg file is truncated: ${where} ends past the end of the file`);
  }
  const granule = view.getBigInt64(6, true);
  if (granule < NO_GRANULE) {
    throw new AudioFormatError(`The Ogg file is damaged: ${where} has a negative granule position`);
  }
  return {
    flags: view.getUint8(5),
    granule,
    serial: view.getUint32(14, true),
    lacing,
    dataStart,
    end,
  };
}

function startStream(header: PageHeader): StreamState {
  if ((header.flags & BEGINNING_OF_STREAM) === 0) {
    throw new AudioFormatError("The Ogg file's first page does not begin a stream");
  }
  return {
    serial: header.serial,
    head: undefined,
    packets: 0,
    audioSamples: 0,
    lastPacketSamples: 0,
    lastGranule: undefined,
  };
}

/**
 * Walks the Ogg pages in file order, reassembling the start of every packet from the lacing
 * values. Each page moves the walk forward by at least its header, so it always ends. The CRC is
 * not checked: a corrupted payload is the provider's to refuse, and the lengths that steer the
 * walk and the billing are checked against the bytes present anyway.
 */
function walkPages(bytes: Uint8Array): StreamState {
  const prefix = new Uint8Array(HEAD_PREFIX_BYTES);
  let prefixLength = 0;
  let packetOpen = false;
  let state: StreamState | undefined;
  for (let offset = 0, page = 1; offset < bytes.length; page += 1) {
    const header = readPageHeader(bytes, offset, page);
    if (!state) state = startStream(header);
    else if (header.serial !== state.serial || (header.flags & BEGINNING_OF_STREAM) !== 0) {
      // A second stream (chained or multiplexed) would be transcribed but not billed.
      throw new AudioFormatError("The Ogg file holds more than one stream; send one Opus stream");
    }
    if (((header.flags & CONTINUED_PACKET) !== 0) !== packetOpen) {
      throw new AudioFormatError(
        `The Ogg file is damaged: page ${page} and the one before disagree on a continued packet`,
      );
    }
    if (header.granule !== NO_GRANULE) state.lastGranule = header.granule;
    let at = header.dataStart;
    for (const size of header.lacing) {
      const keep = Math.min(size, HEAD_PREFIX_BYTES - prefixLength);
      prefix.set(bytes.subarray(at, at + keep), prefixLength);
      prefixLength += keep;
      at += size;
      packetOpen = size === 255;
      if (!packetOpen) {
        notePacket(state, prefix.subarray(0, prefixLength));
        prefixLength = 0;
      }
    }
    offset = header.end;
  }
  if (!state) throw new AudioFormatError("The Ogg file has no pages");
  if (packetOpen) throw new AudioFormatError("The Ogg file is truncated inside its last packet");
  return state;
}

/**
 * Reads an Ogg Opus file: one logical stream whose first packet is OpusHead and second OpusTags.
 * The duration is the granule position of the last page minus the pre-skip, at 48 kHz; but never
 * less than the audio packets decode to, the last one aside (end trimming may cut it), so a
 * forged last granule position cannot declare long audio as short.
 */
export function parseOgg(bytes: Uint8Array): AudioInfo {
  const state = walkPages(bytes);
  if (!state.head) throw new AudioFormatError("The Ogg file holds no complete packet");
  if (state.packets < 3) {
    throw new AudioFormatError("The Ogg Opus stream contains no audio packets");
  }
  if (state.lastGranule === undefined) {
    throw new AudioFormatError("The Ogg Opus stream has no granule position");
  }
  const { preSkip } = state.head;
  const fromGranule = Number(state.lastGranule) - preSkip;
  const fromPackets = state.audioSamples - state.lastPacketSamples - preSkip;
  const samples = Math.max(fromGranule, fromPackets);
  if (samples <= 0) throw new AudioFormatError("The Ogg Opus stream contains no audio samples");
  return {
    format: "ogg",
    mediaType: "audio/ogg",
    durationSeconds: roundSeconds(samples / OPUS_SAMPLE_RATE),
    durationSource: fromGranule >= fromPackets ? "ogg-granule-position" : "ogg-opus-packets",
  };
}
