package ratedistortion

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"unicode/utf8"

	"github.com/engram-go/engram"
	"github.com/engram-go/engram/embed"
	"github.com/engram-go/engram/internal/atomicfile"
	"github.com/engram-go/engram/internal/facts"
	"github.com/engram-go/engram/internal/memopts"
	"github.com/engram-go/engram/internal/memvars"
	"github.com/engram-go/engram/internal/relevance"
	"github.com/engram-go/engram/internal/text"
	"github.com/engram-go/engram/internal/wire"
	"github.com/tmc/langchaingo/llms"
)

// A saved buffer is
//
//	magic "ENGRAMRD" | version uint16 | body length uint64 | body | CRC-32C uint32
//
// little-endian, the checksum (Castagnoli) over everything before it. The
// body (version 4; version 3, still read, lacks what ratings taught,
// version 2 the units' facts too, and version 1 the tool calls' messages)
// is the line fingerprint, the counters, the tool-call groups, the pool's
// own units with their statistics, the units queued for the long-term
// tier, and what ratings taught (internal/credit's own form), in varints, length-prefixed strings and IEEE
// floats. What the buffer derives from its units (the lexical index, the
// word sets, the compressed vectors, the rendered lines) is not saved but
// rebuilt; neither is what the long-term tier holds (the recalled units,
// the guests), nor the last load.
const (
	magic         = "ENGRAMRD"
	formatVersion = 4
	headerLen     = len(magic) + 2 + 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// sameEmbedder is the cosine above which a text embedded again at Restore
// shows the embedder that embedded it: a remote model may not repeat
// itself to the last bit, and another model gives nothing near it.
const sameEmbedder = 0.99

// snapshot is what Save writes: the buffer's state, detached from it.
type snapshot struct {
	lines     string // linesFingerprint of the buffer that saved it
	seq       int64
	group     int64
	openHuman int64
	dropped   int
	toolGroup map[string]int64
	units     []savedUnit
	demoted   []engram.Demoted
	credit    []byte // what ratings taught (credit.Ledger.MarshalBinary); nil before version 4
}

// savedUnit is a unit of the pool with what the buffer learned of it.
type savedUnit struct {
	unit      engram.Unit
	retrieved int
	reward    float64
	toolIDs   []string
	call      *toolCall // a tool call's message; nil for other units and in version 1
}

// Save writes the buffer to w, so that [Restore] resumes it: every unit of
// the pool with its embedding, token count, flags (pins included), how
// often loads kept it and the rewards it earned; what ratings taught (see
// [Buffer.Reward]); the tool calls awaiting
// results; the sequence and group counters; and the units the cap let go
// that the long-term tier has not taken yet ([WithLongTerm]). Not saved:
// the units recalled from the long-term tier (it holds them), the last
// load (so [Buffer.Explain] starts afresh, and a rating after the restore
// rates no load), the options
// (Restore takes its own) and the gate ([option.WithGate]; the caller saves it).
//
// The buffer is copied under its lock, which is then released: Save is
// safe during saves and loads, and w may be slow. The format is versioned
// and checksummed (see [Restore]).
func (b *Buffer) Save(w io.Writer) error {
	if w == nil || memopts.NilPointer(w) {
		return fmt.Errorf("ratedistortion: save: nil writer: %w", engram.ErrInvalidInput)
	}
	s := b.snapshot()
	if _, err := w.Write(s.encode()); err != nil {
		return fmt.Errorf("ratedistortion: save: %w", err)
	}
	return nil
}

// SaveFile saves the buffer ([Buffer.Save]) to the file at path,
// atomically: it writes a temporary file beside it (path's name, ".tmp",
// digits), syncs it and renames it over path, so that a crash leaves the
// old file or the new one, never half of one. The temporary files a
// crashed SaveFile of path left behind are removed by the next SaveFile
// or [RestoreFile] of path; one that a running SaveFile, of this process
// or another, is writing is left alone (on Unix it holds a lock on it;
// elsewhere a temporary file counts as left behind after an hour). The
// file is readable and writable by its owner only (0600): it holds the
// conversation.
func (b *Buffer) SaveFile(path string) error {
	var saveErr error // Save's own, already named
	err := atomicfile.Write(path, func(w io.Writer) error {
		saveErr = b.Save(w)
		return saveErr
	})
	if errors.Is(err, atomicfile.ErrIsDir) {
		return fmt.Errorf("ratedistortion: save: %w (%w)", err, engram.ErrInvalidInput)
	}
	if err != nil && err != saveErr {
		return fmt.Errorf("ratedistortion: save: %w", err)
	}
	return err
}

// Restore reads a buffer [Buffer.Save] wrote and returns it, configured by
// opts as [New] would be; it resumes the saved pool where it stopped: the
// next unit and group are numbered on from the saved ones, an open turn
// takes its reply and a waiting tool call its result. ctx bounds the
// embedder's calls.
//
// Embeddings are stored, so a restore embeds one text, not the pool: the
// first unit is embedded again with the new buffer's embedder and, if the
// vector is not the stored one (another dimension, or a cosine below
// 0.99: another model), every unit is embedded again. Token counts are
// stored with a fingerprint of the prefixes and the counter that made
// them; under other prefixes ([option.WithHumanPrefix], [option.WithAIPrefix]) or another
// encoding or counter, every unit is counted again. Options that only
// decide loads (budget, scorer, cap) apply from the next call; a pool over
// a smaller cap ([option.WithMaxUnits]) is trimmed at the next save, and the units
// queued for the long-term tier are handed to it then.
//
// Data that is not a saved buffer, or is truncated or damaged, gives an
// error wrapping [ErrCorrupt]; a format version this package does not read,
// [ErrVersion]; both wrap [engram.ErrInvalidInput]. On any error no buffer
// is returned. The checksum catches damage, not forgery: what a
// well-formed file says (its token counts, say) is trusted. Restore reads
// r to the end of the saved buffer, no further.
func Restore(ctx context.Context, r io.Reader, opts ...Option) (*Buffer, error) {
	if err := memvars.Context(ctx); err != nil {
		return nil, fmt.Errorf("ratedistortion: restore: %w", err)
	}
	if r == nil || memopts.NilPointer(r) {
		return nil, fmt.Errorf("ratedistortion: restore: nil reader: %w", engram.ErrInvalidInput)
	}
	// The options are checked first, so that a refused one leaves r unread.
	b, err := New(opts...)
	if err != nil {
		return nil, err
	}
	s, err := readSnapshot(r)
	if err != nil {
		return nil, fmt.Errorf("ratedistortion: restore: %w", err)
	}
	if err := b.install(ctx, s); err != nil {
		return nil, err
	}
	b.embedSlots(ctx, b.pool)
	return b, nil
}

// RestoreFile restores ([Restore]) the buffer saved in the file at path,
// and removes the temporary files a crashed [Buffer.SaveFile] of path
// left behind. A file that holds more than one saved buffer is damaged:
// the error wraps [ErrCorrupt].
func RestoreFile(ctx context.Context, path string, opts ...Option) (*Buffer, error) {
	atomicfile.Clean(path)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ratedistortion: restore: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("ratedistortion: restore: %s is a directory, not a saved buffer: %w", path, engram.ErrInvalidInput)
	}
	b, err := Restore(ctx, f, opts...)
	if err != nil {
		return nil, err
	}
	if n, _ := f.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("ratedistortion: restore: %w", corrupt("bytes after the saved buffer"))
	}
	return b, nil
}

