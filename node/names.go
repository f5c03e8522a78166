package node

// isQualifiedName reports whether s is a Kubernetes qualified name: an
// optional DNS-1123 subdomain prefix and '/', then a name of at most 63
// characters, alphanumeric at both ends, with '-', '_' and '.' inside.
func isQualifiedName(s string) bool {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			prefix := s[:i]
			name = s[i+1:]
			if prefix == "" || !isDNS1123Subdomain(prefix) {
				return false
			}
			break
		}
	}
	if name == "" || len(name) > 63 {
		return false
	}
	return isNameBody(name)
}

// isLabelValue reports whether s is a valid label value: empty, or at most
// 63 characters, alphanumeric at both ends, with '-', '_' and '.' inside.
func isLabelValue(s string) bool {
	if s == "" {
		return true
	}
	return len(s) <= 63 && isNameBody(s)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isNameBody(s string) bool {
	if !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain reports whether s is a lowercase DNS-1123 subdomain of
// at most 253 characters.
func isDNS1123Subdomain(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isDNS1123Label(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

func isDNS1123Label(s string) bool {
	if s == "" {
		return false
	}
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	if !lower(s[0]) || !lower(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if !lower(s[i]) && s[i] != '-' {
			return false
		}
	}
	return true
}
