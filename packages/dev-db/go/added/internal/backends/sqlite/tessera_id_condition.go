package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// tesseraIDText is an _id as SQLite text: a string decoded from its JSON escapes, compared byte by
// byte (BINARY collation), which is MongoDB's order of strings. (An ObjectId gives its hex text, a
// number a number, a document its JSON.)
const tesseraIDText = metadata.DefaultColumn + "->>'_id'"

// tesseraIDIsString holds when the stored schema says the _id is a string.
const tesseraIDIsString = metadata.DefaultColumn + `->>'$."$s".p._id.t' = 'string'`

// tesseraIDTextIndex names the index of a table on tesseraIDText (tesseraQuery creates it).
func tesseraIDTextIndex(table string) string {
	return table + "_tessera_id_text"
}

// tesseraOrderByID is the ORDER BY of a sort on _id alone (the handler sets it only when the filter
// is an _id prefix range, tesseraSortPushdown): tesseraIDText, in byte order, from its index.
func tesseraOrderByID(sort *types.Document) (string, bool) {
	direction, err := sort.Get("_id")
	if err != nil {
		return "", false
	}

	if direction == int64(-1) {
		return fmt.Sprintf(" ORDER BY %s DESC", tesseraIDText), true
	}

	return fmt.Sprintf(" ORDER BY %s", tesseraIDText), true
}

// tesseraReadCondition is what follows FROM: for a read in _id order (the filter an _id prefix
// range) the index on tesseraIDText, searched for exactly the string ids in the range, so that the
// first rows are MongoDB's first documents and a LIMIT is exact; else tesseraIDCondition's WHERE.
func tesseraReadCondition(table string, filter, sort *types.Document) (string, []any, bool) {
	if sort != nil && sort.Len() == 1 && filter != nil && filter.Len() == 1 {
		if _, err := sort.Get("_id"); err == nil {
			condition, _ := filter.Get("_id")
			if low, high, ok := types.TesseraIDPrefixRange(condition); ok {
				clause := fmt.Sprintf(
					` INDEXED BY %q WHERE %s >= ? AND %s < ? AND %s`,
					tesseraIDTextIndex(table), tesseraIDText, tesseraIDText, tesseraIDIsString,
				)
				return clause, []any{low, high}, true
			}
		}
	}
	return tesseraIDCondition(filter)
}