// snapshot copies the buffer's state under its lock.
func (b *Buffer) snapshot() *snapshot {
	lines := b.opts.LinesFingerprint(true) // the counter runs outside the lock
	b.mu.Lock()
	defer b.mu.Unlock()
	s := &snapshot{
		lines: lines, seq: b.seq, group: b.group, openHuman: b.openHuman, dropped: b.dropped,
		toolGroup: maps.Clone(b.toolGroup),
		units:     make([]savedUnit, 0, len(b.pool)),
		demoted:   slices.Clone(b.demoted),
	}
	if b.credit.Touched() || b.credit.Ratings() > 0 {
		s.credit, _ = b.credit.MarshalBinary() // fails only on a gate that cannot marshal, which the ledger's can
	}
	for _, e := range b.pool {
		if e.origin != "" {
			continue // the long-term tier's, which holds it
		}
		s.units = append(s.units, savedUnit{unit: e.unit, retrieved: e.retrieved, reward: e.reward, toolIDs: e.toolIDs, call: e.call})
	}
	return s
}

// install makes s the state of b, which is new: it checks the embedder and
// the counter against what made s, and rebuilds what is derived.
func (b *Buffer) install(ctx context.Context, s *snapshot) error {
	es := make([]*entry, len(s.units))
	for i, su := range s.units {
		es[i] = &entry{unit: su.unit, retrieved: su.retrieved, reward: su.reward, toolIDs: su.toolIDs, call: su.call,
			terms: text.Terms(text.Excerpt(su.unit.Text))}
	}
	if err := b.checkEmbeddings(ctx, es); err != nil {
		return err
	}
	if s.lines != b.opts.LinesFingerprint(true) {
		for _, e := range es {
			e.unit.Tokens = max(1, b.opts.Counter(b.line(e.unit.Role, e.unit.Text)))
		}
		for i := range s.demoted {
			u := &s.demoted[i].Unit
			u.Tokens = max(1, b.opts.Counter(b.line(u.Role, u.Text)))
		}
	}
	if len(s.credit) > 0 {
		if err := b.credit.UnmarshalBinary(s.credit); err != nil {
			return corrupt("ratings: %v", err)
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq, b.group, b.openHuman, b.dropped = s.seq, s.group, s.openHuman, s.dropped
	b.toolGroup = s.toolGroup
	b.demoted = s.demoted
	for i, e := range es {
		e.vec = relevance.Compress(e.unit.Embedding)
		analyse(e)
		b.number(e)
		b.slots.Add(e.unit.Seq, e.unit.Facts)
		b.index.Add(i, text.Excerpt(e.unit.Text), i-1, b.indexTerms(e))
		b.pool = append(b.pool, e)
		b.byID[e.unit.ID] = e
		b.noteSaid(e)
		b.noteFlags(e)
	}
	return nil
}

// checkEmbeddings embeds the first unit again and, unless that gives its
// stored vector, every unit.
func (b *Buffer) checkEmbeddings(ctx context.Context, es []*entry) error {
	if len(es) == 0 {
		return nil
	}
	probe, err := b.opts.Embedder.EmbedDocuments(ctx, []string{text.Excerpt(es[0].unit.Text)})
	if err != nil {
		return fmt.Errorf("ratedistortion: restore: embed: %w", err)
	}
	if len(probe) != 1 {
		return fmt.Errorf("ratedistortion: restore: embedder returned %d vectors for 1 text", len(probe))
	}
	v := embed.Normalized(probe[0])
	same := true
	for _, e := range es {
		if len(e.unit.Embedding) != len(v) {
			same = false
			break
		}
	}
	if same && agree(v, es[0].unit.Embedding) {
		return nil
	}
	texts := make([]string, len(es))
	for i, e := range es {
		texts[i] = text.Excerpt(e.unit.Text)
	}
	vecs, err := b.opts.Embedder.EmbedDocuments(ctx, texts)
	if err != nil {
		return fmt.Errorf("ratedistortion: restore: embed again: %w", err)
	}
	if len(vecs) != len(es) {
		return fmt.Errorf("ratedistortion: restore: embedder returned %d vectors for %d texts", len(vecs), len(es))
	}
	for i, e := range es {
		if err := finite(vecs[i]); err != nil {
			return fmt.Errorf("ratedistortion: restore: embed again: %w", err)
		}
		e.unit.Embedding = embed.Normalized(vecs[i])
	}
	return nil
}

// agree reports whether two unit vectors of the same length point the
// same way, or are both zero (an embedder that knows none of a text's
// words).
func agree(a, b []float32) bool {
	return relevance.Dot(a, b) >= sameEmbedder || zero(a) && zero(b)
}

// zero reports whether every component of v is 0.
func zero(v []float32) bool { return !slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) }

// encode returns s in the saved format.
func (s *snapshot) encode() []byte { return s.encodeVersion(formatVersion) }

// encodeVersion returns s in the given version of the format, leaving out
// what it lacks: Save writes the newest; tests write older ones to check
// that Restore still reads them.
func (s *snapshot) encodeVersion(version uint16) []byte {
	e := encoder{version: version}
	e.str(s.lines)
	e.varint(s.seq)
	e.varint(s.group)
	e.varint(s.openHuman)
	e.uvarint(uint64(s.dropped))
	ids := slices.Sorted(maps.Keys(s.toolGroup))
	e.uvarint(uint64(len(ids)))
	for _, id := range ids {
		e.str(id)
		e.varint(s.toolGroup[id])
	}
	e.uvarint(uint64(len(s.units)))
	for _, u := range s.units {
		e.unit(&u.unit)
		e.uvarint(uint64(u.retrieved))
		e.float(u.reward)
		e.uvarint(uint64(len(u.toolIDs)))
		for _, id := range u.toolIDs {
			e.str(id)
		}
		if version >= 2 {
			e.call(u.call)
		}
	}
	e.uvarint(uint64(len(s.demoted)))
	for _, d := range s.demoted {
		e.unit(&d.Unit)
		e.uvarint(uint64(d.Retrieved))
		e.float(d.Reward)
	}
	if version >= 4 {
		e.uvarint(uint64(len(s.credit)))
		e.b = append(e.b, s.credit...)
	}
	out := make([]byte, 0, headerLen+len(e.b)+4)
	out = append(out, magic...)
	out = binary.LittleEndian.AppendUint16(out, version)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(e.b)))
	out = append(out, e.b...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// readSnapshot reads and checks a saved buffer.
func readSnapshot(r io.Reader) (*snapshot, error) {
	head := make([]byte, headerLen)
	if n, err := io.ReadFull(r, head); err != nil {
		switch {
		case n == 0 && err == io.EOF:
			return nil, corrupt("empty input")
		case err != io.EOF && err != io.ErrUnexpectedEOF:
			// The reader failed (a directory, a disk error): the input may
			// be sound, and the error says why it could not be read.
			return nil, fmt.Errorf("read: %w", err)
		}
		if n < len(magic) || string(head[:len(magic)]) != magic {
			return nil, corrupt("not a saved buffer")
		}
		return nil, corrupt("truncated header")
	}
	if string(head[:len(magic)]) != magic {
		return nil, corrupt("not a saved buffer")
	}
	v := binary.LittleEndian.Uint16(head[len(magic):])
	if v < 1 || v > formatVersion {
		return nil, fmt.Errorf("format version %d, this package reads 1 to %d: %w (%w)", v, formatVersion, ErrVersion, engram.ErrInvalidInput)
	}
	n := binary.LittleEndian.Uint64(head[len(magic)+2:])
	if n > math.MaxInt32 {
		return nil, corrupt("body of %d bytes", n)
	}
	// Read as it comes, so that a damaged length costs no more memory than
	// the input holds.
	rest, err := io.ReadAll(io.LimitReader(r, int64(n)+4))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A reader that knows its stream was cut (a truncated gzip file)
		// says so: the input is truncated, as when it merely ends.
		return nil, corrupt("truncated: %d of %d bytes", headerLen+len(rest), uint64(headerLen)+n+4)
	case err != nil:
		return nil, fmt.Errorf("read: %w", err)
	}
	if uint64(len(rest)) != n+4 {
		return nil, corrupt("truncated: %d of %d bytes", headerLen+len(rest), uint64(headerLen)+n+4)
	}
	body, sum := rest[:n], binary.LittleEndian.Uint32(rest[n:])
	crc := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, body)
	if crc != sum {
		return nil, corrupt("checksum mismatch")
	}
	return decodeBody(body, v)
}

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%s: %w (%w)", fmt.Sprintf(format, a...), ErrCorrupt, engram.ErrInvalidInput)
}

