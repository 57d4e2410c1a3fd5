import { describe, expect, test } from "vitest";
import { AudioFormatError } from "../../src/domain/transcription/audio-format-error.ts";
import { probeAudio } from "../../src/domain/transcription/audio-probe.ts";
import { oggCrc, oggOpusFile, oggPageOffset } from "./audio-builders.ts";

// First pages of two real files, from public data URIs. An Opus file written by ffmpeg
// (Lavf55.33.100): OpusHead alone on a beginning-of-stream page, 1 channel, pre-skip 52, 8 kHz
// input. A Vorbis file's first page, its identification header "\x01vorbis".
const FFMPEG_OPUS_FIRST_PAGE = Buffer.from(
  "4f676753000200000000000000000703c728000000008178ee7e01134f7075734865616401013400401f0000000000",
  "hex",
);
const VORBIS_FIRST_PAGE = Buffer.from(
  "4f676753000200000000000000000108975f000000008af1363a011e01766f72626973000000000244ac00000000" +
    "00006da0070000000000b801",
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

describe("the test's Ogg writer", () => {
  test("computes Ogg's CRC-32 and writes the same first page as ffmpeg", () => {
    expect(oggCrc(Buffer.from("123456789", "ascii"))).toBe(0x89a1897f);
    const file = oggOpusFile({
      packets: 1,
      serial: 0x28c70307,
      preSkip: 52,
      inputSampleRate: 8_000,
    });
    expect(file.subarray(0, FFMPEG_OPUS_FIRST_PAGE.length).toString("hex")).toBe(
      FFMPEG_OPUS_FIRST_PAGE.toString("hex"),
    );
  });
});

describe("Ogg Opus", () => {
  test("reads the duration from the last granule position minus the pre-skip", () => {
    expect(probeAudio(oggOpusFile({ packets: 150 }))).toEqual({
      format: "ogg",
      mediaType: "audio/ogg",
      durationSeconds: 3,
      durationSource: "ogg-granule-position",
    });
    expect(probeAudio(oggOpusFile({ packets: 150, preSkip: 3840 })).durationSeconds).toBe(3);
    expect(probeAudio(oggOpusFile({ packets: 3000, packetsPerPage: 7 })).durationSeconds).toBe(60);
  });

  test("honours end trimming on the last page", () => {
    // 150 packets of 960 samples, the last 480 trimmed: 143,520 samples at 48 kHz.
    const trimmed = oggOpusFile({ packets: 150, finalGranule: BigInt(312 + 150 * 960 - 480) });
    expect(probeAudio(trimmed)).toMatchObject({
      durationSeconds: 2.99,
      durationSource: "ogg-granule-position",
    });
  });

  test("reads packets continued across pages (OpusTags larger than a page)", () => {
    const file = oggOpusFile({ packets: 50, tagsPadding: 200_000 });
    expect(file[oggPageOffset(file, 2) + 5]! & 0x01).toBe(1);
    expect(probeAudio(file).durationSeconds).toBe(1);
  });

  test("never bills less than the audio packets when the last granule under-declares", () => {
    // 500 packets are 10 s; the last may be trimmed, so 499 of them count at least.
    const forged = oggOpusFile({ packets: 500, preSkip: 0, finalGranule: 960n });
    expect(probeAudio(forged)).toEqual({
      format: "ogg",
      mediaType: "audio/ogg",
      durationSeconds: 9.98,
      durationSource: "ogg-opus-packets",
    });
  });

  test("refuses Ogg streams that are not Opus, such as Vorbis", () => {
    expect(formatError(VORBIS_FIRST_PAGE)).toBe("Ogg audio must be Opus");
    const vorbisHeader = VORBIS_FIRST_PAGE.subarray(28);
    expect(formatError(oggOpusFile({ packets: 10, identification: vorbisHeader }))).toBe(
      "Ogg audio must be Opus",
    );
  });

  test("refuses streams without audio, or with more than one logical stream", () => {
    expect(formatError(oggOpusFile({ packets: 0 }))).toMatch(/no audio packets/);
    expect(formatError(FFMPEG_OPUS_FIRST_PAGE)).toMatch(/no audio packets/);
    expect(formatError(oggOpusFile({ packets: 1, finalGranule: 312n }))).toMatch(
      /no audio samples/,
    );
    const chained = Buffer.concat([oggOpusFile({ packets: 5 }), oggOpusFile({ packets: 500 })]);
    expect(formatError(chained)).toMatch(/more than one stream/);
    const other = oggOpusFile({ packets: 5, serial: 7 });
    const multiplexed = Buffer.concat([
      oggOpusFile({ packets: 5 }),
      other.subarray(oggPageOffset(other, 2)),
    ]);
    expect(formatError(multiplexed)).toMatch(/more than one stream/);
  });

  test("refuses a truncated file, wherever it is cut", () => {
    const file = oggOpusFile({ packets: 150 });
    expect(formatError(file.subarray(0, 20))).toBe(
      "The Ogg file is truncated in the header of page 1",
    );
    expect(formatError(file.subarray(0, file.length - 5))).toMatch(
      /^The Ogg file is truncated: page 5 ends past the end of the file$/,
    );
    expect(formatError(file.subarray(0, oggPageOffset(file, 2) + 30))).toMatch(
      /truncated in the segment table of page 3/,
    );
    expect(formatError(Buffer.from("OggS\x00\x02 an ogg stream", "latin1"))).toMatch(/truncated/);
  });

  test("refuses damaged pages with a message naming the page", () => {
    const file = oggOpusFile({ packets: 150 });
    const second = oggPageOffset(file, 1);
    const noCapture = Buffer.from(file);
    noCapture.write("Oggs", second, "ascii");
    expect(formatError(noCapture)).toBe("The Ogg file is damaged: page 2 does not start with OggS");
    const version = Buffer.from(file);
    version[second + 4] = 1;
    expect(formatError(version)).toMatch(/page 2 has an unknown version/);
    const notBeginning = Buffer.from(file);
    notBeginning[5] = 0;
    expect(formatError(notBeginning)).toMatch(/first page does not begin a stream/);
    const continued = Buffer.from(file);
    continued[second + 5] = 0x01;
    expect(formatError(continued)).toMatch(/page 2 and the one before disagree/);
    const negative = Buffer.from(file);
    negative.writeBigInt64LE(-2n, oggPageOffset(file, 4) + 6);
    expect(formatError(negative)).toMatch(/page 5 has a negative granule position/);
    expect(
      formatError(Buffer.concat([file, Buffer.from("trailing bytes that are not an Ogg page")])),
    ).toMatch(/page 6 does not start with OggS/);
  });

  test("answers any damage with AudioFormatError or a duration, never another error", () => {
    const file = oggOpusFile({ packets: 6, packetsPerPage: 2, tagsPadding: 300 });
    const outcomes = new Set<string>();
    const check = (bytes: Uint8Array) => {
      try {
        const info = probeAudio(bytes);
        expect(Number.isFinite(info.durationSeconds) && info.durationSeconds > 0).toBe(true);
        outcomes.add("read");
      } catch (error) {
        expect(error).toBeInstanceOf(AudioFormatError);
        outcomes.add("refused");
      }
    };
    for (let length = 0; length < file.length; length += 1) check(file.subarray(0, length));
    for (let index = 4; index < file.length; index += 1) {
      for (const value of [0x00, 0xff, file[index]! ^ 0x01]) {
        const damaged = Buffer.from(file);
        damaged[index] = value;
        check(damaged);
      }
    }
    expect(outcomes).toEqual(new Set(["read", "refused"]));
  });
});
