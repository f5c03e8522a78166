// Package names holds the name syntax API validation checks (label keys,
// label values, DNS-1123 subdomains), once for every kubesem package.
package names

// QualifiedName reports whether s is a qualified name (a label key): an
// optional prefix that is a lowercase DNS-1123 subdomain of at most 253
// characters and a '/', then a name of 1 to 63 characters, alphanumeric at
// both ends, with '-', '_' and '.' inside.
//
// Source: upstream k8s.io/apimachinery pkg/util/validation IsQualifiedName
// (v0.36.3).
func QualifiedName(s string) bool {
	name := s
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			if !DNS1123Subdomain(s[:i]) {
				return false
			}
			name = s[i+1:]
			break
		}
	}
	return name != "" && len(name) <= 63 && isNameBody(name)
}

// LabelValue reports whether s is a label value: empty, or 1 to 63
// characters, alphanumeric at both ends, with '-', '_' and '.' inside.
//
// Source: upstream k8s.io/apimachinery pkg/util/validation IsValidLabelValue
// (v0.36.3).
func LabelValue(s string) bool {
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

// DNS1123Subdomain reports whether s is a lowercase DNS-1123 subdomain of at most
// 253 characters: dot-separated labels of lowercase alphanumerics and '-',
// alphanumeric at both ends.
func DNS1123Subdomain(s string) bool {
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