// decodeBody decodes a checksummed body and checks that it describes a
// buffer: the checksum catches damage, not a forged or buggy body.
func decodeBody(body []byte, version uint16) (*snapshot, error) {
	d := newDecoder(body, version)
	s := &snapshot{lines: d.str()}
	s.seq, s.group, s.openHuman = d.Varint(), d.Varint(), d.Varint()
	s.dropped = d.Count(math.MaxInt32)
	if s.seq < 0 || s.group < 0 || s.openHuman < -1 || s.openHuman >= s.group {
		d.fail("counters seq %d, group %d, open turn %d", s.seq, s.group, s.openHuman)
	}
	n := d.Count(len(d.B))
	s.toolGroup = make(map[string]int64, n)
	for range n {
		id, g := d.str(), d.Varint()
		if g < 0 || g >= s.group {
			d.fail("tool call %q in group %d", id, g)
		}
		s.toolGroup[id] = g
	}
	n = d.Count(len(d.B))
	s.units = make([]savedUnit, 0, n)
	ids := make(map[string]bool, n)
	for i := range n {
		var su savedUnit
		d.unit(&su.unit)
		su.retrieved = d.Count(math.MaxInt32)
		su.reward = d.Float64()
		k := d.Count(len(d.B))
		for range k {
			su.toolIDs = append(su.toolIDs, d.str())
		}
		if version >= 2 {
			su.call = d.call()
		}
		u := &su.unit
		switch {
		case d.Err != nil:
		case ids[u.ID]:
			d.fail("unit id %q twice", u.ID)
		case su.call != nil && u.Role != engram.RoleToolCall:
			d.fail("unit %q holds a tool call's message but is a %v", u.ID, u.Role)
		case u.Seq < 0 || u.Seq >= s.seq || i > 0 && u.Seq <= s.units[i-1].unit.Seq:
			d.fail("unit %q out of sequence", u.ID)
		case u.Group < 0 || u.Group >= s.group:
			d.fail("unit %q in group %d", u.ID, u.Group)
		}
		ids[u.ID] = true
		s.units = append(s.units, su)
	}
	n = d.Count(len(d.B))
	s.demoted = make([]engram.Demoted, n)
	for i := range s.demoted {
		dm := &s.demoted[i]
		d.unit(&dm.Unit)
		dm.Retrieved = d.Count(math.MaxInt32)
		dm.Reward = d.Float64()
	}
	if version >= 4 {
		if c := d.Bytes(d.Count(len(d.B))); len(c) > 0 {
			s.credit = slices.Clone(c)
		}
	}
	if d.Err == nil && len(d.B) > 0 {
		d.fail("%d bytes after the body", len(d.B))
	}
	if d.Err != nil {
		return nil, d.Err
	}
	return s, nil
}

