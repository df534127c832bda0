package handler

import "sync"

// tesseraWriteLocks holds one mutex per "database.collection" (packages/dev-db/go/patches/0007).
var tesseraWriteLocks sync.Map

// tesseraLockCollection takes the write lock of one collection and returns its release.
//
// update, findAndModify and delete read the matching documents and write them back in two steps;
// holding the lock across both makes each command's change of a document atomic, as MongoDB's is:
// without it two concurrent updates of one document lost one of them. Reads and inserts do not
// take it.
func tesseraLockCollection(db, collection string) func() {
	lock, _ := tesseraWriteLocks.LoadOrStore(db+"."+collection, new(sync.Mutex))
	mutex := lock.(*sync.Mutex)
	mutex.Lock()

	return mutex.Unlock
}
