package pgstore

// Option configures [Open].
type Option func(*options)

type options struct {
	exact bool
}

// WithExactSearch makes the store search by the exact scan over the
// stored embeddings even where the pgvector extension is available, and leaves the
// extension alone. Default: pgvector when the server offers it.
func WithExactSearch() Option { return func(o *options) { o.exact = true } }
