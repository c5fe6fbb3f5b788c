package langchaingo_test

import (
	"context"
	"testing"

	"github.com/engram-go/engram/dmem"
	"github.com/engram-go/engram/ratedistortion"
	"github.com/tmc/langchaingo/schema"
)

// memories are the backends every test runs against; add one per line.
var memories = []struct {
	name string
	new  func(t testing.TB) schema.Memory
}{
	{"ratedistortion", func(t testing.TB) schema.Memory { return must[*ratedistortion.Buffer](t)(ratedistortion.New()) }},
	{"dmem", func(t testing.TB) schema.Memory { return must[*dmem.Memory](t)(dmem.New(context.Background())) }},
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
