package main

import (
	"scriptorium/engine/config"
	"scriptorium/engine/importer"
)

// trustTables is config.toml's [trust.<provider>] tables as the import
// service reads them (import and the daemon's watched folders).
func trustTables(cfg config.Config) map[string]importer.TrustLists {
	out := map[string]importer.TrustLists{}
	for p, t := range cfg.Trust {
		out[p] = importer.TrustLists{Owner: t.Owner, Paired: t.Paired}
	}
	return out
}
