package pgstore

import "errors"

// MaxNamespaceBytes bounds a namespace in PostgreSQL: its user, agent and
// session together, in UTF-8 bytes. They are the key of a btree index,
// whose entries PostgreSQL caps at about 2.7 KB (a third of a page, less
// headers), and 2048 leaves room for them whatever the text. The embedded
// bbolt store takes namespaces up to bbolt's key limit, 32 KB.
const MaxNamespaceBytes = 2048

// ErrNamespaceTooLong reports a namespace over [MaxNamespaceBytes]. It is
// matched by errors.Is with engram.ErrInvalidInput too.
var ErrNamespaceTooLong = errors.New("pgstore: namespace too long")
