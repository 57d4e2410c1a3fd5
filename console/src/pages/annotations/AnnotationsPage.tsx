import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { formatDateTime } from "../../ui/format.ts";
import { ConfirmButton, FormError, PageHeader } from "../../ui/forms.tsx";
import { LoadMore } from "../../ui/load-more.tsx";
import { Empty, ErrorNotice, Loading } from "../../ui/states.tsx";
import {
  type Annotation,
  type AnnotationPage,
  type AnnotationQuery,
  annotationKeys,
  fetchAnnotationPage,
  messagePath,
  SENTIMENT_LABELS,
  sentimentBadge,
  sentimentLabel,
} from "./annotations-api.ts";

/** The filters, as the address holds them (shareable, and the back button restores them). */
function useFilters() {
  const [search, setSearch] = useSearchParams();
  const filters = {
    status: search.get("status") ?? "",
    sentiment: search.get("sentiment") ?? "",
    tag: search.get("tag") ?? "",
  };
  const set = (name: keyof typeof filters, value: string) => {
    const next = new URLSearchParams(search);
    if (value) next.set(name, value);
    else next.delete(name);
    setSearch(next);
  };
  return { filters, set };
}

const excerpt = (text: string, length = 60) =>
  text.length > length ? `${text.slice(0, length).trimEnd()}…` : text;

/** The annotated message, read when asked for (the list does not carry it). */
function MessageCell({ annotation }: { annotation: Annotation }) {
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: annotationKeys.detail(annotation.id),
    queryFn: () =>
      unwrap(api.GET("/api/annotations/{id}", { params: { path: { id: annotation.id } } })),
    enabled: open,
  });
  return (
    <div className="annotation-message">
      <Link to={messagePath(annotation)}>Open in conversation</Link>
      <button
        type="button"
        className="button button-quiet button-small"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {open ? "Hide message" : "Show message"}
      </button>
      {open &&
        (detail.isPending ? (
          <Loading label="Loading the message…" />
        ) : detail.isError ? (
          <ErrorNotice error={detail.error} retry={() => detail.refetch()} />
        ) : (
          <p className="annotation-message-text">{detail.data.message.content}</p>
        ))}
    </div>
  );
}

function StatusCell({
  annotation,
  statuses,
  canWrite,
  onChanged,
}: {
  annotation: Annotation;
  statuses: string[];
  canWrite: boolean;
  onChanged: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (status: string) =>
      unwrap(
        api.PATCH("/api/annotations/{id}", {
          params: { path: { id: annotation.id } },
          body: { status },
        }),
      ),
    onSuccess: (updated) => {
      // The row shows its new status at once; the list is read again for the filters.
      queryClient.setQueriesData<InfiniteData<AnnotationPage>>(
        { queryKey: annotationKeys.lists },
        (data) =>
          data && {
            ...data,
            pages: data.pages.map((page) => ({
              ...page,
              items: page.items.map((item) => (item.id === updated.id ? updated : item)),
            })),
          },
      );
      onChanged(`Status changed to ${updated.status}.`);
      void queryClient.invalidateQueries({ queryKey: annotationKeys.all });
    },
  });
  if (!canWrite) return <span className="badge">{annotation.status}</span>;
  // A status that left the organization's list still shows as what the annotation has.
  const options = statuses.includes(annotation.status)
    ? statuses
    : [annotation.status, ...statuses];
  return (
    <>
      <select
        aria-label={`Status of the rating "${excerpt(annotation.comment, 40)}"`}
        value={annotation.status}
        disabled={update.isPending}
        onChange={(event) => update.mutate(event.target.value)}
      >
        {options.map((status) => (
          <option key={status} value={status}>
            {status}
          </option>
        ))}
      </select>
      <FormError error={update.error} />
    </>
  );
}

function DeleteCell({
  annotation,
  onDeleted,
}: {
  annotation: Annotation;
  onDeleted: (text: string) => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE("/api/annotations/{id}", { params: { path: { id: annotation.id } } })),
    onSuccess: async () => {
      onDeleted("The rating was deleted.");
      await queryClient.invalidateQueries({ queryKey: annotationKeys.all });
    },
  });
  return (
    <>
      <ConfirmButton
        label="Delete"
        title="Delete this rating?"
        description={
          <p>
            The rating “{excerpt(annotation.comment)}” and its tags are removed. The answer can be
            rated again from its conversation.
          </p>
        }
        confirmLabel="Delete rating"
        disabled={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      <FormError error={remove.error} />
    </>
  );
}

