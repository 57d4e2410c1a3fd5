import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { FormError } from "../../ui/forms.tsx";
import { ErrorNotice, Loading } from "../../ui/states.tsx";
import {
  type Annotation,
  annotationKeys,
  type Sentiment,
  sentimentBadge,
  sentimentLabel,
  useAnnotationTags,
} from "../annotations/annotations-api.ts";

/** An answer's rating as stored: sentiment, comment, tags and where the review stands. */
export function RatingSummary({ annotation }: { annotation: Annotation }) {
  return (
    <div className="rating-summary">
      <span className={sentimentBadge(annotation.sentiment)}>
        Rated {sentimentLabel(annotation.sentiment).toLowerCase()}
      </span>{" "}
      <span className="badge">Review: {annotation.status}</span>
      {annotation.tags.length > 0 && (
        <ul className="tag-list" aria-label="Tags">
          {annotation.tags.map(({ tag }) => (
            <li key={tag.id} className="badge badge-info">
              {tag.name}
            </li>
          ))}
        </ul>
      )}
      <p className="rating-comment">{annotation.comment}</p>
      <p className="muted rating-author">
        {annotation.createdBy?.email ? `By ${annotation.createdBy.email}` : "Anonymous"}
      </p>
    </div>
  );
}

/**
 * The form that rates one AI answer (POST /api/annotations: one annotation per message, so a
 * second save updates the first). The tags are read when the form opens.
 */
export function RateForm({
  messageId,
  existing,
  onDone,
}: {
  messageId: string;
  existing: Annotation | undefined;
  onDone: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const tags = useAnnotationTags();
  const [sentiment, setSentiment] = useState<Sentiment | null>(
    existing ? ((existing.sentiment.toLowerCase() === "bad" ? "bad" : "good") as Sentiment) : null,
  );
  const [comment, setComment] = useState(existing?.comment ?? "");
  const [tagIds, setTagIds] = useState<string[]>(existing?.tags.map(({ tag }) => tag.id) ?? []);
  const [newTag, setNewTag] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const firstChoice = useRef<HTMLInputElement>(null);
  useEffect(() => firstChoice.current?.focus(), []);

  const save = useMutation({
    mutationFn: (body: { sentiment: Sentiment; comment: string; tagIds: string[] }) =>
      unwrap(api.POST("/api/annotations", { body: { messageId, ...body } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: annotationKeys.all });
      onDone();
    },
  });
  const addTag = useMutation({
    mutationFn: (name: string) => unwrap(api.POST("/api/annotation-tags", { body: { name } })),
    onSuccess: async (tag) => {
      setNewTag("");
      setTagIds((ids) => [...ids, tag.id]);
      await queryClient.invalidateQueries({ queryKey: annotationKeys.tags });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!sentiment) return setProblem("Choose whether the answer was good or bad.");
    if (!comment.trim()) return setProblem("Write a comment: what was good or wrong in it.");
    setProblem(null);
    save.mutate({ sentiment, comment: comment.trim(), tagIds });
  };

  return (
    <form className="rate-form" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
      <p className="rate-title" id={`${id}-title`}>
        Rate this answer
      </p>
      <fieldset className="fieldset">
        <legend>Sentiment</legend>
        <div className="choice-row">
          {(["good", "bad"] as const).map((value) => (
            <label key={value} className="choice">
              <input
                ref={value === "good" ? firstChoice : undefined}
                type="radio"
                name={`${id}-sentiment`}
                value={value}
                checked={sentiment === value}
                onChange={() => setSentiment(value)}
              />
              {sentimentLabel(value)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-comment`}>Comment</label>
        <textarea
          id={`${id}-comment`}
          value={comment}
          maxLength={10_000}
          onChange={(event) => setComment(event.target.value)}
        />
      </div>
      <fieldset className="fieldset">
        <legend>Tags</legend>
        {tags.isPending ? (
          <Loading label="Loading tags…" />
        ) : tags.isError ? (
          <ErrorNotice error={tags.error} retry={() => tags.refetch()} />
        ) : tags.data.length === 0 ? (
          <p className="muted">No tags yet. Add the first one below.</p>
        ) : (
          <div className="choice-row">
            {tags.data.map((tag) => (
              <label key={tag.id} className="choice">
                <input
                  type="checkbox"
                  checked={tagIds.includes(tag.id)}
                  onChange={(event) =>
                    setTagIds((ids) =>
                      event.target.checked ? [...ids, tag.id] : ids.filter((one) => one !== tag.id),
                    )
                  }
                />
                {tag.name}
              </label>
            ))}
          </div>
        )}
        <div className="new-tag">
          <label htmlFor={`${id}-new-tag`}>New tag</label>
          <input
            id={`${id}-new-tag`}
            value={newTag}
            maxLength={100}
            onChange={(event) => setNewTag(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                if (newTag.trim()) addTag.mutate(newTag.trim());
              }
            }}
          />
          <button
            type="button"
            className="button"
            disabled={!newTag.trim() || addTag.isPending}
            onClick={() => addTag.mutate(newTag.trim())}
          >
            Add tag
          </button>
        </div>
        <FormError error={addTag.error} />
      </fieldset>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      <FormError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="button button-primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save rating"}
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
