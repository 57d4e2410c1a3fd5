// M. F. Porter's 1980 suffix-stripping algorithm ("An algorithm for suffix stripping", Program
// 14(3)), with the two corrections of his reference implementation (BLI -> BLE, LOGI -> LOG).
// Written here because no stemmer package is installed; it maps "returns", "returned" and
// "returning" to one feature for the local embedder.

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["logi", "log"],
];
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"],
  ["ative", ""],
  ["alize", "al"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
];
const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ion",
  "ou",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
];

/** The Porter stem of a lower-case ASCII word; other words are returned unchanged. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word;
  let w = step1a(word);
  w = step1b(w);
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceLongest(w, STEP2, 0);
  w = replaceLongest(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}

function isConsonant(word: string, index: number): boolean {
  const letter = word[index];
  if (letter === "a" || letter === "e" || letter === "i" || letter === "o" || letter === "u") {
    return false;
  }
  if (letter === "y") return index === 0 || !isConsonant(word, index - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in the stem. */
function measure(stem: string): number {
  let count = 0;
  let index = 0;
  while (index < stem.length && isConsonant(stem, index)) index += 1;
  while (index < stem.length) {
    while (index < stem.length && !isConsonant(stem, index)) index += 1;
    if (index >= stem.length) break;
    count += 1;
    while (index < stem.length && isConsonant(stem, index)) index += 1;
  }
  return count;
}

function hasVowel(stem: string): boolean {
  for (let index = 0; index < stem.length; index += 1) {
    if (!isConsonant(stem, index)) return true;
  }
  return false;
}

function endsDoubleConsonant(stem: string): boolean {
  const length = stem.length;
  return length >= 2 && stem[length - 1] === stem[length - 2] && isConsonant(stem, length - 1);
}

/** Porter's *o: consonant-vowel-consonant at the end, the last not w, x or y. */
function endsCvc(stem: string): boolean {
  const length = stem.length;
  if (length < 3) return false;
  const last = stem[length - 1]!;
  return (
    isConsonant(stem, length - 3) &&
    !isConsonant(stem, length - 2) &&
    isConsonant(stem, length - 1) &&
    last !== "w" &&
    last !== "x" &&
    last !== "y"
  );
}

function step1a(word: string): string {
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("ies")) return word.slice(0, -2);
  if (word.endsWith("ss")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

function step1b(word: string): string {
  if (word.endsWith("eed")) {
    return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  }
  let stem: string | null = null;
  if (word.endsWith("ed") && hasVowel(word.slice(0, -2))) stem = word.slice(0, -2);
  else if (word.endsWith("ing") && hasVowel(word.slice(0, -3))) stem = word.slice(0, -3);
  if (stem === null) return word;
  if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`;
  if (endsDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`;
  return stem;
}

/** Applies the rule of the longest matching suffix if the remaining stem's m exceeds minMeasure. */
function replaceLongest(
  word: string,
  rules: ReadonlyArray<readonly [string, string]>,
  minMeasure: number,
): string {
  let match: readonly [string, string] | undefined;
  for (const rule of rules) {
    if (word.endsWith(rule[0]) && (!match || rule[0].length > match[0].length)) match = rule;
  }
  if (!match) return word;
  const stem = word.slice(0, -match[0].length);
  return measure(stem) > minMeasure ? stem + match[1] : word;
}

function step4(word: string): string {
  let suffix: string | undefined;
  for (const candidate of STEP4) {
    if (word.endsWith(candidate) && (!suffix || candidate.length > suffix.length))
      suffix = candidate;
  }
  if (!suffix) return word;
  const stem = word.slice(0, -suffix.length);
  if (measure(stem) <= 1) return word;
  if (suffix === "ion" && !/[st]$/.test(stem)) return word;
  return stem;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (w.endsWith("ll") && measure(w) > 1) w = w.slice(0, -1);
  return w;
}
