package sjson

// Added by Tessera (packages/dev-db/go/patches/0005-one-pass-decoder.patch): tesseraUnmarshal answers what
// upstreamUnmarshal answers, or leaves the document to it.

import (
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/FerretDB/FerretDB/internal/types"
)

func TestTesseraDecodeKnownDocuments(t *testing.T) {
	t.Parallel()

	taken := []string{
		`{"$s":{"p":{"_id":{"t":"objectId"},"name":{"t":"string"},"n":{"t":"int"},"l":{"t":"long"},` +
			`"d":{"t":"date"},"f":{"t":"double"},"b":{"t":"bool"},"z":{"t":"null"},` +
			`"o":{"t":"object","$s":{"p":{"a":{"t":"string"}},"$k":["a"]}},"e":{"t":"object","$s":{}},` +
			`"arr":{"t":"array","i":[{"t":"string"},{"t":"int"}]},"ea":{"t":"array","i":[]}},` +
			`"$k":["_id","name","n","l","d","f","b","z","o","e","arr","ea"]},` +
			`"_id":"0123456789abcdef01234567","name":"caf\u00e9 \u0026 \"q\" é","n":-5,"l":1234567890123,` +
			`"d":1700000000000,"f":1.5e3,"b":true,"z":null,"o":{"a":"x"},"e":{},"arr":["s",3],"ea":[]}`,
		`{"$s":{"$k":["_id"],"p":{"_id":{"t":"string"}}},"_id":"t0000001700000000000:abc"}`,
	}

	for _, in := range taken {
		want, err := upstreamUnmarshal([]byte(in))
		require.NoError(t, err)

		got, ok := tesseraUnmarshal([]byte(in))
		require.True(t, ok, in)
		require.Equal(t, want, got)
	}

	left := []string{
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]},"_id":1.5}`,         // upstream refuses it
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]},"_id":1} `,          // trailing bytes
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]},"_id":1,"_id":2}`,   // a repeated key
		`{"$s":{"p":{"_id":{"t":"timestamp"}},"$k":["_id"]},"_id":1}`,     // left to upstream
		`{"$s":{"p":{"_id":{"t":"object"}},"$k":["_id"]},"_id":{}}`,       // no schema: upstream refuses it
		`{"$s":{"P":{"_id":{"t":"int"}},"$k":["_id"]},"_id":1}`,           // encoding/json's case folding
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]},"_id":2147483648}`,  // out of int32
		`{"$s":{"p":{"_id":{"t":"objectId"}},"$k":["_id"]},"_id":"0123"}`, // too short
		`{"$s":{"p":{"_id":{"t":"int"}},"$k":["_id"]}}`,                   // a missing field
	}

	for _, in := range left {
		_, ok := tesseraUnmarshal([]byte(in))
		require.False(t, ok, in)
	}
}

func TestTesseraDecodeRandomDocuments(t *testing.T) {
	t.Parallel()

	r := rand.New(rand.NewSource(1))
	taken := 0

	for n := 0; n < 30000; n++ {
		d := types.MakeDocument(0)

		var id types.ObjectID
		r.Read(id[:])
		d.Set("_id", id)

		for i := 0; i < r.Intn(8); i++ {
			d.Set(tesseraRandomKey(r)+"f", tesseraRandomValue(r, 0))
		}

		b, err := Marshal(d)
		if err != nil {
			continue
		}

		want, err := upstreamUnmarshal(b)
		require.NoError(t, err)

		got, ok := tesseraUnmarshal(b)
		if !ok {
			continue
		}

		taken++

		require.Equal(t, want, got, string(b))
	}

	// Documents without a timestamp (about four in five) must not be left to upstream.
	require.Greater(t, taken, 20000)
}

func tesseraRandomKey(r *rand.Rand) string {
	const letters = "abcdefgh"

	out := make([]byte, 1+r.Intn(5))
	for i := range out {
		out[i] = letters[r.Intn(len(letters))]
	}

	return string(out)
}

func tesseraRandomString(r *rand.Rand) string {
	alphabet := []rune("abcXYZ09 &<>\"\\/\n\t\u00e9\u4e2d\U0001F600:@.-_$")

	out := make([]rune, r.Intn(12))
	for i := range out {
		out[i] = alphabet[r.Intn(len(alphabet))]
	}

	return string(out)
}

func tesseraRandomValue(r *rand.Rand, depth int) any {
	kind := r.Intn(12)
	if depth > 3 && kind >= 9 {
		kind = 0
	}

	switch kind {
	case 0:
		return tesseraRandomString(r)
	case 1:
		var id types.ObjectID
		r.Read(id[:])

		return id
	case 2:
		return r.Int31() - math.MaxInt32/2
	case 3:
		return r.Int63() - math.MaxInt64/2
	case 4:
		return time.UnixMilli(r.Int63n(4_000_000_000_000)).UTC()
	case 5:
		return r.NormFloat64() * math.Pow(10, float64(r.Intn(40)-20))
	case 6:
		return r.Intn(2) == 0
	case 7:
		return types.Null
	case 8:
		return types.Timestamp(r.Uint64())
	case 9:
		d := types.MakeDocument(0)
		for i := 0; i < r.Intn(4); i++ {
			d.Set(tesseraRandomKey(r)+"k", tesseraRandomValue(r, depth+1))
		}

		return d
	case 10:
		a := types.MakeArray(0)
		for i := 0; i < r.Intn(4); i++ {
			a.Append(tesseraRandomValue(r, depth+1))
		}

		return a
	default:
		return float64(r.Intn(1000))
	}
}
