CREATE TABLE "knowledge_lexeme_statistics" (
	"datastore_id" text NOT NULL,
	"dimensions" smallint NOT NULL,
	"lexeme" text NOT NULL,
	"chunks" integer NOT NULL,
	CONSTRAINT "knowledge_lexeme_statistics_datastore_id_dimensions_lexeme_pk" PRIMARY KEY("datastore_id","dimensions","lexeme")
);
--> statement-breakpoint
CREATE TABLE "knowledge_text_totals" (
	"datastore_id" text NOT NULL,
	"dimensions" smallint NOT NULL,
	"chunks" integer NOT NULL,
	"positions" bigint NOT NULL,
	CONSTRAINT "knowledge_text_totals_datastore_id_dimensions_pk" PRIMARY KEY("datastore_id","dimensions")
);
--> statement-breakpoint
ALTER TABLE "knowledge_lexeme_statistics" ADD CONSTRAINT "knowledge_lexeme_statistics_datastore_id_datastores_id_fk" FOREIGN KEY ("datastore_id") REFERENCES "public"."datastores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_text_totals" ADD CONSTRAINT "knowledge_text_totals_datastore_id_datastores_id_fk" FOREIGN KEY ("datastore_id") REFERENCES "public"."datastores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- BM25 needs, per datastore and vector size, how many chunks contain each lexeme and the chunks'
-- lengths. The statistics start from the chunks already stored, then statement-level triggers
-- keep them in the transaction that changes the chunks, whichever code path runs it (ingestion,
-- deletion, foreign-key cascades). Each trigger first locks the datastores it touches in id
-- order, as the knowledge_version trigger (0010, which fires first) already does by updating
-- them: writers of one datastore take its statistics rows one after the other, never crosswise.
INSERT INTO knowledge_lexeme_statistics (datastore_id, dimensions, lexeme, chunks)
SELECT c.datastore_id, c.dimensions, u.lexeme, count(*)
FROM knowledge_chunks c, unnest(c.search) u
GROUP BY c.datastore_id, c.dimensions, u.lexeme;
--> statement-breakpoint
INSERT INTO knowledge_text_totals (datastore_id, dimensions, chunks, positions)
SELECT c.datastore_id, c.dimensions, count(*),
  coalesce(sum((SELECT sum(coalesce(array_length(u.positions, 1), 1)) FROM unnest(c.search) u)), 0)
FROM knowledge_chunks c
GROUP BY c.datastore_id, c.dimensions;
--> statement-breakpoint
CREATE FUNCTION knowledge_chunks_count_lexemes() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  stores text[];
  sizes smallint[];
  vectors tsvector[];
  signs integer[];
BEGIN
  -- The changes as signed rows: +1 for a chunk that appeared, -1 for one that went. An update
  -- that leaves the text, datastore and vector size alone (a chunk moved) changes nothing.
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.datastore_id), array_agg(n.dimensions), array_agg(n.search), array_agg(1)
    INTO stores, sizes, vectors, signs FROM new_chunks n;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.datastore_id), array_agg(o.dimensions), array_agg(o.search), array_agg(-1)
    INTO stores, sizes, vectors, signs FROM old_chunks o;
  ELSE
    SELECT array_agg(k.datastore_id), array_agg(k.dimensions), array_agg(k.search),
      array_agg(k.sign)
    INTO stores, sizes, vectors, signs
    FROM (
      SELECT n.datastore_id, n.dimensions, n.search, 1 AS sign
      FROM new_chunks n LEFT JOIN old_chunks o ON o.id = n.id
      WHERE o.id IS NULL OR o.search IS DISTINCT FROM n.search
        OR o.datastore_id <> n.datastore_id OR o.dimensions <> n.dimensions
      UNION ALL
      SELECT o.datastore_id, o.dimensions, o.search, -1
      FROM old_chunks o LEFT JOIN new_chunks n ON n.id = o.id
      WHERE n.id IS NULL OR o.search IS DISTINCT FROM n.search
        OR o.datastore_id <> n.datastore_id OR o.dimensions <> n.dimensions
    ) k;
  END IF;
  IF stores IS NULL THEN
    RETURN NULL;
  END IF;
  -- A datastore being deleted takes its statistics with it (foreign-key cascade).
  PERFORM 1 FROM datastores d WHERE d.id = ANY (stores) ORDER BY d.id FOR NO KEY UPDATE;
  INSERT INTO knowledge_lexeme_statistics AS s (datastore_id, dimensions, lexeme, chunks)
  SELECT k.datastore_id, k.dimensions, u.lexeme, sum(k.sign)
  FROM unnest(stores, sizes, vectors, signs) AS k(datastore_id, dimensions, search, sign),
    unnest(k.search) u
  WHERE EXISTS (SELECT 1 FROM datastores d WHERE d.id = k.datastore_id)
  GROUP BY k.datastore_id, k.dimensions, u.lexeme
  HAVING sum(k.sign) <> 0
  ORDER BY k.datastore_id, k.dimensions, u.lexeme
  ON CONFLICT (datastore_id, dimensions, lexeme) DO UPDATE SET chunks = s.chunks + excluded.chunks;
  IF -1 = ANY (signs) THEN
    DELETE FROM knowledge_lexeme_statistics s
    USING (
      SELECT DISTINCT k.datastore_id, k.dimensions, u.lexeme
      FROM unnest(stores, sizes, vectors, signs) AS k(datastore_id, dimensions, search, sign),
        unnest(k.search) u
      WHERE k.sign < 0
    ) g
    WHERE s.datastore_id = g.datastore_id AND s.dimensions = g.dimensions
      AND s.lexeme = g.lexeme AND s.chunks <= 0;
  END IF;
  INSERT INTO knowledge_text_totals AS t (datastore_id, dimensions, chunks, positions)
  SELECT k.datastore_id, k.dimensions, sum(k.sign),
    sum(k.sign * (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)
                  FROM unnest(k.search) u))
  FROM unnest(stores, sizes, vectors, signs) AS k(datastore_id, dimensions, search, sign)
  WHERE EXISTS (SELECT 1 FROM datastores d WHERE d.id = k.datastore_id)
  GROUP BY k.datastore_id, k.dimensions
  ORDER BY k.datastore_id, k.dimensions
  ON CONFLICT (datastore_id, dimensions) DO UPDATE
    SET chunks = t.chunks + excluded.chunks, positions = t.positions + excluded.positions;
  DELETE FROM knowledge_text_totals t
  WHERE t.datastore_id = ANY (stores) AND t.chunks <= 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_inserted_text_statistics AFTER INSERT ON knowledge_chunks
  REFERENCING NEW TABLE AS new_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_count_lexemes();
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_updated_text_statistics AFTER UPDATE ON knowledge_chunks
  REFERENCING OLD TABLE AS old_chunks NEW TABLE AS new_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_count_lexemes();
--> statement-breakpoint
CREATE TRIGGER knowledge_chunks_deleted_text_statistics AFTER DELETE ON knowledge_chunks
  REFERENCING OLD TABLE AS old_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_count_lexemes();
