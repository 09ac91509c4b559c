package main

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/aymanbagabas/go-udiff"
	_ "github.com/blevesearch/bleve/v2"
	_ "github.com/charmbracelet/bubbles/help"
	_ "github.com/charmbracelet/bubbles/key"
	_ "github.com/charmbracelet/bubbles/list"
	_ "github.com/charmbracelet/bubbles/spinner"
	_ "github.com/charmbracelet/bubbles/textinput"
	_ "github.com/charmbracelet/bubbles/viewport"
	_ "github.com/charmbracelet/bubbletea"
	_ "github.com/charmbracelet/glamour"
	_ "github.com/charmbracelet/lipgloss"
	_ "github.com/charmbracelet/x/ansi"
	_ "github.com/charmbracelet/x/exp/golden"
	_ "github.com/charmbracelet/x/exp/teatest"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/gofrs/flock"
	_ "github.com/tiktoken-go/tokenizer/codec"
	_ "golang.org/x/text/cases"
	_ "golang.org/x/text/unicode/norm"
	_ "modernc.org/sqlite"
)

func main() {}
