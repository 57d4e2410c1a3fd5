import { AudioFormatError, type AudioInfo } from "./audio-format-error.ts";
import { looksLikeOgg, parseOgg } from "./ogg-header.ts";
import { looksLikeWav, parseWav } from "./wav-header.ts";
import { looksLikeEbml, parseWebm } from "./webm-header.ts";

/**
 * Identifies WAV, WebM or Ogg Opus audio from the file's own bytes (never its name or declared
 * type) and reads its duration. Throws AudioFormatError for anything else or for a damaged header.
 */
export function probeAudio(bytes: Uint8Array): AudioInfo {
  if (looksLikeWav(bytes)) return parseWav(bytes);
  if (looksLikeEbml(bytes)) return parseWebm(bytes);
  if (looksLikeOgg(bytes)) return parseOgg(bytes);
  throw new AudioFormatError("The file is neither WAV, WebM nor Ogg Opus audio");
}
