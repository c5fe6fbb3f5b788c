package relevance

// dotRows writes into out[r] the product [Dot] gives of q with row r, the
// len(q) components of rows from r·stride: a whole scan of a corpus's
// embeddings in one call. It gives Dot's bits: on processors with AVX2 and
// FMA it sums in Dot's order (four accumulators of eight lanes over blocks
// of 32, then the rest one by one), else it calls Dot a row. A call a row
// cost about as much as the products themselves at 100 dimensions.
func dotRows(q, rows []float32, stride int, out []float64) {
	dim := len(q)
	if len(out) == 0 {
		return
	}
	if dim == 0 {
		clear(out)
		return
	}
	_ = rows[(len(out)-1)*stride+dim-1]
	if !dotsInOneCall {
		for r := range out {
			out[r] = Dot(rows[r*stride:r*stride+dim], q)
		}
		return
	}
	dotRowsAVX2(&q[0], &rows[0], dim, stride, len(out), &out[0])
}

// largest returns the largest of xs and 0, comparing four at a time: the
// builtin max's care for NaN and signed zeros made a scan of relevance
// scores several times slower, and scores are never NaN.
func largest(xs []float64) float64 {
	var m0, m1, m2, m3 float64
	i := 0
	for ; i+4 <= len(xs); i += 4 {
		if x := xs[i]; x > m0 {
			m0 = x
		}
		if x := xs[i+1]; x > m1 {
			m1 = x
		}
		if x := xs[i+2]; x > m2 {
			m2 = x
		}
		if x := xs[i+3]; x > m3 {
			m3 = x
		}
	}
	for ; i < len(xs); i++ {
		if x := xs[i]; x > m0 {
			m0 = x
		}
	}
	if m1 > m0 {
		m0 = m1
	}
	if m3 > m2 {
		m2 = m3
	}
	if m2 > m0 {
		m0 = m2
	}
	return m0
}

// floor raises each cosine to at least 1e-12, where 0 means "not yet
// taken".
func floor(cos []float64) {
	for i, x := range cos {
		cos[i] = max(1e-12, x)
	}
}
