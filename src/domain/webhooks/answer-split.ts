/** The spec's split limits: at most 10 messages on the meta channel, 3 everywhere else. */
export function maxPartsForChannel(channel: string): number {
  return channel === "meta" ? 10 : 3;
}

// A paragraph longer than this is cut into sentences, so one long answer reads like a chat.
const SENTENCE_SPLIT_CHARS = 300;

type Piece = { text: string; separator: string };

function paragraphs(answer: string): Piece[] {
  const pieces: Piece[] = [];
  const boundary = /\n[^\S\n]*\n\s*/g;
  let start = 0;
  for (const match of answer.matchAll(boundary)) {
    pieces.push({ text: answer.slice(start, match.index), separator: match[0] });
    start = match.index + match[0].length;
  }
  pieces.push({ text: answer.slice(start), separator: "" });
  return pieces.filter((piece) => piece.text.trim() !== "");
}

function sentences(paragraph: Piece, segmenter: Intl.Segmenter): Piece[] {
  const pieces: Piece[] = [];
  for (const { segment } of segmenter.segment(paragraph.text)) {
    const text = segment.trimEnd();
    if (text.trim() === "") {
      // Whitespace the segmenter left on its own belongs to the piece before it.
      const last = pieces.at(-1);
      if (last) last.separator += segment;
      continue;
    }
    pieces.push({ text, separator: segment.slice(text.length) });
  }
  const last = pieces.at(-1);
  if (last) last.separator = paragraph.separator;
  return pieces;
}

/** A piece longer than `maxChars` as pieces within it, cut at whitespace (mid-word only when none). */
function withinLimit(piece: Piece, maxChars: number): Piece[] {
  if (piece.text.length <= maxChars) return [piece];
  const pieces: Piece[] = [];
  let rest = piece.text;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    const space = window.search(/\s\S*$/);
    const cut = space > 0 ? space : maxChars;
    pieces.push({ text: rest.slice(0, cut).trimEnd(), separator: " " });
    rest = rest.slice(cut).trimStart();
  }
  pieces.push({ text: rest, separator: piece.separator });
  return pieces;
}

/**
 * Splits an answer into at most `maxParts` messages of at most `maxChars` characters, only at
 * paragraph or sentence boundaries where it can: paragraphs are the natural messages, long
 * paragraphs are cut into sentences, and then the neighbours with the shortest combined text are
 * merged until the count fits. Nothing is ever cut off: an answer longer than `maxParts` messages
 * can hold becomes more messages. The parts, joined with the whitespace that separated them, are
 * the answer.
 */
export function splitAnswer(
  answer: string,
  maxParts: number,
  maxChars = Number.POSITIVE_INFINITY,
  locale = "en",
): string[] {
  const segmenter = new Intl.Segmenter(locale, { granularity: "sentence" });
  const pieces = paragraphs(answer.trim())
    .flatMap((paragraph) =>
      paragraph.text.length > Math.min(SENTENCE_SPLIT_CHARS, maxChars)
        ? sentences(paragraph, segmenter)
        : [paragraph],
    )
    .flatMap((piece) => withinLimit(piece, maxChars));
  const combined = (at: number) => pieces[at]!.text.length + pieces[at + 1]!.text.length;
  while (pieces.length > Math.max(1, maxParts)) {
    let best = 0;
    for (let index = 1; index < pieces.length - 1; index += 1) {
      if (combined(index) < combined(best)) best = index;
    }
    if (combined(best) + pieces[best]!.separator.length > maxChars) break;
    const left = pieces[best]!;
    const right = pieces[best + 1]!;
    pieces.splice(best, 2, {
      text: `${left.text}${left.separator}${right.text}`,
      separator: right.separator,
    });
  }
  return pieces.map((piece) => piece.text.trim());
}
