package types

// TesseraIDPrefixRange reports whether an _id condition is {$gte: p, $lt: q} where q is p with its
// last byte one higher and every byte of p is printable ASCII that JSON writes as is. The strings in
// that range are exactly those starting with p, and their stored JSON text starts with the quote and p.
func TesseraIDPrefixRange(condition any) (string, string, bool) {
	operators, ok := condition.(*Document)
	if !ok || operators.Len() != 2 {
		return "", "", false
	}

	low, err := operators.Get("$gte")
	if err != nil {
		return "", "", false
	}

	high, err := operators.Get("$lt")
	if err != nil {
		return "", "", false
	}

	p, ok := low.(string)
	if !ok || p == "" {
		return "", "", false
	}

	q, ok := high.(string)
	if !ok || len(q) != len(p) {
		return "", "", false
	}

	for i := 0; i < len(p); i++ {
		c := p[i]
		if c < 0x20 || c > 0x7d || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return "", "", false
		}
	}

	last := len(p) - 1
	if p[:last] != q[:last] || q[last] != p[last]+1 {
		return "", "", false
	}

	return p, q, true
}
