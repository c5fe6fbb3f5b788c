package boltstore

import (
	"bytes"

	"github.com/engram-go/engram"
	bolt "go.etcd.io/bbolt"
)

// What the external tests need of the file's layout and codec.
var (
	UnitsBucket, LogBucket, TermsBucket, MetaBucket = unitsBucket, logBucket, termsBucket, metaBucket
	StateKey                                        = stateKey
	EncodeRecord, DecodeRecord                      = encodeRecord, decodeRecord
)

const RecordVersion = recordVersion

// NamespaceBucket returns the bucket of ns in tx, nil if there is none.
func NamespaceBucket(tx *bolt.Tx, ns engram.Namespace) *bolt.Bucket {
	return tx.Bucket(rootBucket).Bucket(nsKey(ns))
}

// Page is a page of a store file's tree, with its overflow pages.
type Page struct {
	Start, End int64  // byte range
	Buckets    bool   // a leaf holding bucket entries: damage may rename a namespace
	Bytes      []byte // its contents
}

// Pages checks the store file b strictly and returns its page size, the
// bytes below its high-water mark, and the pages of its tree.
func Pages(b []byte) (pageSize, used int64, pages []Page, err error) {
	w, err := newWalker(bytes.NewReader(b), int64(len(b)), false)
	if err != nil {
		return 0, 0, nil, err
	}
	ps := w.meta.pageSize
	w.visit = func(id uint64, p []byte) {
		pg := Page{Start: int64(id) * ps, End: int64(id)*ps + int64(len(p)), Bytes: p}
		if ne.Uint16(p[8:]) == leafPageFlag {
			for i := range int(ne.Uint16(p[10:])) {
				if ne.Uint32(p[pageHeaderSize+i*elemSize:])&bucketLeafFlag != 0 {
					pg.Buckets = true
				}
			}
		}
		pages = append(pages, pg)
	}
	if err := w.check(); err != nil {
		return 0, 0, nil, err
	}
	return ps, int64(w.meta.hwm) * ps, pages, nil
}
