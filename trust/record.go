package trust

import (
	"crypto/sha256"
	"encoding/hex"
)

// RecordSHA256 is the hex SHA-256 of the record bytes the owner was shown,
// kept with each promotion and rejection.
func RecordSHA256(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