// encoder appends the body's fields.
type encoder struct {
	b       []byte
	version uint16 // of the format written
}

func (e *encoder) uvarint(x uint64) { e.b = binary.AppendUvarint(e.b, x) }
func (e *encoder) varint(x int64)   { e.b = binary.AppendVarint(e.b, x) }
func (e *encoder) float(x float64)  { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(x)) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.b = append(e.b, s...) }

func (e *encoder) unit(u *engram.Unit) {
	e.str(u.ID)
	e.varint(u.Seq)
	e.varint(u.Group)
	e.uvarint(uint64(u.Role))
	e.str(u.Text)
	t, err := u.Time.MarshalBinary()
	if err != nil {
		// Only a zone offset in fractions of a minute fails; keep the
		// instant.
		t, _ = u.Time.UTC().MarshalBinary()
	}
	e.str(string(t))
	e.uvarint(uint64(u.Tokens))
	e.uvarint(uint64(u.Flags))
	e.uvarint(uint64(len(u.Embedding)))
	for _, x := range u.Embedding {
		e.b = binary.LittleEndian.AppendUint32(e.b, math.Float32bits(x))
	}
	if e.version < 3 {
		return
	}
	e.b = facts.AppendWire(e.b, u.Facts)
}

// decoder reads the body's fields (internal/wire: the first failure
// sticks, as ErrCorrupt; later reads return zero values).
type decoder struct {
	*wire.Reader
	version uint16 // the format's: what fields there are
}

