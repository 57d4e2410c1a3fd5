import type { UseInfiniteQueryResult } from "@tanstack/react-query";
import { ErrorNotice } from "./states.tsx";

/**
 * The end of a list read page by page: **Load more** while the API has another page, and the
 * error of a failed page with a retry (of that page, or of the whole list).
 */
export function LoadMore({ list }: { list: UseInfiniteQueryResult }) {
  return (
    <>
      {list.hasNextPage && (
        <p className="load-more">
          <button
            type="button"
            className="button"
            disabled={list.isFetchingNextPage}
            onClick={() => list.fetchNextPage()}
          >
            {list.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        </p>
      )}
      {list.isError && (
        <ErrorNotice
          error={list.error}
          retry={() => (list.isFetchNextPageError ? list.fetchNextPage() : list.refetch())}
        />
      )}
    </>
  );
}
