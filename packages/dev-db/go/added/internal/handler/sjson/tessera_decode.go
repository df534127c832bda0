package sjson

// Added by Tessera (packages/dev-db/go/patches/0005-one-pass-decoder.patch): a one-pass decoder for the stored JSON
// of a document. Upstream's Unmarshal runs encoding/json several times per document (the fields
// into a map of raw messages, the schema into structs, then each value through a new Decoder),
// which was about half of the database's CPU time when a query returned a hundred documents.
//
// This decoder reads the same format in one pass over the bytes and builds the same
// *types.Document. It handles the common case only: whenever it meets anything it does not handle
// exactly as upstream does (a binData, regex or timestamp value, an escaped string it cannot copy,
// a number upstream would refuse, a duplicated key, an unexpected schema field, trailing bytes …)
// it gives up and upstream's Unmarshal decodes the document, errors included.

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/internal/types"
)

// tesseraSpan is one raw JSON value: data[start:end].
type tesseraSpan struct {
	start, end int
}

// tesseraField is one member of a JSON object.
type tesseraField struct {
	key   []byte // the unescaped key; a slice of the document's bytes when it has no escapes
	value tesseraSpan
}

// tesseraElem is a decoded schema element (upstream's elem, without the types this decoder leaves to upstream).
type tesseraElem struct {
	typ      elemType
	schema   *tesseraSchema
	items    []*tesseraElem
	hasItems bool
}

type tesseraSchema struct {
	props map[string]*tesseraElem
	keys  []string
}

type tesseraDecoder struct {
	data []byte
}

// tesseraUnmarshal answers the document and true, or false when upstream must decode it.
func tesseraUnmarshal(data []byte) (*types.Document, bool) {
	dec := tesseraDecoder{data: data}

	pos := dec.skipSpace(0)

	fields, end, ok := dec.object(pos)
	if !ok || end != len(data) {
		return nil, false
	}

	var schemaSpan tesseraSpan

	found := false
	rest := make([]tesseraField, 0, len(fields))

	for _, f := range fields {
		if string(f.key) == "$s" {
			if found {
				return nil, false
			}

			found = true
			schemaSpan = f.value

			continue
		}

		rest = append(rest, f)
	}

	if !found {
		return nil, false
	}

	sch, ok := dec.cachedSchema(schemaSpan)
	if !ok {
		return nil, false
	}

	return dec.document(rest, sch)
}

// document builds a document from its fields in the schema's key order.
func (dec *tesseraDecoder) document(fields []tesseraField, sch *tesseraSchema) (*types.Document, bool) {
	if len(sch.keys) != len(fields) || !tesseraUniqueKeys(fields) {
		return nil, false
	}

	d := types.MakeDocument(len(fields))

	for _, key := range sch.keys {
		if key == "$s" {
			return nil, false
		}

		span, ok := tesseraLookup(fields, key)
		if !ok {
			return nil, false
		}

		v, ok := dec.value(span, sch.props[key])
		if !ok {
			return nil, false
		}

		d.Set(key, v)
	}

	return d, true
}

func tesseraUniqueKeys(fields []tesseraField) bool {
	if len(fields) > 16 {
		seen := make(map[string]struct{}, len(fields))
		for _, f := range fields {
			if _, dup := seen[string(f.key)]; dup {
				return false
			}

			seen[string(f.key)] = struct{}{}
		}

		return true
	}

	for i := range fields {
		for j := i + 1; j < len(fields); j++ {
			if string(fields[i].key) == string(fields[j].key) {
				return false
			}
		}
	}

	return true
}

func tesseraLookup(fields []tesseraField, key string) (tesseraSpan, bool) {
	for _, f := range fields {
		if string(f.key) == key {
			return f.value, true
		}
	}

	return tesseraSpan{}, false
}

