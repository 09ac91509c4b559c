// Package writer turns conversations into memory: it reads the turns
// sessions.db still owes, routes them by trust (unpaired group messages
// become pending sources, unpaired direct messages never enter memory),
// archives them and distils them into cited topic blocks through one
// engine install per batch, with the configured model or the offline one.
//
// It also holds backfill (distil every trusted uncited source), the idle
// watcher's final write of quiet sessions, and Distiller, which the core
// is handed at Open so that promotion distils what it promotes.
package writer
