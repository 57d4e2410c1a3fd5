-- HNSW (cosine) over the chunks of the default embedder's 512 dimensions, only where pgvector is
-- installed; elsewhere chunks are scored exactly over the real[] column. Other dimension counts
-- get the same partial index when a datastore first uses them (src/domain/knowledge).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS knowledge_chunks_embedding_512_idx ON knowledge_chunks '
      'USING hnsw ((embedding::vector(512)) vector_cosine_ops) WHERE dimensions = 512';
  END IF;
END $$;
