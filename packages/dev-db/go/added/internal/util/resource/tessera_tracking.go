package resource

// tesseraNoTracking turns Track and Untrack into no-ops (ferretdb-patch.ts 6).
const tesseraNoTracking = true
