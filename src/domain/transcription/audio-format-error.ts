/** The uploaded bytes are not an audio file this service accepts; the message says why. */
export class AudioFormatError extends Error {
  override name = "AudioFormatError";
}

/** What the file's own header says, whatever its name or declared MIME type claim. */
export type AudioInfo = {
  format: "wav" | "webm" | "ogg";
  mediaType: "audio/wav" | "audio/webm" | "audio/ogg";
  /** Seconds of audio, the billed units; rounded to the millisecond. */
  durationSeconds: number;
  /** Where the duration came from, kept in the consumption event's metadata. */
  durationSource:
    | "wav-data-chunk"
    | "webm-segment-duration"
    | "webm-last-block"
    | "ogg-granule-position"
    | "ogg-opus-packets";
};

/** Seconds rounded to the millisecond, so billed units do not carry float noise. */
export const roundSeconds = (seconds: number) => Math.round(seconds * 1000) / 1000;
