package ann

import "errors"

// Errors [Index.Add] returns, wrapped with the id; test with errors.Is.
var (
	// ErrDimension: the vector's length is not the index's dimension.
	ErrDimension = errors.New("vector length is not the index dimension")
	// ErrNotFinite: the vector holds a NaN or an infinity.
	ErrNotFinite = errors.New("vector is not finite")
	// ErrNegativeID: ids are row numbers, 0 or more; -1 is Renumber's "drop".
	ErrNegativeID = errors.New("negative id")
)
