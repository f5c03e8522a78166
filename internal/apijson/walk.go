package apijson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
)

// decoder walks one JSON document against a Go type. With rewrite set it
// records the edits (holes) that make the document encoding/json is to
// read: dropped members, durations as integers, a List's items in its
// place; with locate set it calls the UnmarshalJSON methods it meets, to
// find a failing one.
type decoder struct {
	data    []byte
	pos     int
	rewrite bool
	holes   []hole
	locate  bool
	mode    Mode
	path    []segment
}

// hole replaces data[start:end] by repl (nothing, for a removal).
type hole struct {
	start, end int
	repl       []byte
}

// cut records a hole. Holes come in document order; one that starts where
// the last one starts widens it (the members dropped after a kept one).
func (d *decoder) cut(start, end int, repl []byte) {
	if !d.rewrite {
		return
	}
	if n := len(d.holes); n > 0 && d.holes[n-1].start == start && repl == nil {
		d.holes[n-1].end = end
		return
	}
	d.holes = append(d.holes, hole{start, end, repl})
}

// edited returns data with the holes applied.
func (d *decoder) edited() []byte {
	if len(d.holes) == 0 {
		return d.data
	}
	out := make([]byte, 0, len(d.data))
	at := 0
	for _, h := range d.holes {
		out = append(out, d.data[at:h.start]...)
		out = append(out, h.repl...)
		at = h.end
	}
	return append(out, d.data[at:]...)
}

// segment is one step of the path to the value being read: an object key
// or an array index.
type segment struct {
	key   []byte
	index int // -1 for a key
}

func (d *decoder) document(t reflect.Type) error {
	if err := d.value(info(t), 0); err != nil {
		return err
	}
	d.space()
	if d.pos < len(d.data) {
		return d.syntax("invalid character " + quoteChar(d.data[d.pos]) + " after top-level value")
	}
	return nil
}

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end.
func (d *decoder) peek() byte {
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

// value reads one value for ti, after optional white space.
func (d *decoder) value(ti *typeInfo, depth int) error {
	d.space()
	if d.pos >= len(d.data) {
		return d.syntax("unexpected end of JSON input")
	}
	c := d.data[d.pos]
	switch ti.kind {
	case kAny:
		return d.skip(depth)
	case kOpaque:
		start := d.pos
		if err := d.skip(depth); err != nil {
			return err
		}
		raw := d.data[start:d.pos]
		if d.locate && c != 'n' {
			return d.call(ti, raw)
		}
		return nil
	}
	switch c {
	case 'n':
		return d.literal("null")
	case 't', 'f':
		lit := "true"
		if c == 'f' {
			lit = "false"
		}
		if ti.kind != kBool {
			return d.mismatch(ti, "bool")
		}
		return d.literal(lit)
	case '{':
		switch ti.kind {
		case kStruct:
			return d.object(ti, depth)
		case kMap:
			return d.mapObject(ti, depth)
		}
		return d.mismatch(ti, "object")
	case '[':
		if ti.kind == kSlice {
			return d.array(ti, depth)
		}
		return d.mismatch(ti, "array")
	case '"':
		start := d.pos
		if _, err := d.str(); err != nil {
			return err
		}
		raw := d.data[start:d.pos]
		switch ti.kind {
		case kString, kBytes:
			return nil
		case kDuration:
			return d.duration(raw)
		}
		return d.mismatch(ti, "string")
	}
	if c == '-' || '0' <= c && c <= '9' {
		start := d.pos
		if err := d.number(); err != nil {
			return err
		}
		return d.numberFor(ti, d.data[start:d.pos])
	}
	return d.syntax("invalid character " + quoteChar(c) + " looking for beginning of value")
}

// object reads an object into a struct: keys are matched exactly; an
// unknown key is dropped (a hole) or, where strict, an error.
func (d *decoder) object(ti *typeInfo, depth int) error {
	if depth >= MaxDepth {
		return d.syntax("nested too deep")
	}
	strict := d.mode&Strict != 0 || d.mode&StrictTop != 0 && depth == 0
	lists := d.mode&TopLists != 0 && depth == 0
	d.pos++
	var seen keySet
	d.space()
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	// The members dropped before the first kept one are cut from the
	// first's key to the next key (pending), those after a kept one from
	// its value's end to their own.
	kept, lastKeptEnd, pending := false, 0, -1
	for {
		d.space()
		keyStart := d.pos
		if pending >= 0 {
			d.cut(pending, keyStart, nil)
			pending = -1
		}
		key, err := d.key()
		if err != nil {
			return err
		}
		if err := d.colon(); err != nil {
			return err
		}
		d.path = append(d.path, segment{key: key, index: -1})
		if seen.add(key) {
			return d.duplicate()
		}
		f, ok := ti.fields[string(key)]
		switch {
		case ok:
			fi := f.info()
			if d.space(); lists && fi.kind == kSlice && d.peek() == '{' {
				err = d.listItems(fi, depth+1)
			} else {
				err = d.value(fi, depth+1)
			}
			kept, lastKeptEnd = true, d.pos
		case strict:
			return d.unknown(ti, key)
		default:
			err = d.skip(depth + 1)
			if kept {
				d.cut(lastKeptEnd, d.pos, nil)
			} else {
				pending = keyStart
			}
		}
		if err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		end := d.pos
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case '}':
			if pending >= 0 {
				d.cut(pending, end, nil)
			}
			d.pos++
			return nil
		}
		return d.syntaxAt("after object key:value pair")
	}
}

