package dmem_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/engram-go/engram/dmem"
)

// A store whose file was damaged refuses to open with ErrCorrupt, naming
// the file and the damage; Salvage copies what is intact into a new store.
func ExampleSalvage() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "dmem-example-")
	defer os.RemoveAll(dir)
	m, _ := dmem.New(ctx, dmem.WithPath(dir))
	m.SaveContext(ctx, map[string]any{"input": "My sister Priya lives in Lisbon."}, map[string]any{"output": "Nice!"})
	m.Close()

	// Damage the file: cut it after bbolt's two meta pages.
	os.Truncate(filepath.Join(dir, "dmem.bolt"), 8<<10)

	if _, err := dmem.New(ctx, dmem.WithPath(dir)); errors.Is(err, dmem.ErrCorrupt) {
		fmt.Println("damaged")
		to := filepath.Join(dir, "salvaged")
		rep, err := dmem.Salvage(ctx, dir, to)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("units recovered:", rep.Units)
		m, err := dmem.New(ctx, dmem.WithPath(to))
		if err != nil {
			fmt.Println(err)
			return
		}
		defer m.Close()
		fmt.Println("salvaged; it opens")
	}
	// Output:
	// damaged
	// units recovered: 0
	// salvaged; it opens
}
