import fc from "fast-check";

/** JSON text nesting objects and arrays `depth` levels deep. */
export type DeepJson = { text: string; depth: number };

// Keys that look like structure: brackets, quotes and backslashes inside strings are text.
const KEYS = ["a", "[", "{", "]}", '"[', "\\", '\\"{', "__proto__", "constructor", "🦄"];
const LEAVES = ["1", "null", '"[[{{"', '"\\u0000"', '"\\ud800"', '"\\\\"', '"\\"]"'];
const SPACES = ["", " ", "\n", "\t "];

/**
 * Deeply nested JSON, built as text (JSON.stringify itself fails past about 4,000 levels): each
 * level an array or an object after a repeating pattern, some with a sibling before the child,
 * keys and leaves full of brackets and escapes, and whitespace between the tokens.
 */
export function deepJson(levels: { min: number; max: number }): fc.Arbitrary<DeepJson> {
  return fc
    .record({
      depth: fc.integer(levels),
      pattern: fc.array(fc.constantFrom("array", "object", "array+", "object+"), {
        minLength: 1,
        maxLength: 6,
      }),
      key: fc.constantFrom(...KEYS),
      leaf: fc.constantFrom(...LEAVES),
      space: fc.constantFrom(...SPACES),
    })
    .map(({ depth, pattern, key, leaf, space }) => {
      const keyText = JSON.stringify(key);
      const opening: string[] = [];
      const closing: string[] = [];
      for (let level = 0; level < depth; level++) {
        const kind = pattern[level % pattern.length]!;
        const sibling = kind.endsWith("+");
        if (kind.startsWith("array")) {
          opening.push(`[${space}${sibling ? `${leaf},${space}` : ""}`);
          closing.push(`${space}]`);
        } else {
          opening.push(
            `{${space}${sibling ? `"s":${leaf},${space}` : ""}${keyText}${space}:${space}`,
          );
          closing.push(`${space}}`);
        }
      }
      return { text: `${opening.join("")}${leaf}${closing.reverse().join("")}`, depth };
    });
}

/** A multipart/form-data request as sent: its Content-Type header and its bytes. */
export type HostileForm = { contentType: string; body: Buffer };

// RFC 2046 allows these in a boundary, but an unquoted one ends at the first that is a tspecial.
const TOKEN_CHARS = "abcXYZ0129_-".split("");
const BOUNDARY_CHARS = [...TOKEN_CHARS, ..."'()+,./:=? ".split("")];

const boundaryText = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 70 }),
  },
  fc.string({ unit: fc.constantFrom(...BOUNDARY_CHARS), minLength: 1, maxLength: 70 }),
  fc.constant(""),
  fc.constant("b".repeat(200)),
  fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 240, maxLength: 300 }),
);

/** `usual` most of the time, `unusual` now and then. */
const mostly = <T, U>(usual: T, unusual: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(usual) }, unusual);

const bytes = (maxLength: number) =>
  fc.uint8Array({ maxLength }).map((array) => Buffer.from(array));

/**
 * Multipart bodies that are malformed in every way a client can get one wrong: no, empty, quoted,
 * doubled or oversized boundaries, parts delimited by another boundary, headers without a name
 * or a colon, fields sent as JSON, prototype names, NUL bytes, raw garbage between parts, no
 * closing delimiter, and the whole cut at any byte. Some of `fields` (names and values the
 * endpoint reads) come first as well-formed parts, so that many bodies reach its own checks.
 */