func newDecoder(body []byte, version uint16) *decoder {
	return &decoder{Reader: wire.New(body, func(msg string) error { return corrupt("%s", msg) }), version: version}
}

// fail records a failure described by format and a, unless one is already.
func (d *decoder) fail(format string, a ...any) { d.Fail(fmt.Sprintf(format, a...)) }

func (d *decoder) str() string { return string(d.Prefixed()) }

func (d *decoder) unit(u *engram.Unit) {
	u.ID = d.str()
	u.Seq, u.Group = d.Varint(), d.Varint()
	u.Role = engram.Role(d.Count(int(engram.RoleToolResult)))
	u.Text = d.str()
	if err := u.Time.UnmarshalBinary(d.Bytes(d.Count(len(d.B)))); err != nil && d.Err == nil {
		d.fail("unit %q: time: %v", u.ID, err)
	}
	u.Tokens = d.Count(math.MaxInt32)
	u.Flags = engram.Flags(d.Count(math.MaxUint16))
	n := d.Count(len(d.B) / 4)
	if n > 0 {
		raw := d.Bytes(4 * n)
		if d.Err != nil {
			return
		}
		u.Embedding = make([]float32, n)
		for i := range u.Embedding {
			x := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				d.fail("unit %q: non-finite embedding", u.ID)
				return
			}
			u.Embedding[i] = x
		}
	}
	if d.version >= 3 {
		// Each fact is three strings, each at least a length byte.
		u.Facts = facts.ReadWire(d.Reader, len(d.B)/3)
		for _, f := range u.Facts {
			if d.Err == nil && (!f.Valid() || !utf8.ValidString(f.Subject+f.Relation+f.Value)) {
				d.fail("unit %q: fact %q", u.ID, f.Key())
			}
		}
	}
	switch {
	case d.Err != nil:
	case u.ID == "" || u.Text == "" || !utf8.ValidString(u.Text):
		d.fail("unit %q: empty id or text, or text not UTF-8", u.ID)
	case u.Tokens < 1:
		d.fail("unit %q: %d tokens", u.ID, u.Tokens)
	}
}

