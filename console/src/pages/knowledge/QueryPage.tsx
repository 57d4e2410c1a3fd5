import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { formatInteger } from "../../ui/format.ts";
import { Field } from "../../ui/forms.tsx";
import { Empty, QueryView } from "../../ui/states.tsx";
import { knowledgeKeys, type Passage } from "./knowledge-api.ts";
import { formatScore } from "./knowledge-format.ts";

type Mode = "hybrid" | "vector" | "text";
type Search = { query: string; topK: number; mode: Mode };

const MODE_LABELS: Record<Mode, string> = {
  hybrid: "Hybrid (meaning and words)",
  vector: "Meaning only (vectors)",
  text: "Words only (full text)",
};

const isWebAddress = (source: string) => /^https?:\/\//i.test(source);

/** Asks the datastore what an agent would find: the passages, their score and their source. */
export default function QueryPage() {
  const { datastoreId = "" } = useParams();
  const [question, setQuestion] = useState("");
  const [topK, setTopK] = useState(5);
  const [mode, setMode] = useState<Mode>("hybrid");
  const [search, setSearch] = useState<Search | null>(null);

  const results = useQuery({
    queryKey: knowledgeKeys.query(datastoreId, search ?? {}),
    queryFn: () =>
      unwrap(
        api.POST("/api/datastores/{id}/query", {
          params: { path: { id: datastoreId } },
          body: search!,
        }),
      ),
    enabled: search !== null,
    staleTime: 0,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = { query: question.trim(), topK, mode };
    if (JSON.stringify(next) === JSON.stringify(search)) void results.refetch();
    else setSearch(next);
  };

  return (
    <>
      <section className="card knowledge-card">
        <h2>Ask the datastore</h2>
        <p className="muted">
          Ask a question as a visitor would: the passages an agent with this datastore would read,
          best first.
        </p>
        <form className="form query-form" onSubmit={submit}>
          <Field label="Question">
            {(props) => (
              <input
                {...props}
                type="search"
                required
                maxLength={10_000}
                value={question}
                onChange={(event) => setQuestion(event.target.value)}
              />
            )}
          </Field>
          <div className="query-options">
            <Field label="Passages">
              {(props) => (
                <input
                  {...props}
                  type="number"
                  min={1}
                  max={100}
                  required
                  value={topK}
                  onChange={(event) => setTopK(Number(event.target.value))}
                />
              )}
            </Field>
            <Field label="Ranking">
              {(props) => (
                <select
                  {...props}
                  value={mode}
                  onChange={(event) => setMode(event.target.value as Mode)}
                >
                  {Object.entries(MODE_LABELS).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <div>
            <button
              type="submit"
              className="button button-primary"
              disabled={search !== null && results.isFetching}
            >
              Search
            </button>
          </div>
        </form>
      </section>
      <p className="visually-hidden" role="status">
        {search && results.isSuccess && !results.isFetching
          ? `${formatInteger(results.data.length)} ${results.data.length === 1 ? "passage" : "passages"} found`
          : ""}
      </p>
      {search && (
        <section aria-label="Results">
          <QueryView
            query={results}
            loadingLabel="Searching…"
            isEmpty={(passages) => passages.length === 0}
            empty={
              <Empty title="No passage matches">
                <p>
                  Nothing in this datastore answers “{search.query}”. Check that its datasources are
                  synched, or ask with other words.
                </p>
              </Empty>
            }
          >
            {(passages) => <Passages passages={passages} />}
          </QueryView>
        </section>
      )}
    </>
  );
}

function Passages({ passages }: { passages: Passage[] }) {
  return (
    <>
      <h2>
        {formatInteger(passages.length)} {passages.length === 1 ? "passage" : "passages"}
      </h2>
      <ol className="passages">
        {passages.map((passage) => (
          <li key={passage.chunk_id} className="card passage">
            <div className="passage-meta">
              <span className="badge badge-info">Score {formatScore(passage.score)}</span>
              <span className="passage-source">
                {passage.datasource_name}
                {passage.page !== undefined && `, page ${formatInteger(passage.page)}`}
                {passage.source && passage.source !== passage.datasource_name && (
                  <>
                    {" · "}
                    {isWebAddress(passage.source) ? (
                      <a href={passage.source} target="_blank" rel="noreferrer">
                        {passage.source}
                      </a>
                    ) : (
                      <span>{passage.source}</span>
                    )}
                  </>
                )}
              </span>
            </div>
            <p className="passage-text">{passage.text}</p>
          </li>
        ))}
      </ol>
    </>
  );
}
