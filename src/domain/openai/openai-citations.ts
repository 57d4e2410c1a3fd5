import type { Passage } from "../knowledge/knowledge-search.ts";

type Span = { start_index: number; end_index: number };

/** A web source of an answer (OpenAI's `url_citation` annotation). */
type UrlCitation = Span & { type: "url_citation"; url: string; title: string };

/**
 * A file source of an answer (OpenAI's `file_citation`): `file_id` is the datasource id, `index`
 * OpenAI's insertion point (the end of the span).
 */
type FileCitation = Span & {
  type: "file_citation";
  file_id: string;
  filename: string;
  index: number;
};

export type Citation = UrlCitation | FileCitation;

const MARKER = /\[(\d{1,3})\]/g;
const isWebSource = (source: string) => /^https?:\/\//i.test(source);

/**
 * The sources of an answer as annotations, one per web page or datasource. The prompt numbers its
 * passages (`<passage index="1">`); where the answer cites one as `[1]` the annotation spans that
 * marker, else it sits at the end of the answer.
 */
export function citationsOf(answer: string, passages: readonly Passage[]): Citation[] {
  const markers = new Map<number, Span[]>();
  for (const match of answer.matchAll(MARKER)) {
    const number = Number(match[1]);
    const spans = markers.get(number) ?? [];
    spans.push({ start_index: match.index, end_index: match.index + match[0].length });
    markers.set(number, spans);
  }
  const groups = new Map<string, { passage: Passage; spans: Span[] }>();
  passages.forEach((passage, index) => {
    const key = isWebSource(passage.source) ? passage.source : `file:${passage.datasourceId}`;
    const group = groups.get(key) ?? { passage, spans: [] };
    group.spans.push(...(markers.get(index + 1) ?? []));
    groups.set(key, group);
  });
  const end = { start_index: answer.length, end_index: answer.length };
  return [...groups.values()].flatMap(({ passage, spans }) =>
    (spans.length > 0 ? spans : [end]).map(
      (span): Citation =>
        isWebSource(passage.source)
          ? { type: "url_citation", url: passage.source, title: passage.datasourceName, ...span }
          : {
              type: "file_citation",
              file_id: passage.datasourceId,
              filename: passage.datasourceName,
              index: span.end_index,
              ...span,
            },
    ),
  );
}
