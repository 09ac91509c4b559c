package whatsapp

import (
	"fmt"
	"time"
)

// DateOrder names the order of day, month and year in the export's dates.
type DateOrder string

// The date orders WhatsApp uses; DateOrderAuto guesses from the whole file.
const (
	DateOrderAuto DateOrder = ""
	DayMonthYear  DateOrder = "dmy" // 31/12/2023, 31.12.23 (most of the world)
	MonthDayYear  DateOrder = "mdy" // 12/31/23 (US English)
	YearMonthDay  DateOrder = "ymd" // 2023/12/31, 2023-12-31 (East Asia, Sweden, ...)
)

// stamp is what the file says about one entry's time, kept for every entry
// until the date order is known: a header without its shape (the file's),
// in small integers, as a long chat holds millions of them.
type stamp struct {
	line                 int
	date                 [3]uint16 // at most four digits each
	digits               [3]uint8
	hour, minute, second uint8
}

func newStamp(line int, h header) stamp {
	st := stamp{line: line, hour: uint8(h.hour), minute: uint8(h.minute), second: uint8(h.second)}
	for i := range h.date {
		st.date[i], st.digits[i] = uint16(h.date[i]), uint8(h.digits[i])
	}
	return st
}

// header is the stamp's header in the file's shape s.
func (st stamp) header(s shape) header {
	h := header{hour: int(st.hour), minute: int(st.minute), second: int(st.second), shape: s}
	for i := range st.date {
		h.date[i], h.digits[i] = int(st.date[i]), int(st.digits[i])
	}
	return h
}

// guessOrder picks the date order for the whole file, in this order of
// evidence: a four-digit first number is a year (ymd); a first number above
// 12 is a day (dmy) and a second above 12 is a day (mdy) — both at once is
// an error; otherwise the order under which the dates never go backwards
// (the export is chronological), counting backward steps; and last the
// locale's habit: "/" with AM/PM is the US (mdy), anything else dmy.
func guessOrder(stamps []stamp, s shape) (DateOrder, error) {
	if len(stamps) == 0 {
		return DayMonthYear, nil
	}
	if stamps[0].digits[0] == 4 {
		return YearMonthDay, nil
	}
	firstBig, secondBig := 0, 0
	for _, st := range stamps {
		if st.date[0] > 12 && firstBig == 0 {
			firstBig = st.line
		}
		if st.date[1] > 12 && secondBig == 0 {
			secondBig = st.line
		}
	}
	switch {
	case firstBig > 0 && secondBig > 0:
		return "", fmt.Errorf("the dates mix day-first (line %d) and month-first (line %d) orders", firstBig, secondBig)
	case firstBig > 0:
		return DayMonthYear, nil
	case secondBig > 0:
		return MonthDayYear, nil
	}
	dmy, mdy := backwardSteps(stamps, DayMonthYear), backwardSteps(stamps, MonthDayYear)
	switch {
	case dmy < mdy:
		return DayMonthYear, nil
	case mdy < dmy:
		return MonthDayYear, nil
	case s.dateSep == '/' && s.ampm:
		return MonthDayYear, nil
	}
	return DayMonthYear, nil
}

// backwardSteps counts how often the date goes back from one entry to the
// next when read in order o.
func backwardSteps(stamps []stamp, o DateOrder) int {
	n, prev := 0, 0
	for _, st := range stamps {
		y, m, d := ymd(st.header(shape{}), o)
		v := y*10000 + m*100 + d
		if v < prev {
			n++
		}
		prev = v
	}
	return n
}

// ymd reads the date numbers in order o, a two-digit year being 20yy.
func ymd(h header, o DateOrder) (y, m, d int) {
	a, b, c := h.date[0], h.date[1], h.date[2]
	switch o {
	case YearMonthDay:
		y, m, d = a, b, c
	case MonthDayYear:
		m, d, y = a, b, c
	default:
		d, m, y = a, b, c
	}
	if y < 100 {
		y += 2000
	}
	return y, m, d
}

// resolve turns a header into the wall-clock time it names, checking that
// the date exists.
func resolve(h header, o DateOrder) (y, m, d int, err error) {
	y, m, d = ymd(h, o)
	if y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, fmt.Errorf("%0*d%c%0*d%c%0*d is not a date in %s order", h.digits[0], h.date[0], h.shape.dateSep,
			h.digits[1], h.date[1], h.shape.dateSep, h.digits[2], h.date[2], orderName(o))
	}
	return y, m, d, nil
}

func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

func orderName(o DateOrder) string {
	switch o {
	case MonthDayYear:
		return "month/day/year"
	case YearMonthDay:
		return "year/month/day"
	}
	return "day/month/year"
}