// tesseraQuery runs a read. When the read names a table's index on tesseraIDText that does not exist
// yet (the first read in _id order, or the table was dropped and created again), it creates the
// index and runs the read again.
func tesseraQuery(ctx context.Context, db *fsql.DB, table, q string, args ...any) (*fsql.Rows, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err == nil || !strings.Contains(err.Error(), "no such index: "+tesseraIDTextIndex(table)) {
		return rows, err
	}
	create := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %q ON %q (%s)`, tesseraIDTextIndex(table), table, tesseraIDText)
	if err := tesseraRetryBusy(func() error {
		_, err := db.ExecContext(ctx, create)
		return err
	}); err != nil {
		return nil, lazyerrors.Error(err)
	}
	return db.QueryContext(ctx, q, args...)
}

// tesseraRetryBusy runs a schema change made on the read path (an index, the count triggers) and
// tries it again, a few times, when SQLite answers busy or locked: in WAL mode a statement or
// transaction whose snapshot went stale before it took the write lock fails at once with
// SQLITE_BUSY or SQLITE_BUSY_SNAPSHOT (the busy timeout does not apply). Two first counts of two
// collections of one database, each setting up its triggers, failed so (a 500 of admin list-users
// in a full CI run; 3 in 200 rounds of three first reads side by side).
func tesseraRetryBusy(change func() error) error {
	for attempt := 1; ; attempt++ {
		err := change()
		if err == nil {
			return nil
		}
		text := err.Error()
		busy := strings.Contains(text, "SQLITE_BUSY") || strings.Contains(text, "database is locked") ||
			strings.Contains(text, "database table is locked")
		if !busy || attempt == 20 {
			return err
		}
		time.Sleep(time.Duration(attempt*5) * time.Millisecond)
	}
}

// tesseraCountAll is the collection's number of rows, as the single document {n: count}. It is kept
// in _tessera_counts by two triggers on the collection's table, set up by the first count
// (tesseraCountSetUp), so a count reads one row however large the collection: the triggers run in
// the statement that inserts or deletes, so the number cannot drift from the rows. A table dropped
// and created again has lost its triggers: the count sees that and sets them up again.
func tesseraCountAll(ctx context.Context, db *fsql.DB, table string) (*backends.QueryResult, error) {
	if !tesseraPlainTable(table) {
		return tesseraCountResult(ctx, db, fmt.Sprintf(`SELECT COUNT(*) FROM %q`, table))
	}
	result, err := tesseraCountResult(
		ctx, db,
		`SELECT n FROM _tessera_counts WHERE table_name = ? AND (SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? AND name IN (?, ?)) = 2`,
		table, table, table+"_tessera_count_insert", table+"_tessera_count_delete",
	)
	if err == nil {
		return result, nil
	}
	if !errors.Is(err, sql.ErrNoRows) && !strings.Contains(err.Error(), "no such table: _tessera_counts") {
		return nil, err
	}
	if err := tesseraRetryBusy(func() error { return tesseraCountSetUp(ctx, db, table) }); err != nil {
		return nil, err
	}
	return tesseraCountResult(ctx, db, `SELECT n FROM _tessera_counts WHERE table_name = ?`, table)
}

// tesseraCountSetUp creates the triggers and stores the table's COUNT(*), in one transaction: its
// first statement takes SQLite's write lock, so no insert or delete falls between the count and the
// triggers.
func tesseraCountSetUp(ctx context.Context, db *fsql.DB, table string) error {
	return db.InTransaction(ctx, func(tx *fsql.Tx) error {
		for _, q := range []string{
			`CREATE TABLE IF NOT EXISTS _tessera_counts (table_name TEXT PRIMARY KEY, n INTEGER NOT NULL)`,
			fmt.Sprintf(`CREATE TRIGGER IF NOT EXISTS %q AFTER INSERT ON %q BEGIN UPDATE _tessera_counts SET n = n + 1 WHERE table_name = '%s'; END`, table+"_tessera_count_insert", table, table),
			fmt.Sprintf(`CREATE TRIGGER IF NOT EXISTS %q AFTER DELETE ON %q BEGIN UPDATE _tessera_counts SET n = n - 1 WHERE table_name = '%s'; END`, table+"_tessera_count_delete", table, table),
			fmt.Sprintf(`INSERT INTO _tessera_counts (table_name, n) VALUES ('%s', (SELECT COUNT(*) FROM %q)) ON CONFLICT (table_name) DO UPDATE SET n = excluded.n`, table, table),
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return lazyerrors.Error(err)
			}
		}
		return nil
	})
}

// tesseraCountResult runs a query answering one number, as the single document {n: number}.
func tesseraCountResult(ctx context.Context, db *fsql.DB, query string, args ...any) (*backends.QueryResult, error) {
	var n int64
	if err := db.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return nil, err
	}

	doc := must.NotFail(types.NewDocument("n", n))

	return &backends.QueryResult{
		Iter: iterator.Values(iterator.ForSlice([]*types.Document{doc})),
	}, nil
}

// tesseraPlainTable reports whether a table name can be written inside the triggers' SQL as is
// (FerretDB's table names are lower-case letters, digits and underscores).
func tesseraPlainTable(table string) bool {
	if table == "" || len(table) > 200 {
		return false
	}
	for _, r := range table {
		if r != '_' && (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// tesseraMaxInValues bounds the IN list; a longer $in is filtered by the handler alone.
const tesseraMaxInValues = 1000

// tesseraIDCondition returns the WHERE clause SQLite reads by: the _id condition's (tesseraIDOnly)
// when there is one it can use, else the other fields' (tesseraFieldConditions). The handler applies
// the whole filter to the rows returned, so a clause only has to select a superset of the matching
// documents.
func tesseraIDCondition(filter *types.Document) (string, []any, bool) {
	if filter == nil {
		return "", nil, false
	}
	if clause, values, ok := tesseraIDOnly(filter); ok {
		return clause, values, true
	}
	return tesseraFieldConditions(filter)
}

// tesseraMaxFieldConditions bounds how many fields one clause names.
const tesseraMaxFieldConditions = 4

// tesseraFieldConditions returns a WHERE clause on the top-level fields other than _id whose
// condition is a string or ObjectId, {$eq: value}, {$in: [values]} or a prefix range
// (types.TesseraIDPrefixRange: every string starting with p, and only those): each is matched on
// _ferretdb_sjson->'field', the expression FerretDB's indexes are built on, so SQLite reads an
// index when the field leads one. MongoDB's equality also matches an array holding the value, whose
// stored JSON starts with '[': such a row is selected too (an index range of its own), and the
// handler decides. A value whose JSON holds an escape is not pushed down (the field is left to the
// handler), nor a field whose name is not plain letters, digits and underscores.
func tesseraFieldConditions(filter *types.Document) (string, []any, bool) {
	var clauses []string
	var args []any
	for _, key := range filter.Keys() {
		if len(clauses) == tesseraMaxFieldConditions {
			break
		}
		if key == "_id" || !tesseraPlainField(key) {
			continue
		}
		condition, err := filter.Get(key)
		if err != nil {
			continue
		}
		column := fmt.Sprintf("%s->'%s'", metadata.DefaultColumn, key)
		if low, high, ok := types.TesseraIDPrefixRange(condition); ok {
			clauses = append(clauses, fmt.Sprintf("((%s >= ? AND %s < ?) OR (%s >= ? AND %s < ?))", column, column, column, column))
			args = append(args, `"`+low, `"`+high, "[", "\\")
			continue
		}
		values, ok := tesseraEqualityValues(condition, tesseraPlainValue)
		if !ok {
			continue
		}
		clauses = append(clauses, fmt.Sprintf("(%s IN (%s) OR (%s >= ? AND %s < ?))", column, tesseraPlaceholders(len(values)), column, column))
		args = append(append(args, values...), "[", "\\")
	}
	if len(clauses) == 0 {
		return "", nil, false
	}
	return " WHERE " + strings.Join(clauses, " AND "), args, true
}

// tesseraPlainField reports whether a field name is letters, digits and underscores, not leading with a digit.
func tesseraPlainField(key string) bool {
	if key == "" || len(key) > 64 {
		return false
	}
	for i, r := range key {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// tesseraPlainValue is tesseraIDValue for a value whose stored JSON has no escape.
func tesseraPlainValue(value any) (string, bool) {
	encoded, ok := tesseraIDValue(value)
	if !ok || strings.ContainsRune(encoded, '\\') {
		return "", false
	}
	return encoded, true
}

// tesseraIDOnly returns a WHERE clause on the _id index when the filter's _id condition is a
// string or ObjectId, {$eq: value} or {$in: [values]}, or an _id prefix range.
func tesseraIDOnly(filter *types.Document) (string, []any, bool) {
	condition, err := filter.Get("_id")
	if err != nil {
		return "", nil, false
	}
	if low, high, ok := types.TesseraIDPrefixRange(condition); ok {
		return fmt.Sprintf(` WHERE %s >= ? AND %s < ?`, metadata.IDColumn, metadata.IDColumn), []any{`"` + low, `"` + high}, true
	}
	values, ok := tesseraEqualityValues(condition, tesseraIDValue)
	if !ok {
		return "", nil, false
	}
	return fmt.Sprintf(` WHERE %s IN (%s)`, metadata.IDColumn, tesseraPlaceholders(len(values))), values, true
}

// tesseraEqualityValues is the stored JSON of each value an equality condition matches — a value,
// {$eq: value} or {$in: [values]} — when encode accepts every value.
func tesseraEqualityValues(condition any, encode func(any) (string, bool)) ([]any, bool) {
	if value, ok := encode(condition); ok {
		return []any{value}, true
	}
	operators, ok := condition.(*types.Document)
	if !ok || operators.Len() != 1 {
		return nil, false
	}
	if operand, err := operators.Get("$eq"); err == nil {
		if value, ok := encode(operand); ok {
			return []any{value}, true
		}
		return nil, false
	}
	operand, err := operators.Get("$in")
	if err != nil {
		return nil, false
	}
	list, ok := operand.(*types.Array)
	if !ok || list.Len() == 0 || list.Len() > tesseraMaxInValues {
		return nil, false
	}
	values := make([]any, list.Len())
	for i := 0; i < list.Len(); i++ {
		element, err := list.Get(i)
		if err != nil {
			return nil, false
		}
		value, ok := encode(element)
		if !ok {
			return nil, false
		}
		values[i] = value
	}
	return values, true
}

// tesseraPlaceholders is "?, ?, …" for n values.
func tesseraPlaceholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
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