/** The review queue: every rating of an AI answer, newest first, with its status workflow. */
export function AnnotationsPage() {
  const session = useSession();
  const { filters, set } = useFilters();
  const [notice, setNotice] = useState("");
  const query: AnnotationQuery = {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.sentiment ? { sentiment: filters.sentiment } : {}),
  };
  const list = useInfiniteQuery({
    queryKey: annotationKeys.list(query),
    queryFn: ({ pageParam }) => fetchAnnotationPage(query, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextCursor,
  });
  const statuses = useQuery({
    queryKey: annotationKeys.statuses,
    queryFn: () => unwrap(api.GET("/api/annotation-statuses")),
    staleTime: 60_000,
  });

  const loaded = list.data?.pages.flatMap((page) => page.items) ?? [];
  // The API lists by status and sentiment; tags filter the annotations loaded so far.
  const tagNames = [...new Set(loaded.flatMap((item) => item.tags.map(({ tag }) => tag.name)))]
    .concat(
      filters.tag && !loaded.some((item) => item.tags.some(({ tag }) => tag.name === filters.tag))
        ? [filters.tag]
        : [],
    )
    .sort((a, b) => a.localeCompare(b));
  const shown = filters.tag
    ? loaded.filter((item) => item.tags.some(({ tag }) => tag.name === filters.tag))
    : loaded;
  const statusOptions = statuses.data?.statuses ?? [];
  const filtered = Boolean(filters.status || filters.sentiment || filters.tag);

  return (
    <>
      <PageHeader
        title="Annotations"
        description="Reviewers' ratings of the agents' answers, newest first. Rate an answer from its conversation."
      />
      <form className="toolbar" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="annotations-status">Status</label>
          <select
            id="annotations-status"
            value={filters.status}
            onChange={(event) => set("status", event.target.value)}
          >
            <option value="">Any status</option>
            {(statusOptions.includes(filters.status) || !filters.status
              ? statusOptions
              : [filters.status, ...statusOptions]
            ).map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="annotations-sentiment">Sentiment</label>
          <select
            id="annotations-sentiment"
            value={filters.sentiment}
            onChange={(event) => set("sentiment", event.target.value)}
          >
            <option value="">Any sentiment</option>
            {Object.entries(SENTIMENT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="annotations-tag">Tag</label>
          <select
            id="annotations-tag"
            value={filters.tag}
            aria-describedby="annotations-tag-hint"
            onChange={(event) => set("tag", event.target.value)}
          >
            <option value="">Any tag</option>
            {tagNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <p className="field-hint toolbar-hint" id="annotations-tag-hint">
          The tag filter applies to the annotations loaded below; Load more reads further pages.
        </p>
      </form>
      {statuses.isError && <ErrorNotice error={statuses.error} retry={() => statuses.refetch()} />}
      <p role="status" className="action-status">
        {notice}
      </p>
      {list.isPending ? (
        <Loading label="Loading annotations…" />
      ) : !list.data ? (
        <ErrorNotice error={list.error} retry={() => list.refetch()} />
      ) : shown.length === 0 && !list.hasNextPage ? (
        filtered ? (
          <Empty title="No annotation matches these filters">
            <p>Choose another status, sentiment or tag.</p>
          </Empty>
        ) : (
          <Empty title="No annotations yet">
            <p>
              Open a conversation in <Link to="/conversations">Conversations</Link> and rate an
              answer of the AI: the rating shows up here for review.
            </p>
          </Empty>
        )
      ) : (
        <>
          <div className="table-wrap">
            <table className="annotations-table">
              <caption className="visually-hidden">
                Annotations{filtered ? " matching the filters" : ""}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Message</th>
                  <th scope="col">Sentiment</th>
                  <th scope="col">Comment</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Status</th>
                  <th scope="col">Reviewer</th>
                  <th scope="col">Date</th>
                  {session.canWrite && (
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {shown.map((annotation) => (
                  <tr key={annotation.id}>
                    <td>
                      <MessageCell annotation={annotation} />
                    </td>
                    <td>
                      <span className={sentimentBadge(annotation.sentiment)}>
                        {sentimentLabel(annotation.sentiment)}
                      </span>
                    </td>
                    <td className="annotation-comment">{annotation.comment}</td>
                    <td>
                      {annotation.tags.length === 0 ? (
                        <span className="muted">None</span>
                      ) : (
                        <ul className="tag-list">
                          {annotation.tags.map(({ tag }) => (
                            <li key={tag.id} className="badge badge-info">
                              {tag.name}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                    <td>
                      <StatusCell
                        annotation={annotation}
                        statuses={statusOptions}
                        canWrite={session.canWrite}
                        onChanged={setNotice}
                      />
                    </td>
                    <td className="break">{annotation.createdBy?.email ?? "Anonymous"}</td>
                    <td>
                      <time dateTime={annotation.createdAt}>
                        {formatDateTime(annotation.createdAt)}
                      </time>
                    </td>
                    {session.canWrite && (
                      <td>
                        <DeleteCell annotation={annotation} onDeleted={setNotice} />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {shown.length === 0 && <p className="muted">No loaded annotation has this tag yet.</p>}
          <LoadMore list={list} />
        </>
      )}
    </>
  );
}
