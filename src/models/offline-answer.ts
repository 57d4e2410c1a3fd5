import type { PromptPassage } from "./knowledge-prompt.ts";

const MAX_QUOTED = 3;
// A passage is quoted only when it scores at least this share of the best one, so a single
// shared word does not drag weak passages in next to a strong match.
const RELATIVE_CUTOFF = 0.5;

// Short function words carry no topic; English and Spanish, the languages the service meets most.
const STOPWORDS = new Set(
  (
    "a an and are as at be but by can could do does did for from has have how i if in is it its " +
    "me my no not of on or our so than that the their them then there these they this to was we " +
    "what when where which who why will with would you your about any all some please tell " +
    "el la los las un una unos unas y o de del al en es son que como para por con se su sus " +
    "lo le les mi mis tu tus qué cómo cuál cuando dónde porque pero más muy ya hay"
  ).split(" "),
);

/**
 * A light suffix stripper, so that "opening" meets "open" and "hours" meets "hour": plural and
 * verb endings, then a final "e" ("closes", "closed", "close" all give "clos"). Deliberately
 * crude: both sides are stripped alike, and a full stemmer would be a dependency for the one
 * model that must work with nothing installed.
 */
function stem(word: string): string {
  let stemmed = word;
  if (stemmed.length > 4 && stemmed.endsWith("ies")) stemmed = `${stemmed.slice(0, -3)}y`;
  else if (stemmed.length > 5 && stemmed.endsWith("ing")) stemmed = stemmed.slice(0, -3);
  else if (stemmed.length > 4 && stemmed.endsWith("ed")) stemmed = stemmed.slice(0, -2);
  else if (stemmed.length > 3 && stemmed.endsWith("s") && !stemmed.endsWith("ss")) {
    stemmed = stemmed.slice(0, -1);
  }
  if (stemmed.length > 3 && stemmed.endsWith("e")) stemmed = stemmed.slice(0, -1);
  return stemmed;
}

/** Lower-case content words with accents folded, stemmed. */
function contentTerms(text: string): string[] {
  const folded = text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  const terms: string[] = [];
  for (const [word] of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

/**
 * The 1-3 passages that share the most informative words with the question: each distinct question
 * term found in a passage adds ln(1 + N / passages containing it). Ties keep retrieval order.
 */
function rankPassages(question: string, passages: ReadonlyArray<PromptPassage>): PromptPassage[] {
  const queryTerms = new Set(contentTerms(question));
  if (queryTerms.size === 0 || passages.length === 0) return [];
  const passageTerms = passages.map((passage) => new Set(contentTerms(passage.text)));
  const weight = new Map<string, number>();
  for (const term of queryTerms) {
    const containing = passageTerms.filter((terms) => terms.has(term)).length;
    if (containing > 0) weight.set(term, Math.log(1 + passages.length / containing));
  }
  const scored = passages
    .map((passage, index) => {
      let score = 0;
      for (const [term, termWeight] of weight) {
        if (passageTerms[index]?.has(term)) score += termWeight;
      }
      return { passage, index, score };
    })
    .filter((candidate) => candidate.score > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index);
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((candidate) => candidate.score >= best * RELATIVE_CUTOFF)
    .slice(0, MAX_QUOTED)
    .map((candidate) => candidate.passage);
}

// A passage longer than this is quoted by its matching sentences only.
const WHOLE_PASSAGE_CHARS = 600;

/**
 * The passage as quoted: whole when short, else the sentences that share a term with the question
 * (in their order, gaps marked with an ellipsis), or whole when no single sentence does.
 */
function quotedText(question: string, text: string): string {
  if (text.length <= WHOLE_PASSAGE_CHARS) return text;
  const queryTerms = new Set(contentTerms(question));
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((sentence) => sentence.trim() !== "");
  const matching = sentences.filter((sentence) =>
    contentTerms(sentence).some((term) => queryTerms.has(term)),
  );
  return matching.length === 0 ? text : matching.map((sentence) => sentence.trim()).join(" … ");
}

/**
 * The offline responder's reply: quoted passages, or a plain statement that nothing matched. With
 * a `configureHint` (an operator asks) it also says how to get written answers; without one (a
 * visitor or a customer asks) it says only that it can quote the knowledge base.
 */
export function composeOfflineAnswer(input: {
  question: string;
  passages: ReadonlyArray<PromptPassage>;
  /** Completes "To get written answers, …": which variable to set. */
  configureHint?: string;
}): { text: string; quoted: PromptPassage[] } {
  const { configureHint } = input;
  const quoted = rankPassages(input.question, input.passages);
  const outro = configureHint === undefined ? [] : [`To get written answers, ${configureHint}.`];
  if (quoted.length === 0) {
    const found =
      input.passages.length === 0
        ? "no knowledge was found for this question"
        : "none of the knowledge found matches your question";
    const opening =
      configureHint === undefined
        ? "I can only quote the knowledge base"
        : "No language model is configured, so I can only quote the knowledge base";
    return { text: [`${opening}, and ${found}.`, ...outro].join(" "), quoted };
  }
  const best = `here ${quoted.length === 1 ? "is the passage" : "are the passages"} of the knowledge base that best ${quoted.length === 1 ? "matches" : "match"} your question, quoted as written:`;
  const intro =
    configureHint === undefined
      ? `I can only quote the knowledge base, so ${best}`
      : `No language model is configured, so ${best}`;
  const entries = quoted.map(
    (passage, index) =>
      `[${index + 1}] ${passage.source || "(unnamed source)"}\n${quotedText(input.question, passage.text)}`,
  );
  return { text: [intro, ...entries, ...outro].join("\n\n"), quoted };
}
