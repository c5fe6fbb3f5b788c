-- D-MEM's record: one row per namespace, and per namespace the stored
-- units, the eviction log and the term counts. Every key starts with the
-- namespace.
CREATE TABLE dmem_namespaces (
	id       bigserial PRIMARY KEY,
	usr      text   NOT NULL,
	agent    text   NOT NULL,
	session  text   NOT NULL,
	next_seq bigint NOT NULL DEFAULT 0,
	state    bytea,
	UNIQUE (usr, agent, session)
);

CREATE TABLE dmem_units (
	ns        bigint           NOT NULL REFERENCES dmem_namespaces (id),
	seq       bigint           NOT NULL,
	route     smallint         NOT NULL,
	log_p     double precision NOT NULL,
	delta     double precision NOT NULL,
	gate      double precision NOT NULL,
	novelty   double precision NOT NULL,
	reward    double precision NOT NULL,
	embedding real[]           NOT NULL,
	data      bytea            NOT NULL,
	PRIMARY KEY (ns, seq)
);
-- Eviction walks a namespace's core units by priority.
CREATE INDEX dmem_units_priority ON dmem_units (ns, route, log_p, seq);
-- The exact scan reads every embedding of a namespace: keep them in the row
-- (TOAST would move them out of line once a row passes 2 kB).
ALTER TABLE dmem_units ALTER COLUMN embedding SET STORAGE MAIN;

CREATE TABLE dmem_log (
	ns        bigint           NOT NULL REFERENCES dmem_namespaces (id),
	seq       bigint           NOT NULL,
	route     smallint         NOT NULL,
	log_p     double precision NOT NULL,
	delta     double precision NOT NULL,
	gate      double precision NOT NULL,
	novelty   double precision NOT NULL,
	reward    double precision NOT NULL,
	data      bytea            NOT NULL,
	logged_at timestamptz      NOT NULL DEFAULT now(),
	PRIMARY KEY (ns, seq)
);

CREATE TABLE dmem_terms (
	ns   bigint NOT NULL REFERENCES dmem_namespaces (id),
	term text   NOT NULL,
	n    bigint NOT NULL,
	PRIMARY KEY (ns, term)
);
