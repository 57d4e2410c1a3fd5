/**
 * A LIKE/ILIKE pattern matching `text` anywhere in a value: its `%`, `_` and `\` (LIKE's default
 * escape character) are matched as themselves, so a search for "50%" finds "50%" only.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
}