// value decodes one value by its schema element, as upstream's unmarshalSingleValue does.
func (dec *tesseraDecoder) value(span tesseraSpan, el *tesseraElem) (any, bool) {
	raw := dec.data[span.start:span.end]
	if string(raw) == "null" {
		return types.Null, true
	}

	if el == nil {
		return nil, false
	}

	switch el.typ {
	case elemTypeString:
		return dec.string(span)
	case elemTypeObjectID:
		s, ok := dec.string(span)
		if !ok || len(s) != 2*types.ObjectIDLen {
			return nil, false
		}

		var id types.ObjectID
		if _, err := hex.Decode(id[:], []byte(s)); err != nil {
			return nil, false
		}

		return id, true
	case elemTypeDate:
		ms, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, false
		}

		return time.UnixMilli(ms), true
	case elemTypeInt:
		i, err := strconv.ParseInt(string(raw), 10, 32)
		if err != nil {
			return nil, false
		}

		return int32(i), true
	case elemTypeLong:
		i, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return nil, false
		}

		return i, true
	case elemTypeDouble:
		if !tesseraIsNumber(raw) {
			return nil, false
		}

		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return nil, false
		}

		return f, true
	case elemTypeBool:
		switch string(raw) {
		case "true":
			return true, true
		case "false":
			return false, true
		}

		return nil, false
	case elemTypeObject:
		if el.schema == nil {
			return nil, false
		}

		fields, end, ok := dec.object(span.start)
		if !ok || end != span.end {
			return nil, false
		}

		if len(fields) == 0 {
			return new(types.Document), true
		}

		return dec.document(fields, el.schema)
	case elemTypeArray:
		if !el.hasItems {
			return nil, false
		}

		items, end, ok := dec.array(span.start)
		if !ok || end != span.end || len(items) != len(el.items) {
			return nil, false
		}

		a := types.MakeArray(len(items))

		for i, item := range items {
			v, ok := dec.value(item, el.items[i])
			if !ok {
				return nil, false
			}

			a.Append(v)
		}

		return a, true
	}

	// binData, regex, timestamp and anything unknown: upstream decodes them.
	return nil, false
}

// The schemas of a collection's documents repeat; a decoded schema is never modified, so it is
// shared. The cache is emptied when it holds tesseraSchemaCacheSize of them.
const tesseraSchemaCacheSize = 4096

var (
	tesseraSchemaCacheM sync.RWMutex
	tesseraSchemaCache  = make(map[string]*tesseraSchema)
)

func (dec *tesseraDecoder) cachedSchema(span tesseraSpan) (*tesseraSchema, bool) {
	raw := dec.data[span.start:span.end]

	tesseraSchemaCacheM.RLock()
	sch := tesseraSchemaCache[string(raw)]
	tesseraSchemaCacheM.RUnlock()

	if sch != nil {
		return sch, true
	}

	sch, ok := dec.schema(span)
	if !ok {
		return nil, false
	}

	tesseraSchemaCacheM.Lock()
	if len(tesseraSchemaCache) >= tesseraSchemaCacheSize {
		clear(tesseraSchemaCache)
	}

	tesseraSchemaCache[string(raw)] = sch
	tesseraSchemaCacheM.Unlock()

	return sch, true
}

// schema decodes {"p":{…},"$k":[…]} (either order; "{}" for an empty document).
func (dec *tesseraDecoder) schema(span tesseraSpan) (*tesseraSchema, bool) {
	fields, end, ok := dec.object(span.start)
	if !ok || end != span.end || !tesseraUniqueKeys(fields) {
		return nil, false
	}

	sch := new(tesseraSchema)

	for _, f := range fields {
		switch string(f.key) {
		case "p":
			props, end, ok := dec.object(f.value.start)
			if !ok || end != f.value.end || !tesseraUniqueKeys(props) {
				return nil, false
			}

			sch.props = make(map[string]*tesseraElem, len(props))

			for _, p := range props {
				el, ok := dec.elem(p.value)
				if !ok {
					return nil, false
				}

				sch.props[string(p.key)] = el
			}
		case "$k":
			items, end, ok := dec.array(f.value.start)
			if !ok || end != f.value.end {
				return nil, false
			}

			sch.keys = make([]string, 0, len(items))

			for _, item := range items {
				key, ok := dec.string(item)
				if !ok {
					return nil, false
				}

				sch.keys = append(sch.keys, key)
			}
		default:
			return nil, false
		}
	}

	return sch, true
}

// elem decodes {"t":…} with "$s" for objects and "i" for arrays; "o" and "s" are left to upstream.
func (dec *tesseraDecoder) elem(span tesseraSpan) (*tesseraElem, bool) {
	fields, end, ok := dec.object(span.start)
	if !ok || end != span.end || !tesseraUniqueKeys(fields) {
		return nil, false
	}

	el := new(tesseraElem)

	for _, f := range fields {
		switch string(f.key) {
		case "t":
			t, ok := dec.string(f.value)
			if !ok {
				return nil, false
			}

			el.typ = elemType(t)
		case "$s":
			sch, ok := dec.schema(f.value)
			if !ok {
				return nil, false
			}

			el.schema = sch
		case "i":
			items, end, ok := dec.array(f.value.start)
			if !ok || end != f.value.end {
				return nil, false
			}

			el.hasItems = true
			el.items = make([]*tesseraElem, 0, len(items))

			for _, item := range items {
				child, ok := dec.elem(item)
				if !ok {
					return nil, false
				}

				el.items = append(el.items, child)
			}
		default:
			return nil, false
		}
	}

	return el, true
}

