import { describe, expect, test } from "vitest";
import { AudioFormatError } from "../../src/domain/transcription/audio-format-error.ts";
import { probeAudio } from "../../src/domain/transcription/audio-probe.ts";
import { ebmlHeader, element, MKV, wavFile, webmFile } from "./audio-builders.ts";

// The first 44 bytes of a WebM recorded by Chrome's MediaRecorder, from a public data URI
// ("data:audio/webm;base64,GkXfo59ChoEBQveBAULygQRC84EIQoKEd2VibUKHgQRChYECGFOAZwH/////////"):
// the EBML header, then a Segment of unknown size.
const CHROME_WEBM_PREFIX = Buffer.from(
  "1a45dfa39f4286810142f7810142f2810442f381084282847765626d42878104428581021853806701ffffffffffffff",
  "hex",
);

const formatError = (bytes: Uint8Array) => {
  try {
    probeAudio(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(AudioFormatError);
    return (error as Error).message;
  }
  throw new Error("probeAudio accepted the bytes");
};

describe("WAV", () => {
  test("reads the duration from the data chunk and the byte rate", () => {
    expect(probeAudio(wavFile({ seconds: 2.5 }))).toEqual({
      format: "wav",
      mediaType: "audio/wav",
      durationSeconds: 2.5,
      durationSource: "wav-data-chunk",
    });
    expect(
      probeAudio(wavFile({ seconds: 1.25, sampleRate: 44_100, channels: 2 })).durationSeconds,
    ).toBe(1.25);
    expect(probeAudio(wavFile({ seconds: 3, sampleRate: 8_000, bitsPerSample: 8 }))).toMatchObject({
      durationSeconds: 3,
    });
  });

  test("skips other chunks, including odd-sized ones with their pad byte", () => {
    const file = wavFile({
      seconds: 1.5,
      extraChunks: [
        ["LIST", Buffer.from("INFOISFT\x05\x00\x00\x00test\x00", "latin1")],
        ["junk", Buffer.alloc(7)],
      ],
    });
    expect(probeAudio(file).durationSeconds).toBe(1.5);
  });

  test("counts only the bytes present when the data size is a placeholder or too large", () => {
    expect(probeAudio(wavFile({ seconds: 2, declaredDataSize: 0xffffffff })).durationSeconds).toBe(
      2,
    );
    expect(probeAudio(wavFile({ seconds: 2, declaredDataSize: 0 })).durationSeconds).toBe(2);
    const truncated = wavFile({ seconds: 4 }).subarray(0, 44 + 16_000 * 2);
    expect(probeAudio(truncated).durationSeconds).toBe(1);
  });

  test("refuses a byte rate that contradicts the sample format (under-billing)", () => {
    expect(formatError(wavFile({ seconds: 60, byteRate: 32_000_000 }))).toMatch(/inconsistent/);
  });

  test("refuses headers without a usable fmt or data chunk, or without samples", () => {
    const file = wavFile({ seconds: 1 });
    const noData = Buffer.from(file.subarray(0, 36));
    expect(formatError(noData)).toMatch(/no data chunk/);
    const dataFirst = Buffer.concat([file.subarray(0, 12), file.subarray(36)]);
    expect(formatError(dataFirst)).toMatch(/data chunk before its fmt chunk/);
    expect(formatError(wavFile({ seconds: 0 }))).toMatch(/no audio samples/);
    expect(formatError(file.subarray(0, 20))).toMatch(/no fmt chunk/);
  });
});

describe("WebM", () => {
  test("writes the same EBML header and live Segment as Chrome's MediaRecorder", () => {
    const file = webmFile({ frames: 10, live: true });
    expect(file.subarray(0, CHROME_WEBM_PREFIX.length).toString("hex")).toBe(
      CHROME_WEBM_PREFIX.toString("hex"),
    );
  });

  test("uses Segment Info Duration × TimecodeScale", () => {
    expect(probeAudio(webmFile({ frames: 150, durationMs: 3000 }))).toEqual({
      format: "webm",
      mediaType: "audio/webm",
      durationSeconds: 3,
      durationSource: "webm-segment-duration",
    });
  });

  test("without a Duration (a live recording), ends at the last audio block", () => {
    const live = webmFile({ frames: 150, live: true, durationMs: null });
    expect(probeAudio(live)).toMatchObject({
      durationSeconds: 2.98,
      durationSource: "webm-last-block",
    });
    const withFrameLength = webmFile({
      frames: 150,
      live: true,
      durationMs: null,
      defaultDurationNs: 20_000_000,
    });
    expect(probeAudio(withFrameLength).durationSeconds).toBe(3);
  });

  test("reads long recordings across many clusters, known or unknown size", () => {
    expect(probeAudio(webmFile({ frames: 3000, durationMs: null })).durationSeconds).toBe(59.98);
    expect(probeAudio(webmFile({ frames: 3000, live: true })).durationSeconds).toBe(59.98);
  });

  test("never bills less than the blocks present when the Duration under-declares", () => {
    expect(probeAudio(webmFile({ frames: 500, durationMs: 100 }))).toMatchObject({
      durationSeconds: 9.98,
      durationSource: "webm-last-block",
    });
  });

  test("reads what is present of a file cut in the middle of a block", () => {
    const file = webmFile({ frames: 100, live: true });
    expect(probeAudio(file.subarray(0, file.length - 5)).durationSeconds).toBe(1.96);
  });

  test("skips SeekHead, Void and Cues elements around the clusters", () => {
    const file = webmFile({
      frames: 50,
      durationMs: 1000,
      before: [element(MKV.seekHead, Buffer.alloc(20)), element(MKV.void, Buffer.alloc(9))],
      after: [element(MKV.cues, Buffer.alloc(12))],
    });
    expect(probeAudio(file)).toMatchObject({
      durationSeconds: 1,
      durationSource: "webm-segment-duration",
    });
  });

  test("refuses other Matroska files, files without audio tracks or without frames", () => {
    expect(formatError(webmFile({ frames: 10, docType: "matroska" }))).toMatch(/not WebM/);
    expect(formatError(webmFile({ frames: 10, trackType: 1 }))).toMatch(/no audio track/);
    expect(formatError(webmFile({ frames: 0, durationMs: 5000 }))).toMatch(/no audio frames/);
    expect(formatError(Buffer.concat([ebmlHeader(), Buffer.from([0x00, 0x01])]))).toMatch(
      /malformed|no Segment/,
    );
    expect(formatError(CHROME_WEBM_PREFIX)).toMatch(/no Tracks/);
  });
});

describe("other bytes", () => {
  test("refuses anything that is neither WAV, WebM nor Ogg, whatever it claims to be", () => {
    const riffAvi = Buffer.from(wavFile({ seconds: 1 }));
    riffAvi.write("AVI ", 8, "ascii");
    const samples: Buffer[] = [
      Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00 an mp3", "latin1"),
      Buffer.from("fLaC\x00\x00\x00\x22 a flac stream", "latin1"),
      riffAvi,
      Buffer.from("This is a text file named recording.wav\n"),
      Buffer.alloc(0),
    ];
    for (const sample of samples) {
      expect(formatError(sample)).toBe("The file is neither WAV, WebM nor Ogg Opus audio");
    }
  });
});
