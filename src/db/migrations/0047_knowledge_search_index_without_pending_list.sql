-- The full-text index of chunks took new entries into GIN's pending list (fastupdate, on by
-- default), which the inserting statement itself merges into the index once the list passes
-- gin_pending_list_limit (4 MB). The embedded database has no autovacuum to do it earlier, so a
-- large document's ingestion met a chunk insert of 0.8 s now and then, with every request of the
-- process waiting on it (PGlite runs in the service's thread), and searches read the unsorted
-- list meanwhile. Entries now go into the index as they are inserted; what is pending is merged.
ALTER INDEX "knowledge_chunks_search_idx" SET (fastupdate = off);
--> statement-breakpoint
SELECT gin_clean_pending_list('knowledge_chunks_search_idx');
