/**
 * Two source changes applied to FerretDB v1.24.2 before it is built (docs/scale.md "The embedded
 * database"). Both only narrow which rows SQLite reads; FerretDB's handler still applies the whole
 * MongoDB filter to what comes back, so every query answers exactly what it answered before.
 *
 * 1. The `_id` index is used. FerretDB creates it on `_ferretdb_sjson->"_id"` but filters with
 *    `_ferretdb_sjson->'$._id'`, an expression SQLite does not match to the index: a lookup by `_id`
 *    read every row (28 ms at 20,000 documents, 140 ms at 100,000; `EXPLAIN QUERY PLAN` says SCAN).
 *    The same path written `->'_id'` is the index's expression (SEARCH … USING INDEX).
 * 2. The `_id` condition is pushed down whatever else the filter holds, and `$eq` / `$in` of strings
 *    and ObjectIds are pushed down too. Upstream pushed only a filter whose single key is `_id` with
 *    a plain value, so `{_id, expiresAt: {$gt}}` or `{_id: {$in: [...]}}` decoded the whole collection.
 */

/** Bumped whenever the patch changes, so that a cached binary built without it is rebuilt. */
export const FERRETDB_PATCH_LEVEL = 1;

export interface SourceEdit {
  /** Path inside the module, with forward slashes. */
  file: string;
  find: string;
  replace: string;
  /** How many times `find` must occur (the edit fails loudly when the source is not the expected one). */
  occurrences: number;
}

const ID_CONDITION_UPSTREAM = `	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
`;

export const FERRETDB_SOURCE_EDITS: readonly SourceEdit[] = [
  {
    file: "internal/backends/sqlite/metadata/metadata.go",
    find: `IDColumn = DefaultColumn + "->'$._id'"`,
    replace: `IDColumn = DefaultColumn + "->'_id'"`,
    occurrences: 1,
  },
  {
    // Query: the first block; Explain: the second (it also sets filterPushdown, kept below).
    file: "internal/backends/sqlite/collection.go",
    find: `${ID_CONDITION_UPSTREAM}			whereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}
`,
    replace: `	if clause, values, ok := tesseraIDCondition(params.Filter); ok {
		whereClause = clause
		args = values
	}
`,
    occurrences: 1,
  },
  {
    file: "internal/backends/sqlite/collection.go",
    find: `${ID_CONDITION_UPSTREAM}			filterPushdown = true
			whereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}
`,
    replace: `	if clause, values, ok := tesseraIDCondition(params.Filter); ok {
		filterPushdown = true
		whereClause = clause
		args = values
	}
`,
    occurrences: 1,
  },
];

/** Written next to collection.go: the `_id` condition a filter allows SQLite to answer from the index. */
export const FERRETDB_ADDED_FILE = {
  file: "internal/backends/sqlite/tessera_id_condition.go",
  text: `package sqlite

import (
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
)

// tesseraMaxInValues bounds the IN list; a longer $in is filtered by the handler alone.
const tesseraMaxInValues = 1000

// tesseraIDCondition returns a WHERE clause on the _id index when the filter's _id condition is a
// string or ObjectId, {$eq: value} or {$in: [values]}. The handler applies the whole filter to the
// rows returned, so the clause only has to select a superset of the matching documents.
func tesseraIDCondition(filter *types.Document) (string, []any, bool) {
	if filter == nil {
		return "", nil, false
	}
	condition, err := filter.Get("_id")
	if err != nil {
		return "", nil, false
	}
	if value, ok := tesseraIDValue(condition); ok {
		return fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn), []any{value}, true
	}
	operators, ok := condition.(*types.Document)
	if !ok || operators.Len() != 1 {
		return "", nil, false
	}
	if operand, err := operators.Get("$eq"); err == nil {
		if value, ok := tesseraIDValue(operand); ok {
			return fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn), []any{value}, true
		}
		return "", nil, false
	}
	operand, err := operators.Get("$in")
	if err != nil {
		return "", nil, false
	}
	list, ok := operand.(*types.Array)
	if !ok || list.Len() == 0 || list.Len() > tesseraMaxInValues {
		return "", nil, false
	}
	placeholders := make([]string, list.Len())
	values := make([]any, list.Len())
	for i := 0; i < list.Len(); i++ {
		element, err := list.Get(i)
		if err != nil {
			return "", nil, false
		}
		value, ok := tesseraIDValue(element)
		if !ok {
			return "", nil, false
		}
		placeholders[i] = "?"
		values[i] = value
	}
	return fmt.Sprintf(\` WHERE %s IN (%s)\`, metadata.IDColumn, strings.Join(placeholders, ", ")), values, true
}

// tesseraIDValue is the stored JSON form of a string or ObjectId _id, as the index holds it.
func tesseraIDValue(value any) (string, bool) {
	switch value.(type) {
	case string, types.ObjectID:
		encoded, err := sjson.MarshalSingleValue(value)
		if err != nil {
			return "", false
		}
		return string(encoded), true
	}
	return "", false
}
`,
};
