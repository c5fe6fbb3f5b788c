package store

import (
	"context"
	"errors"
	"testing"
)

func TestVisit(t *testing.T) {
	rs := []Record{{Seq: 1}, {Seq: 2}, {Seq: 3}}
	var seen []int64
	if err := Visit(context.Background(), rs, func(r Record) error { seen = append(seen, r.Seq); return nil }); err != nil || len(seen) != 3 || seen[2] != 3 {
		t.Fatalf("visited %v, %v; want 1, 2, 3 in order", seen, err)
	}
	stop := errors.New("stop")
	seen = nil
	if err := Visit(context.Background(), rs, func(r Record) error { seen = append(seen, r.Seq); return stop }); !errors.Is(err, stop) || len(seen) != 1 {
		t.Errorf("fn's error: visited %v, got %v; want one record and fn's error", seen, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	seen = nil
	err := Visit(ctx, rs, func(r Record) error { seen = append(seen, r.Seq); cancel(); return nil })
	if !errors.Is(err, context.Canceled) || len(seen) != 1 {
		t.Errorf("a context done after the first: visited %v, got %v", seen, err)
	}
}
