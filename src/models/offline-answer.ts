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

/** Lower-case content words with accents folded and a plural "s" removed. */
function contentTerms(text: string): string[] {
  const folded = text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  const terms: string[] = [];
  for (const [word] of folded.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    terms.push(
      word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word,
    );
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

/** The offline responder's reply: quoted passages, or a plain statement that nothing matched. */
export function composeOfflineAnswer(input: {
  question: string;
  passages: ReadonlyArray<PromptPassage>;
  configureHint: string;
}): { text: string; quoted: PromptPassage[] } {
  const quoted = rankPassages(input.question, input.passages);
  if (quoted.length === 0) {
    const found =
      input.passages.length === 0
        ? "no knowledge was found for this question"
        : "none of the knowledge found matches your question";
    return {
      text: `No language model is configured, so I can only quote the knowledge base, and ${found}. To get written answers, ${input.configureHint}.`,
      quoted,
    };
  }
  const intro = `No language model is configured, so here ${quoted.length === 1 ? "is the passage" : "are the passages"} of the knowledge base that best ${quoted.length === 1 ? "matches" : "match"} your question, quoted as written:`;
  const entries = quoted.map(
    (passage, index) => `[${index + 1}] ${passage.source || "(unnamed source)"}\n${passage.text}`,
  );
  const outro = `To get written answers, ${input.configureHint}.`;
  return { text: [intro, ...entries, outro].join("\n\n"), quoted };
}
