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
	for i := range 40 {
		m.SaveContext(ctx, map[string]any{"input": fmt.Sprintf("Locker %d opens with code %d.", i, 4000+i)}, map[string]any{"output": "Noted."})
	}
	m.Close()

	// Damage the file: wipe bbolt's two meta pages, which say where
	// everything else is.
	f, _ := os.OpenFile(filepath.Join(dir, "dmem.bolt"), os.O_WRONLY, 0)
	f.WriteAt(make([]byte, 8<<10), 0)
	f.Close()

	if _, err := dmem.New(ctx, dmem.WithPath(dir)); errors.Is(err, dmem.ErrCorrupt) {
		fmt.Println("damaged")
		to := filepath.Join(dir, "salvaged")
		rep, err := dmem.Salvage(ctx, dir, to)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("units recovered:", rep.Units > 0)
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
	// units recovered: true
	// salvaged; it opens
}
