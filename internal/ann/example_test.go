package ann_test

import (
	"fmt"

	"github.com/engram-go/engram/internal/ann"
)

func Example() {
	// The caller holds the float32 vectors, one per row; the index takes an
	// int8 copy and borrows the rows back for the exact re-rank.
	rows := [][]float32{
		{1, 0, 0},
		{0.6, 0.8, 0},
		{0, 1, 0},
		{0, 0, 1},
	}
	ix := ann.New(3)
	for id, v := range rows {
		if err := ix.Add(int32(id), v); err != nil {
			fmt.Println(err)
		}
	}
	vectors := func(id int32) []float32 { return rows[id] }

	q := []float32{0.8, 0.6, 0}
	fmt.Println(ix.Search(q, 2, vectors, nil))

	// Row 0 is deleted and the caller compacts its rows: 1→0, 2→1, 3→2.
	rows = rows[1:]
	ix.Renumber(func(old int32) int32 { return old - 1 })
	fmt.Println(ix.Search(q, 2, vectors, nil), ix.Len())

	fmt.Println(ix.Add(9, []float32{1, 0}))
	// Output:
	// [1 0]
	// [0 1] 3
	// ann: add 9: 2 components, index has 3: vector length is not the index dimension
}