// mapObject reads an object into a map.
func (d *decoder) mapObject(ti *typeInfo, depth int) error {
	if depth >= MaxDepth {
		return d.syntax("nested too deep")
	}
	elem := ti.elem.info()
	d.pos++
	var seen keySet
	d.space()
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	for {
		d.space()
		key, err := d.key()
		if err != nil {
			return err
		}
		if err := d.colon(); err != nil {
			return err
		}
		d.path = append(d.path, segment{key: key, index: -1})
		if seen.add(key) {
			return d.duplicate()
		}
		if err := d.value(elem, depth+1); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case '}':
			d.pos++
			return nil
		}
		return d.syntaxAt("after object key:value pair")
	}
}

// array reads an array into a slice or an array.
func (d *decoder) array(ti *typeInfo, depth int) error {
	if depth >= MaxDepth {
		return d.syntax("nested too deep")
	}
	elem := ti.elem.info()
	d.pos++
	d.space()
	if d.peek() == ']' {
		d.pos++
		return nil
	}
	for i := 0; ; i++ {
		d.path = append(d.path, segment{index: i})
		if err := d.value(elem, depth+1); err != nil {
			return err
		}
		d.path = d.path[:len(d.path)-1]
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case ']':
			d.pos++
			return nil
		}
		return d.syntaxAt("after array element")
	}
}

// listItems reads a List object given for the list ti: its "items" are
// the list; its other keys are checked and dropped.
func (d *decoder) listItems(ti *typeInfo, depth int) error {
	if depth >= MaxDepth {
		return d.syntax("nested too deep")
	}
	objStart := d.pos
	d.pos++
	var seen keySet
	found := false
	itemsEnd := 0
	d.space()
	if d.peek() != '}' {
		for {
			d.space()
			key, err := d.key()
			if err != nil {
				return err
			}
			if err := d.colon(); err != nil {
				return err
			}
			d.path = append(d.path, segment{key: key, index: -1})
			if seen.add(key) {
				return d.duplicate()
			}
			if d.space(); string(key) == "items" && (d.peek() == '[' || d.peek() == 'n') {
				found = true
				d.cut(objStart, d.pos, nil) // the List object up to its items
				err = d.value(ti, depth+1)
				itemsEnd = d.pos
			} else {
				err = d.skip(depth + 1)
			}
			if err != nil {
				return err
			}
			d.path = d.path[:len(d.path)-1]
			d.space()
			if d.peek() == ',' {
				d.pos++
				continue
			}
			if d.peek() == '}' {
				break
			}
			return d.syntaxAt("after object key:value pair")
		}
	}
	d.pos++
	if !found {
		return field.New(d.pathString(), "a JSON object", fmt.Errorf("%w: want a list, or a List object with items", field.ErrInvalid))
	}
	d.cut(itemsEnd, d.pos, nil) // the List object after its items
	return nil
}

