import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { ApiError } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatInteger } from "../../ui/format.ts";
import { Field } from "../../ui/forms.tsx";
import { Empty, errorText } from "../../ui/states.tsx";
import { useAgentOfPage } from "./AgentFrame.tsx";
import { type QueryAnswer, StreamError, streamAnswer } from "./query-stream.ts";

type Turn = {
  id: number;
  question: string;
  answer: string;
  status: "streaming" | "done" | "failed";
  result: QueryAnswer | null;
  error: unknown;
};

/** What went wrong with a question, in words: out of credits, too many, the model failing. */
function failureText(error: unknown): string {
  if (error instanceof StreamError) return `The answer stopped: ${error.message}`;
  if (error instanceof ApiError) {
    if (error.status === 402) {
      return `${error.message}. The agent answers again once the organization has credits (see Usage).`;
    }
    if (error.status === 401) return `You cannot ask agents with your role: ${error.message}`;
    if (error.status >= 500) return `The agent could not answer: ${error.message}`;
  }
  return errorText(error);
}

/** An answer's cost is often a small fraction of a credit: shown to the millionth, as charged. */
const credits = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });

const EXCERPT_CHARACTERS = 400;
const excerpt = (text: string) =>
  text.length > EXCERPT_CHARACTERS ? `${text.slice(0, EXCERPT_CHARACTERS).trimEnd()}…` : text;
const isWebAddress = (source: string) => /^https?:\/\//i.test(source);

function Sources({ sources }: { sources: QueryAnswer["sources"] }) {
  const id = useId();
  if (sources.length === 0) return null;
  return (
    <div className="playground-sources">
      <h3 id={id}>Sources</h3>
      <ul aria-labelledby={id}>
        {sources.map((source) => (
          <li key={`${source.source}\n${source.chunk}`}>
            {isWebAddress(source.source) ? (
              <a href={source.source} target="_blank" rel="noopener noreferrer">
                {source.source}
              </a>
            ) : (
              <span className="playground-source-name">{source.source}</span>
            )}
            <blockquote>{excerpt(source.chunk)}</blockquote>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TurnView({ turn, agentName }: { turn: Turn; agentName: string }) {
  const { result } = turn;
  const handedOver = result?.status === "HUMAN_REQUESTED";
  return (
    <li className="playground-turn">
      <div className="playground-message playground-question">
        <p className="playground-author">You</p>
        <p className="playground-text">{turn.question}</p>
      </div>
      <div className="playground-message playground-answer">
        <p className="playground-author">{agentName}</p>
        {turn.answer && <p className="playground-text">{turn.answer}</p>}
        {turn.status === "streaming" && !turn.answer && <p className="muted">Writing…</p>}
        {turn.status === "done" && !turn.answer && (
          <p className="muted">
            {handedOver
              ? "No AI answer: a person handles this conversation now."
              : "The agent wrote no answer."}
          </p>
        )}
        {turn.status === "failed" && (
          <p className="form-error" role="alert">
            {failureText(turn.error)}
          </p>
        )}
        {result && (
          <>
            <Sources sources={result.sources} />
            <p className="playground-meta">
              {result.request_human && (
                <span className="badge badge-warn">The agent asked for a person</span>
              )}
              <span>Status {result.status}</span>
              <span>{formatInteger(result.usage.totalTokens)} tokens</span>
              <span>{credits.format(result.usage.cost)} credits</span>
              {result.model && <span>Answered by {result.model}</span>}
            </p>
          </>
        )}
      </div>
    </li>
  );
}

/**
 * /agents/:agentId/playground: ask the agent as a customer would. Answers stream in (the query
 * endpoint's SSE) and are stored like any other conversation, on the `dashboard` channel.
 */
export function PlaygroundPage() {
  const agent = useAgentOfPage();
  const { canWrite } = useSession();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const controller = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const streaming = turns.some((turn) => turn.status === "streaming");

  useEffect(() => () => controller.current?.abort(), []);

  const change = (id: number, patch: (turn: Turn) => Partial<Turn>) =>
    setTurns((current) =>
      current.map((turn) => (turn.id === id ? { ...turn, ...patch(turn) } : turn)),
    );

  const ask = async (question: string) => {
    const id = nextId.current++;
    const abort = new AbortController();
    controller.current = abort;
    setTurns((current) => [
      ...current,
      { id, question, answer: "", status: "streaming", result: null, error: null },
    ]);
    try {
      const result = await streamAnswer(
        agent.id,
        { query: question, ...(conversationId ? { conversationId } : {}) },
        (fragment) => change(id, (turn) => ({ answer: turn.answer + fragment })),
        abort.signal,
      );
      setConversationId(result.conversationId);
      change(id, () => ({ status: "done", result, answer: result.answer }));
    } catch (error) {
      if (abort.signal.aborted) return;
      change(id, () => ({ status: "failed", error }));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const question = message.trim();
    if (!question || streaming) return;
    setMessage("");
    void ask(question);
  };

  const sendOnEnter = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      event.currentTarget.form?.requestSubmit();
    }
  };

  const restart = () => {
    controller.current?.abort();
    setTurns([]);
    setConversationId(null);
  };

  return (
    <section className="playground" aria-labelledby="playground-title">
      <div className="agent-section-header">
        <div>
          <h2 className="agent-heading" id="playground-title">
            Playground
          </h2>
          <p className="muted">
            Ask as a customer would. Answers are charged and kept as conversations of the dashboard
            channel.
          </p>
        </div>
        <button
          type="button"
          className="button"
          onClick={restart}
          disabled={turns.length === 0 && !conversationId}
        >
          New conversation
        </button>
      </div>
      {conversationId && (
        <p className="playground-conversation">
          Conversation <code>{conversationId}</code> ·{" "}
          <Link to={`/conversations/${encodeURIComponent(conversationId)}?agentId=${agent.id}`}>
            Open in Conversations
          </Link>
        </p>
      )}
      <div
        className="playground-log"
        role="log"
        aria-label="Conversation with the agent"
        aria-busy={streaming}
      >
        {turns.length === 0 ? (
          <Empty title="No messages yet">
            <p>Your questions and the agent's answers, with their sources, appear here.</p>
          </Empty>
        ) : (
          <ol className="playground-turns">
            {turns.map((turn) => (
              <TurnView key={turn.id} turn={turn} agentName={agent.name} />
            ))}
          </ol>
        )}
      </div>
      <form className="playground-form" onSubmit={submit}>
        {!canWrite && (
          <p className="agent-notice">
            Viewers cannot ask agents: asking is charged to the organization. A member, admin or
            owner can.
          </p>
        )}
        <Field label="Message" hint="Enter sends; Shift+Enter starts a new line.">
          {(props) => (
            <textarea
              {...props}
              rows={3}
              required
              disabled={!canWrite}
              value={message}
              onChange={(event) => setMessage(event.target.value)}
              onKeyDown={sendOnEnter}
            />
          )}
        </Field>
        <div>
          <button
            type="submit"
            className="button button-primary"
            disabled={!canWrite || streaming || message.trim() === ""}
          >
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
