package tui

// PaneID names one of the seven panes, in tab order.
type PaneID int

// The panes, numbered as the keys 1–7 reach them.
const (
	PanePending PaneID = iota
	PaneTopics
	PaneCore
	PanePasses
	PaneSearch
	PaneStatus
	PaneAudit
	numPanes
)

func (p PaneID) String() string {
	switch p {
	case PanePending:
		return "pending"
	case PaneTopics:
		return "topics"
	case PaneCore:
		return "core"
	case PanePasses:
		return "passes"
	case PaneSearch:
		return "search"
	case PaneStatus:
		return "status"
	case PaneAudit:
		return "audit"
	}
	return "unknown"
}

// State is what the root model is doing, which decides where keys go.
type State int

// The states of the root model.
const (
	// StateStarting: no window size yet, nothing drawn.
	StateStarting State = iota
	// StateBrowsing: keys go to the global bindings, then the active pane.
	StateBrowsing
	// StateEditing: a text input of the active pane has every key.
	StateEditing
	// StateConfirming: a dialog waits for y or any other key.
	StateConfirming
	// StateDrilled: the source drill-down covers the active pane.
	StateDrilled
	// StateFatal: a start-up failure fills the screen; any key quits.
	StateFatal
)

func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateBrowsing:
		return "browsing"
	case StateEditing:
		return "editing"
	case StateConfirming:
		return "confirming"
	case StateDrilled:
		return "drilled"
	case StateFatal:
		return "fatal"
	}
	return "unknown"
}
