// Package pkg is documentation for the tests of the link checker.
//
// # A heading, with punctuation
//
// Text.
package pkg

// Func is a function.
func Func() {}

// T is a type.
type T struct {
	// Field is a field.
	Field  int
	hidden int
}

// New is a constructor of T.
func New() T { return T{} }

// Method is a method.
func (T) Method() {}

// I is an interface.
type I interface {
	// Do is a method of an interface.
	Do()
}

// The constants of a group.
const (
	A = iota
	B
)

func unexported() {}
