-- Keep each chunk's tsvector inside its row (compressed) and move the vector out of it. A
-- chunk's text, tsvector and vector together pass the 2 kB TOAST threshold, and PostgreSQL moved
-- the tsvector out of line: every full-text match then paid a TOAST lookup (1,425 chunks, ~7,000
-- buffer reads, 8 ms; inline, 2.4 ms). Vectors are read by HNSW builds and by copies taken for
-- exact scoring, never per full-text match, and do not compress. Chunks stored before this
-- migration keep their layout until they are written again (rewriting them here would re-insert
-- every one into the HNSW index at boot).
ALTER TABLE knowledge_chunks ALTER COLUMN search SET STORAGE MAIN;
--> statement-breakpoint
ALTER TABLE knowledge_chunks ALTER COLUMN embedding SET STORAGE EXTERNAL;
