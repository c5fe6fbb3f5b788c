-- Embeddings become bytea: each element a big-endian float4, as float4send
-- writes it. The exact scan reads every embedding of a namespace, and
-- array_send converting real[] element by element was most of its time
-- (about 17 µs a row at 512 dimensions); a bytea is only copied.
ALTER TABLE dmem_units ADD COLUMN embedding_bytes bytea;
UPDATE dmem_units SET embedding_bytes = COALESCE(
	(SELECT string_agg(float4send(e), ''::bytea ORDER BY i) FROM unnest(embedding) WITH ORDINALITY AS u (e, i)),
	''::bytea);
ALTER TABLE dmem_units DROP COLUMN embedding;
ALTER TABLE dmem_units RENAME COLUMN embedding_bytes TO embedding;
ALTER TABLE dmem_units ALTER COLUMN embedding SET NOT NULL;
-- Kept in the row, as before (TOAST would move it out of line).
ALTER TABLE dmem_units ALTER COLUMN embedding SET STORAGE MAIN;
