import { useId, useRef, useState } from "react";
import { formatDateTime } from "../../ui/format.ts";
import type { Annotation } from "../annotations/annotations-api.ts";
import type { Message } from "./conversations-api.ts";
import { RateForm, RatingSummary } from "./RateAnswer.tsx";

const DELIVERY_LABELS = {
  queued: ["Queued", "badge badge-info"],
  sent: ["Sent", "badge badge-ok"],
  delivered: ["Delivered", "badge badge-ok"],
  read: ["Read", "badge badge-ok"],
  failed: ["Not delivered", "badge badge-danger"],
} as const;

type Source = Message["sources"][number];

/** A passage's document: the datasource's name when the service kept it, else the source. */
const sourceName = (source: Source) =>
  typeof source.datasourceName === "string" && source.datasourceName
    ? source.datasourceName
    : source.source;

const isWebAddress = (text: string) => /^https?:\/\//i.test(text);

/** Who wrote a message: the customer, an operator (the `user` of a reply) or the AI. */
export function authorOf(message: Message, customer: string, agentName: string | null) {
  if (message.from === "human") return { kind: "customer", label: customer } as const;
  if (message.user) {
    const name = message.user.name || message.user.email || "An operator";
    return { kind: "operator", label: `${name} (operator)` } as const;
  }
  return { kind: "ai", label: agentName ? `AI (${agentName})` : "AI" } as const;
}

function Sources({ sources }: { sources: Source[] }) {
  const id = useId();
  return (
    <div className="message-sources">
      <p className="message-sources-title" id={id}>
        Sources
      </p>
      <ul aria-labelledby={id}>
        {sources.map((source, index) => (
          // Two passages of one document share a name: the position tells them apart.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          <li key={index}>
            <details>
              <summary>{sourceName(source)}</summary>
              {isWebAddress(source.source) && (
                <a href={source.source} target="_blank" rel="noreferrer noopener">
                  {source.source}
                </a>
              )}
              <p className="source-chunk">{source.chunk}</p>
            </details>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function MessageItem({
  message,
  author,
  annotation,
  canRate,
  highlighted,
}: {
  message: Message;
  author: ReturnType<typeof authorOf>;
  annotation: Annotation | undefined;
  canRate: boolean;
  highlighted: boolean;
}) {
  const [rating, setRating] = useState(false);
  const rateButton = useRef<HTMLButtonElement>(null);
  const closeRating = () => {
    setRating(false);
    // Back to the button that opened the form, once it is drawn again.
    requestAnimationFrame(() => rateButton.current?.focus());
  };
  const isAnswer = author.kind === "ai" && !message.isDraft;
  const delivery = message.delivery ? DELIVERY_LABELS[message.delivery.status] : null;
  return (
    <li
      id={`message-${message.id}`}
      tabIndex={-1}
      className={`message message-${author.kind}${highlighted ? " message-highlighted" : ""}`}
    >
      <div className="message-meta">
        <span className="message-author">{author.label}</span>
        <time dateTime={message.createdAt}>{formatDateTime(message.createdAt)}</time>
        {message.isDraft && (
          <span className="badge badge-warn" title="Kept for operators, never sent">
            Draft, not sent
          </span>
        )}
        {delivery && message.delivery && (
          <span className={delivery[1]}>
            <span className="visually-hidden">Delivery: </span>
            {delivery[0]}
          </span>
        )}
      </div>
      <p className="message-text">{message.text}</p>
      {message.delivery?.error && (
        <p className="message-error">Delivery failed: {message.delivery.error}</p>
      )}
      {message.attachments.length > 0 && (
        <ul className="message-attachments" aria-label="Attachments">
          {message.attachments
            .filter((attachment) => isWebAddress(attachment.url))
            .map((attachment) => (
              <li key={attachment.url}>
                <a href={attachment.url} target="_blank" rel="noreferrer noopener">
                  {attachment.url}
                </a>
              </li>
            ))}
        </ul>
      )}
      {message.sources.length > 0 && <Sources sources={message.sources} />}
      {isAnswer && annotation && <RatingSummary annotation={annotation} />}
      {isAnswer && canRate && (
        <div className="message-rate">
          {rating ? (
            <RateForm messageId={message.id} existing={annotation} onDone={closeRating} />
          ) : (
            <button
              ref={rateButton}
              type="button"
              className="button"
              onClick={() => setRating(true)}
            >
              {annotation ? "Change rating" : "Rate"}
            </button>
          )}
        </div>
      )}
    </li>
  );
}
