-- billing_reserve returns one row, but a set-returning function is estimated at 1,000 by
-- default. The statement that reserves an answer's credits and reads its datastores also turns
-- the question into lexemes (to_tsvector of a parameter): per row in a generic plan, folded
-- into a constant in a custom one, so PostgreSQL's plan cache judged the generic plan 4x
-- dearer and planned the statement again at every execution. Bind took 0.25-0.55 ms of the
-- ~0.7 ms the statement held the server per agent query; with the estimate right the statement
-- keeps its generic plan and the round trip drops from 420-540 to 275-320 microseconds.
ALTER FUNCTION billing_reserve(text, text, bigint, boolean, timestamptz, timestamptz) ROWS 1;
