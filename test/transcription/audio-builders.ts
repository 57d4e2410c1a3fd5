/**
 * Real audio files written in code: PCM WAV with a sine tone, WebM (Matroska) with an Opus
 * track, and Ogg Opus, both carrying Opus's 20 ms silence packet. Element IDs and layouts follow
 * the Matroska specification (RFC 9559) and the WebM byte stream format, as Chrome's
 * MediaRecorder writes it: EBML header, then a Segment with Info, Tracks and Clusters of
 * SimpleBlocks. Ogg pages follow RFC 3533 (with their CRC) and the Opus mapping RFC 7845, as
 * opusenc and ffmpeg write them: OpusHead alone on the first page, then OpusTags, then audio.
 */

export type WavOptions = {
  seconds: number;
  sampleRate?: number;
  channels?: number;
  bitsPerSample?: number;
  /** Chunks written between fmt and data (e.g. a LIST chunk), as [id, body]. */
  extraChunks?: Array<[string, Buffer]>;
  /** Written instead of the real data size (0xFFFFFFFF: a streaming writer's placeholder). */
  declaredDataSize?: number;
  /** Overrides the fmt chunk's byte rate (to write an inconsistent header). */
  byteRate?: number;
};

function chunk(id: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(id, 0, "ascii");
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** A PCM WAV holding `seconds` of a 440 Hz tone. */
export function wavFile(options: WavOptions): Buffer {
  const sampleRate = options.sampleRate ?? 16_000;
  const channels = options.channels ?? 1;
  const bitsPerSample = options.bitsPerSample ?? 16;
  const blockAlign = channels * (bitsPerSample / 8);
  const frames = Math.round(options.seconds * sampleRate);
  const data = Buffer.alloc(frames * blockAlign);
  for (let frame = 0; frame < frames; frame += 1) {
    const sample = Math.round(Math.sin((2 * Math.PI * 440 * frame) / sampleRate) * 12_000);
    for (let channel = 0; channel < channels; channel += 1) {
      const at = frame * blockAlign + channel * (bitsPerSample / 8);
      if (bitsPerSample === 16) data.writeInt16LE(sample, at);
      else data.writeUInt8((sample >> 8) + 128, at);
    }
  }
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(channels, 2);
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(options.byteRate ?? sampleRate * blockAlign, 8);
  fmt.writeUInt16LE(blockAlign, 12);
  fmt.writeUInt16LE(bitsPerSample, 14);
  const dataChunk = chunk("data", data);
  if (options.declaredDataSize !== undefined) dataChunk.writeUInt32LE(options.declaredDataSize, 4);
  const body = Buffer.concat([
    Buffer.from("WAVE", "ascii"),
    chunk("fmt ", fmt),
    ...(options.extraChunks ?? []).map(([id, content]) => chunk(id, content)),
    dataChunk,
  ]);
  const riff = Buffer.alloc(8);
  riff.write("RIFF", 0, "ascii");
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

// --- EBML writing -------------------------------------------------------------------------

const UNKNOWN = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

function idBytes(id: number): Buffer {
  const bytes: number[] = [];
  for (let value = id; value > 0; value = Math.floor(value / 256)) bytes.unshift(value % 256);
  return Buffer.from(bytes);
}

/** The shortest EBML size vint for `size` (all-ones values are reserved for "unknown"). */
function sizeBytes(size: number): Buffer {
  for (let length = 1; length <= 8; length += 1) {
    if (size < 2 ** (7 * length) - 1) {
      const bytes = Buffer.alloc(length);
      let value = size;
      for (let index = length - 1; index >= 0; index -= 1) {
        bytes[index] = value % 256;
        value = Math.floor(value / 256);
      }
      bytes[0] = (bytes[0] ?? 0) | (0x80 >> (length - 1));
      return bytes;
    }
  }
  throw new Error("size too large");
}

export function element(id: number, ...children: Buffer[]): Buffer {
  const data = Buffer.concat(children);
  return Buffer.concat([idBytes(id), sizeBytes(data.length), data]);
}

/** A master element of unknown size, as live recorders write Segments and Clusters. */
function openElement(id: number, ...children: Buffer[]): Buffer {
  return Buffer.concat([idBytes(id), UNKNOWN, ...children]);
}

function uintElement(id: number, value: number): Buffer {
  const bytes: number[] = [];
  for (let rest = value; rest > 0 || bytes.length === 0; rest = Math.floor(rest / 256)) {
    bytes.unshift(rest % 256);
  }
  return element(id, Buffer.from(bytes));
}

function floatElement(id: number, value: number): Buffer {
  const data = Buffer.alloc(8);
  data.writeDoubleBE(value);
  return element(id, data);
}

function stringElement(id: number, value: string): Buffer {
  return element(id, Buffer.from(value, "ascii"));
}

export const MKV = {
  ebml: 0x1a45dfa3,
  ebmlVersion: 0x4286,
  ebmlReadVersion: 0x42f7,
  ebmlMaxIdLength: 0x42f2,
  ebmlMaxSizeLength: 0x42f3,
  docType: 0x4282,
  docTypeVersion: 0x4287,
  docTypeReadVersion: 0x4285,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  muxingApp: 0x4d80,
  writingApp: 0x5741,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackUid: 0x73c5,
  trackType: 0x83,
  codecId: 0x86,
  codecPrivate: 0x63a2,
  defaultDuration: 0x23e383,
  audio: 0xe1,
  samplingFrequency: 0xb5,
  channels: 0x9f,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  cues: 0x1c53bb6b,
  void: 0xec,
  seekHead: 0x114d9b74,
} as const;

/** Opus's 20 ms silence packet (TOC 0xF8: CELT fullband 20 ms, mono, one frame). */
const OPUS_SILENCE = Buffer.from([0xf8, 0xff, 0xfe]);

function opusHead(channels: number, preSkip = 312, inputSampleRate = 48_000): Buffer {
  const head = Buffer.alloc(19);
  head.write("OpusHead", 0, "ascii");
  head.writeUInt8(1, 8);
  head.writeUInt8(channels, 9);
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(inputSampleRate, 12);
  head.writeInt16LE(0, 16);
  head.writeUInt8(0, 18);
  return head;
}

export function ebmlHeader(docType = "webm"): Buffer {
  return element(
    MKV.ebml,
    uintElement(MKV.ebmlVersion, 1),
    uintElement(MKV.ebmlReadVersion, 1),
    uintElement(MKV.ebmlMaxIdLength, 4),
    uintElement(MKV.ebmlMaxSizeLength, 8),
    stringElement(MKV.docType, docType),
    uintElement(MKV.docTypeVersion, 4),
    uintElement(MKV.docTypeReadVersion, 2),
  );
}

function simpleBlock(track: number, relativeTimecode: number, frame = OPUS_SILENCE) {
  const head = Buffer.alloc(4);
  head.writeUInt8(0x80 | track, 0);
  head.writeInt16BE(relativeTimecode, 1);
  head.writeUInt8(0x80, 3);
  return element(MKV.simpleBlock, head, frame);
}

export type WebmOptions = {
  /** Audio frames of 20 ms each. */
  frames: number;
  /** Segment Info Duration in ms; null leaves it out (as MediaRecorder does). */
  durationMs?: number | null;
  /** Segment and Clusters of unknown size, as a live recorder writes them. */
  live?: boolean;
  /** The track's DefaultDuration in ns. */
  defaultDurationNs?: number;
  trackType?: number;
  docType?: string;
  /** New cluster every this many frames (relative timecodes are 16-bit). */
  framesPerCluster?: number;
  /** Segment children written before Info and after the last Cluster (SeekHead, Void, Cues). */
  before?: Buffer[];
  after?: Buffer[];
};

/** A WebM file with one Opus track of `frames` × 20 ms, TimecodeScale 1 ms. */
export function webmFile(options: WebmOptions): Buffer {
  const live = options.live ?? false;
  const framesPerCluster = options.framesPerCluster ?? 50;
  const info = element(
    MKV.info,
    uintElement(MKV.timecodeScale, 1_000_000),
    stringElement(MKV.muxingApp, "agentdesk-test"),
    stringElement(MKV.writingApp, "agentdesk-test"),
    ...(options.durationMs === null || options.durationMs === undefined
      ? []
      : [floatElement(MKV.duration, options.durationMs)]),
  );
  const tracks = element(
    MKV.tracks,
    element(
      MKV.trackEntry,
      uintElement(MKV.trackNumber, 1),
      uintElement(MKV.trackUid, 1234567),
      uintElement(MKV.trackType, options.trackType ?? 2),
      stringElement(MKV.codecId, "A_OPUS"),
      element(MKV.codecPrivate, opusHead(1)),
      ...(options.defaultDurationNs
        ? [uintElement(MKV.defaultDuration, options.defaultDurationNs)]
        : []),
      element(MKV.audio, floatElement(MKV.samplingFrequency, 48_000), uintElement(MKV.channels, 1)),
    ),
  );
  const clusters: Buffer[] = [];
  for (let first = 0; first < options.frames; first += framesPerCluster) {
    const clusterMs = first * 20;
    const blocks: Buffer[] = [];
    for (let frame = first; frame < Math.min(first + framesPerCluster, options.frames); frame++) {
      blocks.push(simpleBlock(1, frame * 20 - clusterMs));
    }
    const build = live ? openElement : element;
    clusters.push(build(MKV.cluster, uintElement(MKV.timecode, clusterMs), ...blocks));
  }
  const segment = (live ? openElement : element)(
    MKV.segment,
    ...(options.before ?? []),
    info,
    tracks,
    ...clusters,
    ...(options.after ?? []),
  );
  return Buffer.concat([ebmlHeader(options.docType), segment]);
}

// --- Ogg writing --------------------------------------------------------------------------

const OGG_CONTINUED = 0x01;
const OGG_BEGINNING = 0x02;
const OGG_END = 0x04;
/** Samples of one OPUS_SILENCE packet at 48 kHz. */
const SILENCE_SAMPLES = 960;

/** CRC-32 as Ogg computes it (RFC 3533): polynomial 0x04c11db7, not reflected, no xor. */
const OGG_CRC_TABLE = Uint32Array.from({ length: 256 }, (_, index) => {
  let value = index << 24;
  for (let bit = 0; bit < 8; bit += 1) {
    value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
  }
  return value >>> 0;
});

export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc >>> 0;
}

type OggPage = {
  flags: number;
  granule: bigint;
  serial: number;
  sequence: number;
  lacing: number[];
  body: Buffer;
};

function oggPage(page: OggPage): Buffer {
  const header = Buffer.alloc(27 + page.lacing.length);
  header.write("OggS", 0, "ascii");
  header.writeUInt8(0, 4);
  header.writeUInt8(page.flags, 5);
  header.writeBigInt64LE(page.granule, 6);
  header.writeUInt32LE(page.serial, 14);
  header.writeUInt32LE(page.sequence, 18);
  header.writeUInt8(page.lacing.length, 26);
  Buffer.from(page.lacing).copy(header, 27);
  const bytes = Buffer.concat([header, page.body]);
  bytes.writeUInt32LE(oggCrc(bytes), 22);
  return bytes;
}

/** A packet and the granule position of the page it ends on when it is the last to end there. */
type OggPacket = { data: Buffer; granule: bigint };

/**
 * Lays packets out on pages: each group starts a new page, and a group with more than 255 lacing
 * values goes on as many pages as it needs, its packets continued across them.
 */
function oggPages(groups: OggPacket[][], serial: number): Buffer[] {
  const pages: Omit<OggPage, "serial" | "sequence">[] = [];
  for (const group of groups) {
    const segments: Array<{ size: number; granule: bigint | null }> = [];
    for (const packet of group) {
      const full = Math.floor(packet.data.length / 255);
      for (let index = 0; index < full; index += 1) segments.push({ size: 255, granule: null });
      segments.push({ size: packet.data.length % 255, granule: packet.granule });
    }
    const body = Buffer.concat(group.map((packet) => packet.data));
    let at = 0;
    for (let first = 0; first < segments.length; first += 255) {
      const run = segments.slice(first, first + 255);
      const length = run.reduce((sum, segment) => sum + segment.size, 0);
      const ended = run.filter((segment) => segment.granule !== null);
      const previous = segments[first - 1];
      pages.push({
        flags: previous && previous.granule === null ? OGG_CONTINUED : 0,
        granule: ended.at(-1)?.granule ?? -1n,
        lacing: run.map((segment) => segment.size),
        body: body.subarray(at, at + length),
      });
      at += length;
    }
  }
  return pages.map((page, sequence) =>
    oggPage({
      ...page,
      flags:
        page.flags |
        (sequence === 0 ? OGG_BEGINNING : 0) |
        (sequence === pages.length - 1 ? OGG_END : 0),
      serial,
      sequence,
    }),
  );
}

function opusTags(paddingBytes: number): Buffer {
  const withLength = (field: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(field.length);
    return Buffer.concat([length, field]);
  };
  const comments = paddingBytes > 0 ? [Buffer.from(`PADDING=${"x".repeat(paddingBytes)}`)] : [];
  const count = Buffer.alloc(4);
  count.writeUInt32LE(comments.length);
  return Buffer.concat([
    Buffer.from("OpusTags", "ascii"),
    withLength(Buffer.from("agentdesk-test", "ascii")),
    count,
    ...comments.map(withLength),
  ]);
}

export type OggOpusOptions = {
  /** Audio packets of 20 ms each. */
  packets: number;
  preSkip?: number;
  inputSampleRate?: number;
  serial?: number;
  /** Audio packets per page (opusenc fills pages up to about one second). */
  packetsPerPage?: number;
  /** Written on the last page instead of pre-skip + the samples (end trimming, or a forgery). */
  finalGranule?: bigint;
  /** The stream's first packet, instead of OpusHead (e.g. a Vorbis identification header). */
  identification?: Buffer;
  /** Bytes of comment in OpusTags; over 64 KiB it spans several pages, as cover art does. */
  tagsPadding?: number;
};

/** An Ogg Opus file of `packets` × 20 ms of silence in one logical stream. */
export function oggOpusFile(options: OggOpusOptions): Buffer {
  const preSkip = options.preSkip ?? 312;
  const perPage = options.packetsPerPage ?? 50;
  const audio: OggPacket[] = Array.from({ length: options.packets }, (_, index) => ({
    data: OPUS_SILENCE,
    granule: BigInt(preSkip + (index + 1) * SILENCE_SAMPLES),
  }));
  const last = audio.at(-1);
  if (last && options.finalGranule !== undefined) last.granule = options.finalGranule;
  const audioPages: OggPacket[][] = [];
  for (let first = 0; first < audio.length; first += perPage) {
    audioPages.push(audio.slice(first, first + perPage));
  }
  const head = options.identification ?? opusHead(1, preSkip, options.inputSampleRate);
  const pages = oggPages(
    [
      [{ data: head, granule: 0n }],
      [{ data: opusTags(options.tagsPadding ?? 0), granule: 0n }],
      ...audioPages,
    ],
    options.serial ?? 0x0a9e7d35,
  );
  return Buffer.concat(pages);
}

/** Where the `index`th page (from 0) of an Ogg file starts, read from the pages before it. */
export function oggPageOffset(file: Buffer, index: number): number {
  let offset = 0;
  for (let page = 0; page < index; page += 1) {
    const segments = file[offset + 26] ?? 0;
    const lacing = file.subarray(offset + 27, offset + 27 + segments);
    offset += 27 + segments + lacing.reduce((sum, size) => sum + size, 0);
  }
  return offset;
}