// skip checks one value without decoding it.
func (d *decoder) skip(depth int) error {
	d.space()
	if d.pos >= len(d.data) {
		return d.syntax("unexpected end of JSON input")
	}
	switch c := d.data[d.pos]; c {
	case '{':
		if depth >= MaxDepth {
			return d.syntax("nested too deep")
		}
		d.pos++
		var seen keySet
		d.space()
		if d.peek() == '}' {
			d.pos++
			return nil
		}
		for {
			d.space()
			key, err := d.key()
			if err != nil {
				return err
			}
			if err := d.colon(); err != nil {
				return err
			}
			d.path = append(d.path, segment{key: key, index: -1})
			if seen.add(key) {
				return d.duplicate()
			}
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.path = d.path[:len(d.path)-1]
			d.space()
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case '}':
				d.pos++
				return nil
			}
			return d.syntaxAt("after object key:value pair")
		}
	case '[':
		if depth >= MaxDepth {
			return d.syntax("nested too deep")
		}
		d.pos++
		d.space()
		if d.peek() == ']' {
			d.pos++
			return nil
		}
		for i := 0; ; i++ {
			d.path = append(d.path, segment{index: i})
			if err := d.skip(depth + 1); err != nil {
				return err
			}
			d.path = d.path[:len(d.path)-1]
			d.space()
			switch d.peek() {
			case ',':
				d.pos++
				continue
			case ']':
				d.pos++
				return nil
			}
			return d.syntaxAt("after array element")
		}
	case '"':
		_, err := d.str()
		return err
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return d.number()
		}
		return d.syntax("invalid character " + quoteChar(c) + " looking for beginning of value")
	}
}

func (d *decoder) colon() error {
	d.space()
	if d.peek() != ':' {
		return d.syntaxAt("after object key")
	}
	d.pos++
	return nil
}

// key reads an object key and returns it unescaped.
func (d *decoder) key() ([]byte, error) {
	if d.peek() != '"' {
		return nil, d.syntaxAt("looking for beginning of object key string")
	}
	start := d.pos
	plain, err := d.str()
	if err != nil {
		return nil, err
	}
	if plain {
		return d.data[start+1 : d.pos-1], nil
	}
	var s string
	if err := json.Unmarshal(d.data[start:d.pos], &s); err != nil {
		return nil, d.syntax("invalid object key")
	}
	return []byte(s), nil
}

