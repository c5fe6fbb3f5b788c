package gate

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
)

// Serialised form, little-endian, version 1:
//
//	"EGAT" | version u8 | #features u8 | rate f64 | l2 f64 | seed u64 |
//	updates u64 | weights [#features]f64 | AdaGrad sums [#features]f64 |
//	PCG state length u8 | PCG state | CRC-32 (IEEE) of all before
//
// 383 bytes for the 20 features of version 1 (the PCG state is 20).
const (
	magic   = "EGAT"
	version = 1
)

// MarshalBinary returns the gate's whole state — weights, learning state
// and options — in a versioned format, so that a gate saved with its memory
// and loaded again learns on exactly as if it had never stopped.
func (g *Gate) MarshalBinary() ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var pcg []byte
	if g.pcg != nil {
		var err error
		if pcg, err = g.pcg.MarshalBinary(); err != nil {
			return nil, fmt.Errorf("gate: marshal: %w", err)
		}
	}
	o := g.opts
	if o.rate == 0 {
		o = defaults()
	}
	b := make([]byte, 0, 64+16*numFeatures+len(pcg))
	b = append(b, magic...)
	b = append(b, version, numFeatures)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(o.rate))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(o.l2))
	b = binary.LittleEndian.AppendUint64(b, o.seed)
	b = binary.LittleEndian.AppendUint64(b, g.updates)
	for _, v := range g.weights() {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	for _, v := range g.sq {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	b = append(b, byte(len(pcg)))
	b = append(b, pcg...)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b)), nil
}

// UnmarshalBinary replaces the gate's state with one MarshalBinary wrote.
// Data that is truncated, corrupt, out of range (a weight beyond ±1e3, a
// non-finite number) or of another version or
// feature layout gives [ErrFormat] and leaves the gate unchanged. The zero
// Gate may be unmarshalled into.
func (g *Gate) UnmarshalBinary(data []byte) error {
	bad := func(what string) error { return fmt.Errorf("gate: unmarshal: %s: %w", what, ErrFormat) }
	const fixed = len(magic) + 2 + 4*8 + 2*8*numFeatures + 1
	switch {
	case len(data) < len(magic)+2 || string(data[:len(magic)]) != magic:
		return bad("not a gate")
	case data[len(magic)] != version:
		return bad(fmt.Sprintf("version %d, want %d", data[len(magic)], version))
	case data[len(magic)+1] != numFeatures:
		return bad(fmt.Sprintf("%d features, want %d", data[len(magic)+1], numFeatures))
	case len(data) < fixed+4:
		return bad("truncated")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return bad("checksum mismatch")
	}
	p := body[len(magic)+2:]
	f64 := func() float64 { v := math.Float64frombits(binary.LittleEndian.Uint64(p)); p = p[8:]; return v }
	u64 := func() uint64 { v := binary.LittleEndian.Uint64(p); p = p[8:]; return v }
	o := options{rate: f64(), l2: f64(), seed: u64()}
	if err := o.validate(); err != nil {
		return bad("options")
	}
	updates := u64()
	var w, sq vector
	for i := range w {
		w[i] = f64()
	}
	for i := range sq {
		sq[i] = f64()
	}
	for i := range w {
		if !(math.Abs(w[i]) <= maxWeight) || !(sq[i] >= 0 && sq[i] <= maxSq) {
			return bad("weight out of range")
		}
	}
	n := int(p[0])
	p = p[1:]
	if len(p) != n {
		return bad("PCG state length")
	}
	var pcg *rand.PCG
	if n > 0 {
		pcg = new(rand.PCG)
		if err := pcg.UnmarshalBinary(p); err != nil {
			return bad("PCG state")
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opts, g.sq, g.updates, g.pcg = o, sq, updates, pcg
	if g.pcg == nil {
		g.pcg = rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15)
	}
	g.w.Store(&w)
	return nil
}
