package dataset

import "errors"

var (
	// ErrFormat reports input that is not LoCoMo-shaped JSON: not an array,
	// a session without its date-time, a turn without a dia_id, a category
	// outside 1..5, or a Sample that cannot be written back in the format.
	ErrFormat = errors.New("dataset: malformed LoCoMo data")

	// ErrDuplicateTurn reports two turns of one sample sharing a dia_id.
	// Errors carrying it also match ErrFormat.
	ErrDuplicateTurn = errors.New("dataset: duplicated dia_id")

	// ErrDanglingEvidence is returned by Sample.Validate when a question
	// cites a dia_id that no turn carries. Read accepts such data, because
	// published LoCoMo files contain a few; see Sample.Evidence.
	ErrDanglingEvidence = errors.New("dataset: evidence cites an unknown dia_id")

	// ErrInvalidConfig reports a GenConfig that Generate cannot honour.
	ErrInvalidConfig = errors.New("dataset: invalid generator config")
)
