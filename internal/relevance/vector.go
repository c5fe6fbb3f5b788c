package relevance

// Vector is a stored embedding in the form that is fastest to score against
// a dense query: sparse when most components are zero (the offline
// embedder's hashed vectors are), dense otherwise.
type Vector struct {
	dim   int
	dense []float32
	idx   []int32
	val   []float32
}

// Compress returns v as a Vector, sparse if fewer than half of its
// components are non-zero, and some are: a zero vector (a text of no word
// the embedder knows) stays dense, a row of zeros beside its neighbours'
// in a memory's matrix. v is not copied when kept dense.
func Compress(v []float32) Vector {
	nnz := 0
	for _, x := range v {
		if x != 0 {
			nnz++
		}
	}
	if nnz*2 >= len(v) || nnz == 0 {
		return Vector{dim: len(v), dense: v}
	}
	s := Vector{dim: len(v), idx: make([]int32, 0, nnz), val: make([]float32, 0, nnz)}
	for i, x := range v {
		if x != 0 {
			s.idx = append(s.idx, int32(i))
			s.val = append(s.val, x)
		}
	}
	return s
}

// DenseOrNil returns v's components if it is stored dense, nil if sparse.
func (v Vector) DenseOrNil() []float32 { return v.dense }

// Len returns the vector's dimension.
func (v Vector) Len() int { return v.dim }

// Dot returns the dot product with a dense vector q of the same dimension;
// 0 if the dimensions differ.
func (v Vector) Dot(q []float32) float64 {
	if len(q) != v.dim {
		return 0
	}
	if v.idx == nil {
		return Dot(v.dense, q)
	}
	var s float32
	for k, i := range v.idx {
		s += v.val[k] * q[i]
	}
	return float64(s)
}

// Dense returns v as a dense Vector without looking at it: for a vector
// scored once, compressing it costs more than it saves. v is not copied.
func Dense(v []float32) Vector { return Vector{dim: len(v), dense: v} }
