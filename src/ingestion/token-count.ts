// No tokenizer package is installed, so token counts are estimated from the shapes that drive
// OpenAI's cl100k_base byte-pair encoding:
// - an ASCII word of up to 6 letters is usually one token; longer words are a mix of single tokens
//   ("subscription") and rare words split into pieces ("Kestrel"): ceil(length / 6) on average;
// - accented, Cyrillic, Greek and other non-ASCII letter runs split far more: ceil(length / 3);
// - digits are grouped by three: ceil(length / 3);
// - each Han, Hiragana or Katakana character is about one token;
// - punctuation and symbol runs ("," "." "**" "---" "```") cost ceil(length / 2);
// - whitespace is folded into the following token and costs nothing.
// On the English retrieval corpus under test/fixtures/retrieval this gives 1.36 tokens per word and
// 4.2 characters per token, in line with the ~1.33 tokens per word and ~4 characters per token OpenAI
// quotes for cl100k (slightly high rather than low, the safe side for context limits).
// No piece spans whitespace or a CJK character, so the count is additive over those boundaries:
// countTokens(a + " " + b) === countTokens(a) + countTokens(b). The splitter relies on this to size
// chunks from per-word counts.

const PIECE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{M}])+|\p{N}+|[^\s\p{L}\p{M}\p{N}]+/gu;
const ASCII_LETTERS = /^[A-Za-z]+$/;
const LETTERS = /^[\p{L}\p{M}]/u;
const DIGITS = /^\p{N}/u;
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;

/** Estimated cl100k_base token count of a text (see the comment at the top of this file). */
export function countTokens(text: string): number {
  // Fast path for the splitter, which counts word by word and mostly sees plain words.
  if (ASCII_LETTERS.test(text)) return Math.ceil(text.length / 6);
  let tokens = 0;
  for (const match of text.matchAll(PIECE)) {
    tokens += pieceTokens(match[0]);
  }
  return tokens;
}

function pieceTokens(piece: string): number {
  if (CJK_CHAR.test(piece)) return 1;
  if (ASCII_LETTERS.test(piece)) return Math.ceil(piece.length / 6);
  if (LETTERS.test(piece)) return Math.ceil(piece.length / 3);
  if (DIGITS.test(piece)) return Math.ceil(piece.length / 3);
  return Math.ceil(piece.length / 2);
}