// string decodes a JSON string value; an escaped one goes through encoding/json.
func (dec *tesseraDecoder) string(span tesseraSpan) (string, bool) {
	raw := dec.data[span.start:span.end]
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}

	inner := raw[1 : len(raw)-1]
	plain, ascii := true, true

	for _, c := range inner {
		if c == '\\' || c == '"' || c < 0x20 {
			plain = false
			break
		}

		if c >= utf8.RuneSelf {
			ascii = false
		}
	}

	// Without escapes, encoding/json copies valid UTF-8 as it is (it replaces only invalid bytes).
	if plain && (ascii || utf8.Valid(inner)) {
		return string(inner), true
	}

	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}

	return s, true
}

// key answers an object key's bytes without copying them when it has no escapes.
func (dec *tesseraDecoder) key(span tesseraSpan) ([]byte, bool) {
	inner := dec.data[span.start+1 : span.end-1]
	for _, c := range inner {
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			s, ok := dec.string(span)
			return []byte(s), ok
		}
	}

	return inner, true
}

// object reads the object starting at pos (no leading space); answers its members and the end.
func (dec *tesseraDecoder) object(pos int) ([]tesseraField, int, bool) {
	data := dec.data
	if pos >= len(data) || data[pos] != '{' {
		return nil, 0, false
	}

	pos = dec.skipSpace(pos + 1)
	if pos < len(data) && data[pos] == '}' {
		return nil, pos + 1, true
	}

	var fields []tesseraField

	for {
		keyEnd, ok := dec.skipString(pos)
		if !ok {
			return nil, 0, false
		}

		key, ok := dec.key(tesseraSpan{pos, keyEnd})
		if !ok {
			return nil, 0, false
		}

		pos = dec.skipSpace(keyEnd)
		if pos >= len(data) || data[pos] != ':' {
			return nil, 0, false
		}

		pos = dec.skipSpace(pos + 1)

		valueEnd, ok := dec.skipValue(pos)
		if !ok {
			return nil, 0, false
		}

		fields = append(fields, tesseraField{key: key, value: tesseraSpan{pos, valueEnd}})

		pos = dec.skipSpace(valueEnd)
		if pos >= len(data) {
			return nil, 0, false
		}

		switch data[pos] {
		case ',':
			pos = dec.skipSpace(pos + 1)
		case '}':
			return fields, pos + 1, true
		default:
			return nil, 0, false
		}
	}
}

// array reads the array starting at pos; answers its items and the end.
func (dec *tesseraDecoder) array(pos int) ([]tesseraSpan, int, bool) {
	data := dec.data
	if pos >= len(data) || data[pos] != '[' {
		return nil, 0, false
	}

	pos = dec.skipSpace(pos + 1)
	if pos < len(data) && data[pos] == ']' {
		return []tesseraSpan{}, pos + 1, true
	}

	var items []tesseraSpan

	for {
		end, ok := dec.skipValue(pos)
		if !ok {
			return nil, 0, false
		}

		items = append(items, tesseraSpan{pos, end})

		pos = dec.skipSpace(end)
		if pos >= len(data) {
			return nil, 0, false
		}

		switch data[pos] {
		case ',':
			pos = dec.skipSpace(pos + 1)
		case ']':
			return items, pos + 1, true
		default:
			return nil, 0, false
		}
	}
}

// skipValue answers the end of the value starting at pos.
func (dec *tesseraDecoder) skipValue(pos int) (int, bool) {
	data := dec.data
	if pos >= len(data) {
		return 0, false
	}

	switch c := data[pos]; {
	case c == '"':
		return dec.skipString(pos)
	case c == '{':
		_, end, ok := dec.object(pos)
		return end, ok
	case c == '[':
		_, end, ok := dec.array(pos)
		return end, ok
	case c == '-' || (c >= '0' && c <= '9'):
		end := pos + 1
		for end < len(data) && tesseraNumberByte(data[end]) {
			end++
		}

		if !tesseraIsNumber(data[pos:end]) {
			return 0, false
		}

		return end, true
	default:
		for _, literal := range []string{"true", "false", "null"} {
			if len(data)-pos >= len(literal) && string(data[pos:pos+len(literal)]) == literal {
				return pos + len(literal), true
			}
		}

		return 0, false
	}
}

// skipString answers the end of the string starting at pos (escapes are skipped, not checked).
func (dec *tesseraDecoder) skipString(pos int) (int, bool) {
	data := dec.data
	if pos >= len(data) || data[pos] != '"' {
		return 0, false
	}

	for i := pos + 1; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}

	return 0, false
}

func (dec *tesseraDecoder) skipSpace(pos int) int {
	for pos < len(dec.data) {
		switch dec.data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}

	return pos
}

func tesseraNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// tesseraIsNumber checks JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func tesseraIsNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}

	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}

	if i < len(b) && b[i] == '.' {
		i++
		digits := i

		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}

		if i == digits {
			return false
		}
	}

	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}

		digits := i

		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}

		if i == digits {
			return false
		}
	}

	return i == len(b)
}
