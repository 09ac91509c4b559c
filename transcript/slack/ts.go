package slack

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxUnix is 10000-01-01T00:00:00Z: the store keeps four-digit years.
const maxUnix = 253402300800

// stamp is a parsed Slack ts ("1700000000.000100"): seconds and
// nanoseconds since the epoch. The ts string itself is the message id.
type stamp struct {
	sec, nsec int64
}

// parseTS reads a Slack ts: decimal seconds with up to nine fraction digits
// (Slack writes six). Anything else cannot be a message id.
func parseTS(ts string) (stamp, error) {
	whole, frac, _ := strings.Cut(ts, ".")
	if whole == "" || len(whole) > 12 || len(frac) > 9 || strings.HasSuffix(ts, ".") || !digits(whole) || !digits(frac) {
		return stamp{}, fmt.Errorf("ts %q is not a Slack timestamp (seconds.micros)", ts)
	}
	sec, _ := strconv.ParseInt(whole, 10, 64)
	if sec >= maxUnix {
		return stamp{}, fmt.Errorf("ts %q is out of range", ts)
	}
	var nsec int64
	if frac != "" {
		nsec, _ = strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
	}
	return stamp{sec, nsec}, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// time is the stamp in UTC.
func (s stamp) time() time.Time { return time.Unix(s.sec, s.nsec).UTC() }

func (s stamp) compare(o stamp) int {
	if c := cmp.Compare(s.sec, o.sec); c != 0 {
		return c
	}
	return cmp.Compare(s.nsec, o.nsec)
}
