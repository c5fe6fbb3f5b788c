package eval

import (
	"context"
	"io"
	"log"
	"os"
	"testing"

	"github.com/engram-go/engram/internal/dataset"
)

func TestQuick(t *testing.T) {
	log.SetOutput(io.Discard)
	cfg := dataset.DefaultGenConfig()
	cfg.Samples = 3
	ss, err := dataset.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := Select(All(), os.Getenv("MEMS"))
	rs, err := Run(context.Background(), ss, Config{Budgets: []int{1024, 2048, 4096}, Memories: ms})
	if err != nil {
		t.Fatal(err)
	}
	WriteTable(os.Stdout, rs)
}
