import { AudioFormatError, type AudioInfo, roundSeconds } from "./audio-format-error.ts";
import {
  dataEndOf,
  type ElementHeader,
  forEachChild,
  readBlockHead,
  readElementHeader,
  readFloat,
  readString,
  readUint,
  UNKNOWN_SIZE,
} from "./ebml-reader.ts";

// Element IDs from the Matroska specification (RFC 9559), marker bits included.
const ID = {
  ebml: 0x1a45dfa3,
  docType: 0x4282,
  void: 0xec,
  segment: 0x18538067,
  info: 0x1549a966,
  timecodeScale: 0x2ad7b1,
  duration: 0x4489,
  tracks: 0x1654ae6b,
  trackEntry: 0xae,
  trackNumber: 0xd7,
  trackType: 0x83,
  defaultDuration: 0x23e383,
  cluster: 0x1f43b675,
  timecode: 0xe7,
  simpleBlock: 0xa3,
  blockGroup: 0xa0,
  block: 0xa1,
  blockDuration: 0x9b,
} as const;

const AUDIO_TRACK = 2;
const DEFAULT_TIMECODE_SCALE_NS = 1_000_000;
const NS_PER_SECOND = 1e9;

/** True when the bytes start with an EBML header (WebM, or another Matroska kind). */
export function looksLikeEbml(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x1a &&
    bytes[1] === 0x45 &&
    bytes[2] === 0xdf &&
    bytes[3] === 0xa3
  );
}

type SegmentState = {
  timecodeScaleNs: number;
  /** Segment Info Duration, in timecode-scale ticks (a float). */
  declaredTicks: number | undefined;
  sawTracks: boolean;
  /** Audio track number → DefaultDuration (ns) when the track declares one. */
  audioTracks: Map<number, number | undefined>;
  clusterTimecode: number;
  audioBlocks: number;
  /** End of the latest audio block seen, in ns. */
  lastBlockEndNs: number;
};

function readDocType(bytes: Uint8Array, header: ElementHeader): string {
  if (header.size === UNKNOWN_SIZE) {
    throw new AudioFormatError("The WebM file's EBML header has no size");
  }
  let docType = "matroska";
  forEachChild(bytes, header.dataStart, dataEndOf(header, bytes.length), (child, end) => {
    if (child.id === ID.docType) docType = readString(bytes, child.dataStart, end);
  });
  return docType;
}

function readInfo(bytes: Uint8Array, start: number, end: number, state: SegmentState): void {
  forEachChild(bytes, start, end, (child, dataEnd) => {
    if (child.id === ID.timecodeScale) {
      const scale = readUint(bytes, child.dataStart, dataEnd);
      if (scale > 0) state.timecodeScaleNs = scale;
    } else if (child.id === ID.duration) {
      const ticks = readFloat(bytes, child.dataStart, dataEnd);
      if (ticks !== undefined && Number.isFinite(ticks) && ticks > 0) state.declaredTicks = ticks;
    }
  });
}

function readTracks(bytes: Uint8Array, start: number, end: number, state: SegmentState): void {
  state.sawTracks = true;
  forEachChild(bytes, start, end, (entry, entryEnd) => {
    if (entry.id !== ID.trackEntry) return;
    let number = 0;
    let type = 0;
    let defaultDurationNs: number | undefined;
    forEachChild(bytes, entry.dataStart, entryEnd, (field, fieldEnd) => {
      const value = () => readUint(bytes, field.dataStart, fieldEnd);
      if (field.id === ID.trackNumber) number = value();
      else if (field.id === ID.trackType) type = value();
      else if (field.id === ID.defaultDuration) defaultDurationNs = value();
    });
    if (type === AUDIO_TRACK && number > 0) state.audioTracks.set(number, defaultDurationNs);
  });
}

/** Records where an audio block ends: its start, plus its own or its track's default duration. */
function noteBlock(
  bytes: Uint8Array,
  start: number,
  end: number,
  state: SegmentState,
  durationTicks?: number,
): void {
  const head = readBlockHead(bytes, start, end);
  if (!head || !state.audioTracks.has(head.track)) return;
  const startNs = (state.clusterTimecode + head.relativeTimecode) * state.timecodeScaleNs;
  const lengthNs =
    durationTicks !== undefined
      ? durationTicks * state.timecodeScaleNs
      : (state.audioTracks.get(head.track) ?? 0);
  state.audioBlocks += 1;
  state.lastBlockEndNs = Math.max(state.lastBlockEndNs, startNs + lengthNs);
}