export function hostileMultipart(
  fields: Array<[name: string, value: string]>,
): fc.Arbitrary<HostileForm> {
  const field = fc.record({
    kind: fc.constant("field" as const),
    entry: fc.oneof(
      fc.constantFrom(...fields),
      fc.tuple(
        fc.constantFrom("__proto__", "constructor", "", 'a"b', "x\r\ny", "n\u0000"),
        fc.oneof(fc.string(), fc.constant("x\u0000y")),
      ),
    ),
    contentType: mostly(
      undefined,
      fc.constantFrom("application/json", "text/plain; charset=utf-8", "x/y; z"),
    ),
    json: fc.constantFrom('{"toString": 1}', "{nope", '{"__proto__": {"x": 1}}', "[[[[]]]]"),
  });
  const file = fc.record({
    kind: fc.constant("file" as const),
    name: fc.constantFrom("file", "audio", "other"),
    fileName: fc.constantFrom("a.txt", "", "../../etc/passwd", "a\u0000.wav", "ü.md"),
    contentType: fc.constantFrom("text/plain", "audio/wav", "application/octet-stream", ""),
    content: fc.oneof(
      fc.string({ maxLength: 300 }).map((text) => Buffer.from(text)),
      bytes(300),
    ),
  });
  const garbage = fc.record({ kind: fc.constant("garbage" as const), content: bytes(200) });
  const broken = fc.record({
    kind: fc.constant("broken header" as const),
    header: fc.constantFrom(
      "Content-Disposition: form-data",
      "no colon here",
      `Content-Disposition: form-data; name="${"n".repeat(20_000)}"`,
      "Content-Type: text/plain",
    ),
  });
  const part = fc.oneof(
    { weight: 8, arbitrary: field },
    { weight: 4, arbitrary: file },
    garbage,
    broken,
  );

  return fc
    .record({
      boundary: boundaryText,
      otherBoundary: boundaryText,
      header: mostly(
        "plain" as const,
        fc.constantFrom("quoted", "none", "empty", "upper", "charset", "twice"),
      ),
      useOther: mostly(false, fc.constant(true)),
      given: fc.shuffledSubarray(fields),
      parts: fc.array(part, { maxLength: 5 }),
      preamble: mostly(undefined, bytes(40)),
      close: mostly(true, fc.constant(false)),
      cutAt: mostly(undefined, fc.nat()),
    })
    .map(({ boundary, otherBoundary, header, useOther, given, parts, preamble, close, cutAt }) => {
      const contentType = {
        plain: `multipart/form-data; boundary=${boundary}`,
        quoted: `multipart/form-data; boundary="${boundary}"`,
        none: "multipart/form-data",
        empty: "multipart/form-data; boundary=",
        upper: `Multipart/Form-Data; BOUNDARY=${boundary}`,
        charset: `multipart/form-data; charset=utf-8; boundary=${boundary}`,
        twice: `multipart/form-data; boundary=${boundary}; boundary=${otherBoundary}`,
      }[header];
      const delimiter = `--${useOther ? otherBoundary : boundary}`;
      const chunks: Buffer[] = preamble ? [preamble, Buffer.from("\r\n")] : [];
      const givenFields = given.map((entry) => ({
        kind: "field" as const,
        entry,
        contentType: undefined,
        json: "",
      }));
      for (const item of [...givenFields, ...parts]) {
        if (item.kind === "garbage") {
          chunks.push(item.content);
          continue;
        }
        chunks.push(Buffer.from(`${delimiter}\r\n`));
        if (item.kind === "field") {
          const [name, value] = item.entry;
          const typed = item.contentType ? `Content-Type: ${item.contentType}\r\n` : "";
          const text = item.contentType === "application/json" ? item.json : value;
          chunks.push(
            Buffer.from(
              `Content-Disposition: form-data; name="${name}"\r\n${typed}\r\n${text}\r\n`,
            ),
          );
        } else if (item.kind === "file") {
          chunks.push(
            Buffer.from(
              `Content-Disposition: form-data; name="${item.name}"; filename="${item.fileName}"\r\n` +
                `Content-Type: ${item.contentType}\r\n\r\n`,
            ),
            item.content,
            Buffer.from("\r\n"),
          );
        } else {
          chunks.push(Buffer.from(`${item.header}\r\n\r\nvalue\r\n`));
        }
      }
      if (close) chunks.push(Buffer.from(`${delimiter}--\r\n`));
      const body = Buffer.concat(chunks);
      return {
        contentType,
        body: cutAt === undefined ? body : body.subarray(0, cutAt % (body.length + 1)),
      };
    });
}
