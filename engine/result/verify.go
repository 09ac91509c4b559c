package result

import "scriptorium/errcode"

// VerifyReport is the result of Verify.
type VerifyReport struct {
	OK         bool                `json:"ok"`
	Violations []errcode.Violation `json:"violations"`
}
