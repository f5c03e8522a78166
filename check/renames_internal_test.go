package check

import "testing"

// renames is exact: strings that share a hash keep their own tokens, and
// a string whose hash is a key but which was never set has none.
func TestRenamesCollisions(t *testing.T) {
	r := renames{m: map[uint64]renamed{}}
	const h = 42 // every string below "hashes" to h
	r.set("a", h, 1)
	r.set("b", h, 2)
	r.set("a", h, 3) // a update of the first
	r.set("b", h, 4) // and of the second
	for _, c := range []struct {
		s    string
		tok  uint64
		want bool
	}{{"a", 3, true}, {"b", 4, true}, {"c", 0, false}} {
		if tok, ok := r.get(c.s, h); ok != c.want || tok != c.tok {
			t.Errorf("get(%q) = %d, %v, want %d, %v", c.s, tok, ok, c.tok, c.want)
		}
	}
	if _, ok := r.get("a", h+1); ok {
		t.Error(`get("a") under another hash found it`)
	}
	r.reset()
	if _, ok := r.get("b", h); ok {
		t.Error("reset kept b")
	}
}

// renamer.str gives the object's own name and UID the self tokens only
// when they equal it, not when they only share its hash.
func TestRenamerSelfExact(t *testing.T) {
	ren := renames{m: map[uint64]renamed{}}
	r := renamer{m: &ren, selfName: "web-abc", selfID: "uid-1", selfNameH: 7, selfIDH: 8, selfTok: 100}
	if got := r.str("web-abc", 7); got != 100 {
		t.Errorf("own name: %d", got)
	}
	if got := r.str("uid-1", 8); got != 101 {
		t.Errorf("own UID: %d", got)
	}
	if got := r.str("other", 7); got != 7 {
		t.Errorf("a string sharing the name's hash: %d, want its hash 7", got)
	}
	ren.set("other", 7, 55)
	if got := r.str("other", 7); got != 55 {
		t.Errorf("a renamed string sharing the name's hash: %d, want 55", got)
	}
	if got := r.str("", 7); got != 55 && got != 7 {
		t.Errorf("empty string: %d", got)
	}
}
