package meta

// isQualifiedName reports whether s is a qualified name (a label key): an
// optional prefix that is a lowercase DNS-1123 subdomain of at most 253
// characters and a '/', then a name of 1 to 63 characters, alphanumeric at
// both ends, with '-', '_' and '.' inside.
//
// Source: upstream k8s.io/apimachinery pkg/util/validation IsQualifiedName
// (v0.36.3).
func isQualifiedName(s string) bool {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if !isSubdomain(s[:i]) {
				return false
			}
			name = s[i+1:]
			break
		}
	}
	return name != "" && len(name) <= 63 && isNameBody(name)
}

// isLabelValue reports whether s is a label value: empty, or 1 to 63
// characters, alphanumeric at both ends, with '-', '_' and '.' inside.
//
// Source: upstream k8s.io/apimachinery pkg/util/validation IsValidLabelValue
// (v0.36.3).
func isLabelValue(s string) bool {
	return s == "" || len(s) <= 63 && isNameBody(s)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isNameBody(s string) bool {
	if !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isSubdomain reports whether s is a lowercase DNS-1123 subdomain of at most
// 253 characters: dot-separated labels of lowercase alphanumerics and '-',
// alphanumeric at both ends.
func isSubdomain(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			continue
		}
		l := s[start:i]
		if l == "" || !isLowerAlnum(l[0]) || !isLowerAlnum(l[len(l)-1]) {
			return false
		}
		for j := 1; j < len(l)-1; j++ {
			if !isLowerAlnum(l[j]) && l[j] != '-' {
				return false
			}
		}
		start = i + 1
	}
	return true
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
