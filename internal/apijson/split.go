package apijson

// Member is one key of a JSON object and its value, as written.
type Member struct {
	Key   string
	Value []byte
}

// Values splits a stream of JSON values separated by white space (what
// kubectl get -o json prints for several objects) into the values, as
// slices of data, after checking each as Valid does. Errors name the
// value's line and column in data.
func Values(data []byte) ([][]byte, error) {
	d := &decoder{data: data}
	var out [][]byte
	for {
		d.space()
		if d.pos >= len(d.data) {
			return out, nil
		}
		start := d.pos
		d.path = append(d.path[:0], segment{index: len(out)})
		if err := d.skip(0); err != nil {
			return nil, err
		}
		out = append(out, data[start:d.pos])
	}
}

// Members returns the members of the JSON object data in order, their
// values as slices of data, after checking data as Valid does; ok is false
// when data is valid but not an object.
func Members(data []byte) (members []Member, ok bool, err error) {
	d := &decoder{data: data}
	d.space()
	if d.peek() != '{' {
		return nil, false, Valid(data)
	}
	d.pos++
	var seen keySet
	d.space()
	if d.peek() == '}' {
		d.pos++
		return nil, true, d.end()
	}
	for {
		d.space()
		key, err := d.key()
		if err != nil {
			return nil, false, err
		}
		if err := d.colon(); err != nil {
			return nil, false, err
		}
		d.path = append(d.path[:0], segment{key: key, index: -1})
		if seen.add(key) {
			return nil, false, d.duplicate()
		}
		d.space()
		start := d.pos
		if err := d.skip(1); err != nil {
			return nil, false, err
		}
		members = append(members, Member{Key: string(key), Value: data[start:d.pos]})
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case '}':
			d.pos++
			d.path = d.path[:0]
			return members, true, d.end()
		}
		return nil, false, d.syntaxAt("after object key:value pair")
	}
}

// Elements returns the elements of the JSON array data as slices of data,
// after checking data as Valid does; ok is false when data is valid but
// not an array.
func Elements(data []byte) (elems [][]byte, ok bool, err error) {
	d := &decoder{data: data}
	d.space()
	if d.peek() != '[' {
		return nil, false, Valid(data)
	}
	d.pos++
	d.space()
	if d.peek() == ']' {
		d.pos++
		return nil, true, d.end()
	}
	for i := 0; ; i++ {
		d.path = append(d.path[:0], segment{index: i})
		d.space()
		start := d.pos
		if err := d.skip(1); err != nil {
			return nil, false, err
		}
		elems = append(elems, data[start:d.pos])
		d.space()
		switch d.peek() {
		case ',':
			d.pos++
			continue
		case ']':
			d.pos++
			d.path = d.path[:0]
			return elems, true, d.end()
		}
		return nil, false, d.syntaxAt("after array element")
	}
}

// end checks that only white space follows the value read.
func (d *decoder) end() error {
	d.space()
	if d.pos < len(d.data) {
		return d.syntax("invalid character " + quoteChar(d.data[d.pos]) + " after top-level value")
	}
	return nil
}
