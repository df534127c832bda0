package handler

import (
	"context"
	"errors"

	"github.com/FerretDB/wire"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// tesseraSortPushdown reports whether SQLite can return the first rows of a find in order: the whole
// filter is an _id prefix range (answered from the _id index) and the sort is {_id: 1} or {_id: -1}.
func tesseraSortPushdown(filter, sort *types.Document) bool {
	if filter.Len() != 1 || sort.Len() != 1 {
		return false
	}

	condition, err := filter.Get("_id")
	if err != nil {
		return false
	}

	if _, _, ok := types.TesseraIDPrefixRange(condition); !ok {
		return false
	}

	direction, err := sort.Get("_id")
	if err != nil {
		return false
	}

	switch direction {
	case int64(1), int64(-1):
		return true
	}

	return false
}

// tesseraCountAll answers count without a filter from the backend's row count.
func tesseraCountAll(ctx context.Context, c backends.Collection) (*wire.OpMsg, error) {
	res, err := c.Query(ctx, &backends.QueryParams{TesseraCountOnly: true})
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	defer res.Iter.Close()

	var n int64

	_, doc, err := res.Iter.Next()

	switch {
	case errors.Is(err, iterator.ErrIteratorDone):
	case err != nil:
		return nil, lazyerrors.Error(err)
	default:
		v, _ := doc.Get("n")
		n, _ = v.(int64)
	}

	return documentOpMsg(must.NotFail(types.NewDocument(
		"n", int32(n),
		"ok", float64(1),
	)))
}
