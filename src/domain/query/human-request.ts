// Explicit requests for a person, in English and Spanish (the languages of the spec's channels).
// Kept narrow on purpose: "I want someone to fix my lock" must not hand the conversation over.
const ARTICLE = "(?:a |an |the |some |one of your |a real |a live |an actual )?";
const STAFF = "human|person|people|agent|representative|rep|operator|staff|team member|employee";
const PERSON = `${ARTICLE}(?:${STAFF}|someone|somebody)`;
const PERSONA =
  "(?:(?:un|una|el|la|algún|alguna) )?(?:humano|humana|persona|agente|asesor|asesora|operador|operadora|ejecutivo|ejecutiva|alguien)";

const PATTERNS: readonly RegExp[] = [
  new RegExp(
    `\\b(?:talk|speak|chat|connect me|transfer me|put me through|escalate)\\b (?:to|with) ${PERSON}\\b`,
    "i",
  ),
  // "someone" is left out here: "I need someone to look at it" is not a request for a handover.
  new RegExp(
    `\\b(?:want|need|get me|give me)\\b (?:to talk to )?${ARTICLE}(?:${STAFF})\\b(?! to\\b)`,
    "i",
  ),
  /\b(?:real|live|actual) (?:person|human|agent)\b/i,
  new RegExp(
    `(?:hablar|comunicarme|comunícame|comunicame|contactar(?:me)?|pásame|pasame|ponme) (?:con )?${PERSONA}(?![\\p{L}])`,
    "iu",
  ),
  /(?:quiero|necesito) (?:un |una )?(?:humano|persona real|agente humano|asesor|asesora|operador|operadora)(?![\p{L}])/iu,
  /^\s*(?:human|agent|representative|operator|humano|agente|asesor|operador)\s*(?:please|por favor)?[\s.!?]*$/iu,
];

/** True when the customer's message plainly asks to be handed to a person. */
export function asksForHuman(message: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(message));
}