// call writes a tool call's message: whether there is one, its content and
// its calls (id, type, function name and arguments, or no function).
func (e *encoder) call(c *toolCall) {
	if c == nil {
		e.uvarint(0)
		return
	}
	e.uvarint(1)
	e.str(c.content)
	e.uvarint(uint64(len(c.calls)))
	for _, tc := range c.calls {
		e.str(tc.ID)
		e.str(tc.Type)
		if tc.FunctionCall == nil {
			e.uvarint(0)
			continue
		}
		e.uvarint(1)
		e.str(tc.FunctionCall.Name)
		e.str(tc.FunctionCall.Arguments)
	}
}

// call reads what encoder.call wrote.
func (d *decoder) call() *toolCall {
	switch d.Uvarint() {
	case 0:
		return nil
	case 1:
	default:
		d.fail("tool call marker")
		return nil
	}
	c := &toolCall{content: d.str()}
	n := d.Count(len(d.B))
	for range n {
		tc := llms.ToolCall{ID: d.str(), Type: d.str()}
		switch d.Uvarint() {
		case 0:
		case 1:
			tc.FunctionCall = &llms.FunctionCall{Name: d.str(), Arguments: d.str()}
		default:
			d.fail("function call marker")
		}
		if d.Err != nil {
			return nil
		}
		c.calls = append(c.calls, tc)
	}
	return c
}
