/**
 * What the customer wrote in a mail, without the history their mail program quoted below it and
 * without their signature: the part an answer is about.
 */

// The line a mail program writes above the message it quotes, in the languages customers write
// most; "On … wrote:" may be wrapped onto two lines.
const ATTRIBUTION = [
  /^On\b[\s\S]{0,300}\bwrote:\s*$/i,
  /^Le\b[\s\S]{0,300}\ba écrit\s?:\s*$/i,
  /^Am\b[\s\S]{0,300}\bschrieb\b[\s\S]{0,100}:\s*$/i,
  /^El\b[\s\S]{0,300}\bescribió:\s*$/i,
  /^Il\b[\s\S]{0,300}\bha scritto:\s*$/i,
  /^Op\b[\s\S]{0,300}\bschreef\b[\s\S]{0,100}:\s*$/i,
];
// Outlook quotes without ">": a rule or a header block starts the history.
const HISTORY_START = [
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
  /^From:\s.+$/i,
];
const SIGNATURE_DELIMITER = /^--\s?$/;
const SENT_FROM_DEVICE = /^Sent from my [\w\s]{1,40}$/i;

function startsHistory(lines: readonly string[], index: number): boolean {
  const line = lines[index]!.trim();
  if (HISTORY_START.some((pattern) => pattern.test(line))) {
    // "From:" alone is history only when the header block goes on (Sent:/To:/Subject:).
    if (/^From:/i.test(line))
      return /^(Sent|Date|To|Subject):/i.test(lines[index + 1]?.trim() ?? "");
    return true;
  }
  if (ATTRIBUTION.some((pattern) => pattern.test(line))) return true;
  const twoLines = `${line} ${lines[index + 1]?.trim() ?? ""}`;
  return ATTRIBUTION.some((pattern) => pattern.test(twoLines)) && /:\s*$/.test(twoLines);
}

/** The new text of a mail body: quoted lines, the quoted history and the signature taken out. */
export function stripQuotedReply(body: string): string {
  const lines = body.replace(/\r\n?/g, "\n").split("\n");
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (SIGNATURE_DELIMITER.test(line)) break;
    if (startsHistory(lines, index)) {
      // Written above the history (top-posting): the rest is history. Below it (bottom-posting,
      // inline answers): the quoted lines go, and what the customer wrote between them stays.
      if (kept.some((keptLine) => keptLine.trim() !== "")) break;
      continue;
    }
    if (SENT_FROM_DEVICE.test(line.trim())) continue;
    if (/^\s*>/.test(line)) continue;
    kept.push(line.trimEnd());
  }
  return kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The subject without the "Re:" and "Fwd:" prefixes mail programs stack up. */
export function baseSubject(subject: string): string {
  let current = subject.trim();
  for (;;) {
    const next = current.replace(/^(re|aw|sv|fw|fwd|wg|tr|rif)\s*(\[\d+\])?\s*:\s*/i, "");
    if (next === current) return current;
    current = next;
  }
}

/** The subject of a reply: one "Re:", never "Re: Re:". */
export function replySubject(subject: string | undefined): string {
  const base = baseSubject(subject ?? "");
  return base === "" ? "Re: your message" : `Re: ${base}`;
}