function readBlockGroup(bytes: Uint8Array, start: number, end: number, state: SegmentState) {
  let block: { start: number; end: number } | undefined;
  let durationTicks: number | undefined;
  forEachChild(bytes, start, end, (child, dataEnd) => {
    if (child.id === ID.block) block = { start: child.dataStart, end: dataEnd };
    else if (child.id === ID.blockDuration)
      durationTicks = readUint(bytes, child.dataStart, dataEnd);
  });
  if (block) noteBlock(bytes, block.start, block.end, state, durationTicks);
}

/**
 * Walks the Segment's children in file order. Clusters are entered rather than skipped, so a
 * live recording (Segment and Clusters of unknown size, no Duration) is read the same way as a
 * finished file; block payloads are skipped by size and never decoded.
 */
function walkSegment(bytes: Uint8Array, start: number, end: number, state: SegmentState): void {
  let offset = start;
  while (offset < end) {
    const header = readElementHeader(bytes, offset);
    if (!header) return;
    const dataEnd = dataEndOf(header, end);
    switch (header.id) {
      case ID.cluster:
        offset = header.dataStart;
        continue;
      case ID.info:
        readInfo(bytes, header.dataStart, dataEnd, state);
        break;
      case ID.tracks:
        readTracks(bytes, header.dataStart, dataEnd, state);
        break;
      case ID.timecode:
        state.clusterTimecode = readUint(bytes, header.dataStart, dataEnd);
        break;
      case ID.simpleBlock:
        noteBlock(bytes, header.dataStart, dataEnd, state);
        break;
      case ID.blockGroup:
        readBlockGroup(bytes, header.dataStart, dataEnd, state);
        break;
    }
    // Only Segments and Clusters may have an unknown size in practice; anything else cannot be
    // skipped, so the walk ends with what it has read.
    if (header.size === UNKNOWN_SIZE) return;
    offset = header.dataStart + header.size;
  }
}

function findSegment(bytes: Uint8Array, offset: number): ElementHeader {
  let at = offset;
  for (;;) {
    const header = readElementHeader(bytes, at);
    if (!header) throw new AudioFormatError("The WebM file has no Segment");
    if (header.id === ID.segment) return header;
    if (header.id !== ID.void || header.size === UNKNOWN_SIZE) {
      throw new AudioFormatError("The WebM file has no Segment after its EBML header");
    }
    at = header.dataStart + header.size;
  }
}

/**
 * Reads a WebM file's EBML header, Info, Tracks and block timecodes. The duration is the Segment
 * Info Duration × TimecodeScale, but never less than the end of the last audio block, so a
 * header cannot declare long audio as short; without a Duration (live recorders) the last block
 * gives it.
 */
export function parseWebm(bytes: Uint8Array): AudioInfo {
  const ebml = readElementHeader(bytes, 0);
  if (!ebml || ebml.id !== ID.ebml) throw new AudioFormatError("The file has no EBML header");
  const docType = readDocType(bytes, ebml);
  if (docType !== "webm") {
    throw new AudioFormatError("The file is a Matroska file but not WebM (its DocType differs)");
  }
  const segment = findSegment(bytes, ebml.dataStart + ebml.size);
  const state: SegmentState = {
    timecodeScaleNs: DEFAULT_TIMECODE_SCALE_NS,
    declaredTicks: undefined,
    sawTracks: false,
    audioTracks: new Map(),
    clusterTimecode: 0,
    audioBlocks: 0,
    lastBlockEndNs: 0,
  };
  walkSegment(bytes, segment.dataStart, dataEndOf(segment, bytes.length), state);
  if (!state.sawTracks) throw new AudioFormatError("The WebM file has no Tracks element");
  if (state.audioTracks.size === 0) throw new AudioFormatError("The WebM file has no audio track");
  if (state.audioBlocks === 0) throw new AudioFormatError("The WebM file contains no audio frames");
  const declaredNs =
    state.declaredTicks !== undefined ? state.declaredTicks * state.timecodeScaleNs : 0;
  const fromDeclared = state.declaredTicks !== undefined && declaredNs >= state.lastBlockEndNs;
  return {
    format: "webm",
    mediaType: "audio/webm",
    durationSeconds: roundSeconds(Math.max(declaredNs, state.lastBlockEndNs) / NS_PER_SECOND),
    durationSource: fromDeclared ? "webm-segment-duration" : "webm-last-block",
  };
}