// str reads a string; plain reports that it holds neither escapes nor
// bytes outside ASCII (its content is its key as written).
func (d *decoder) str() (plain bool, err error) {
	d.pos++
	plain = true
	for {
		for d.pos < len(d.data) {
			if c := d.data[d.pos]; c == '"' || c == '\\' || c-0x20 >= 0x60 {
				break // the quote, an escape, a control character or a byte outside ASCII
			}
			d.pos++
		}
		if d.pos >= len(d.data) {
			return false, d.syntax("unexpected end of JSON input")
		}
		switch c := d.data[d.pos]; {
		case c == '"':
			d.pos++
			return plain, nil
		case c == '\\':
			plain = false
			d.pos++
			if d.pos >= len(d.data) {
				return false, d.syntax("unexpected end of JSON input")
			}
			switch d.data[d.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.pos++
			case 'u':
				d.pos++
				for range 4 {
					if d.pos >= len(d.data) {
						return false, d.syntax("unexpected end of JSON input")
					}
					if !isHex(d.data[d.pos]) {
						return false, d.syntax("invalid character " + quoteChar(d.data[d.pos]) + " in \\u hexadecimal character escape")
					}
					d.pos++
				}
			default:
				return false, d.syntax("invalid character " + quoteChar(d.data[d.pos]) + " in string escape code")
			}
		case c < 0x20:
			return false, d.syntax("invalid character " + quoteChar(c) + " in string literal")
		default: // c >= 0x80
			plain = false
			d.pos++
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number reads a number as JSON spells one.
func (d *decoder) number() error {
	if d.peek() == '-' {
		d.pos++
	}
	switch c := d.peek(); {
	case c == '0':
		d.pos++
	case '1' <= c && c <= '9':
		for isDigit(d.peek()) {
			d.pos++
		}
	default:
		return d.syntaxAt("in numeric literal")
	}
	if d.peek() == '.' {
		d.pos++
		if !isDigit(d.peek()) {
			return d.syntaxAt("after decimal point in numeric literal")
		}
		for isDigit(d.peek()) {
			d.pos++
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.pos++
		if c := d.peek(); c == '+' || c == '-' {
			d.pos++
		}
		if !isDigit(d.peek()) {
			return d.syntaxAt("in exponent of numeric literal")
		}
		for isDigit(d.peek()) {
			d.pos++
		}
	}
	return nil
}

// literal reads true, false or null.
func (d *decoder) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if d.pos >= len(d.data) {
			return d.syntax("unexpected end of JSON input")
		}
		if d.data[d.pos] != lit[i] {
			return d.syntax("invalid character " + quoteChar(d.data[d.pos]) + " in literal " + lit)
		}
		d.pos++
	}
	return nil
}

// numberFor checks that the number raw fits ti.
func (d *decoder) numberFor(ti *typeInfo, raw []byte) error {
	var err error
	switch ti.kind {
	case kInt, kDuration:
		bits := ti.bits
		if ti.kind == kDuration {
			bits = 64
		}
		_, err = strconv.ParseInt(string(raw), 10, bits)
	case kUint:
		_, err = strconv.ParseUint(string(raw), 10, ti.bits)
	case kFloat:
		_, err = strconv.ParseFloat(string(raw), ti.bits)
	default:
		return d.mismatch(ti, "number")
	}
	if err != nil {
		return field.New(d.pathString(), Clip(string(raw)), fmt.Errorf("%w: want %s", field.ErrInvalid, typeName(ti)))
	}
	return nil
}

// duration rewrites a Go duration string as integer nanoseconds.
func (d *decoder) duration(raw []byte) error {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return d.syntax("invalid string")
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return field.New(d.pathString(), Clip(s), fmt.Errorf("%w: want a Go duration (\"1m30s\") or integer nanoseconds", field.ErrInvalid))
	}
	d.cut(d.pos-len(raw), d.pos, strconv.AppendInt(nil, int64(v), 10))
	return nil
}

// mismatch is a value of the wrong JSON kind for ti.
func (d *decoder) mismatch(ti *typeInfo, what string) error {
	return field.New(d.pathString(), "a JSON "+what, fmt.Errorf("%w: want %s", field.ErrInvalid, typeName(ti)))
}

func typeName(ti *typeInfo) string {
	switch ti.kind {
	case kDuration:
		return "a Go duration (\"1m30s\") or integer nanoseconds"
	case kSlice, kBytes:
		if ti.kind == kBytes {
			return "a base64 string"
		}
		return "a list"
	case kMap, kStruct:
		return "an object"
	}
	return ti.t.String()
}

func (d *decoder) unknown(ti *typeInfo, key []byte) error {
	msg := "unknown field"
	if v := ti.caseVariant(string(key)); v != "" {
		msg += fmt.Sprintf(" (keys are case-sensitive: %q is not %q)", Clip(string(key)), v)
	}
	return field.New(d.pathString(), "", fmt.Errorf("%w: %s", field.ErrUnsupported, msg))
}

func (d *decoder) duplicate() error {
	return field.New(d.pathString(), "", fmt.Errorf("%w: key given more than once", field.ErrDuplicate))
}

// syntaxAt is a syntax error at the current byte: the end of the input,
// or an unexpected character met while looking for what context says.
func (d *decoder) syntaxAt(context string) error {
	if d.pos >= len(d.data) {
		return d.syntax("unexpected end of JSON input")
	}
	return d.syntax("invalid character " + quoteChar(d.data[d.pos]) + " " + context)
}

func (d *decoder) syntax(msg string) error {
	off := min(d.pos, len(d.data))
	line := 1 + bytes.Count(d.data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(d.data[:off], '\n')
	se := &SyntaxError{Msg: msg, Offset: int64(off), Line: line, Column: col}
	return field.New(d.pathString(), "", fmt.Errorf("%w: %w", field.ErrInvalid, se))
}

func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c < 0x20 || c >= 0x7f:
		return strconv.QuoteRune(rune(c))
	}
	return "'" + string(c) + "'"
}

// pathString renders the path as Kubernetes field paths read
// ("spec.template.metadata.labels.app", "pods[3].name").
func (d *decoder) pathString() string {
	var b strings.Builder
	for _, s := range d.path {
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(Clip(string(s.key)))
	}
	return clipPath(b.String())
}

// clipPath shortens a path longer than EchoLimit to its start and its
// end.
func clipPath(p string) string {
	if len(p) <= EchoLimit {
		return p
	}
	head, tail := EchoLimit/4, EchoLimit/2
	for head > 0 && p[head]&0xC0 == 0x80 {
		head--
	}
	cut := len(p) - tail
	for cut < len(p) && p[cut]&0xC0 == 0x80 {
		cut++
	}
	return p[:head] + "…" + p[cut:]
}

// keySet holds the keys of one object, to find one given twice.
type keySet struct {
	small [8][]byte
	n     int
	big   map[string]struct{}
}

// add records k and reports whether it was there already.
func (s *keySet) add(k []byte) bool {
	if s.big != nil {
		if _, ok := s.big[string(k)]; ok {
			return true
		}
		s.big[string(k)] = struct{}{}
		return false
	}
	for _, x := range s.small[:s.n] {
		if bytes.Equal(x, k) {
			return true
		}
	}
	if s.n < len(s.small) {
		s.small[s.n] = k
		s.n++
		return false
	}
	s.big = make(map[string]struct{}, 2*len(s.small))
	for _, x := range s.small {
		s.big[string(x)] = struct{}{}
	}
	s.big[string(k)] = struct{}{}
	return false
}
