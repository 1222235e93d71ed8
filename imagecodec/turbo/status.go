package turbo

import "fmt"

// A Status says which decoder [New] returns on this build and this machine,
// and why. Printed (it is a [fmt.Stringer]), it says so in one line:
//
//	libjpeg-turbo (libjpeg.so.62) for JPEGs, pure Go for PNG, GIF and WebP
//	pure Go for every format: turbo: libjpeg-turbo unavailable: built without cgo (CGO_ENABLED=0 or the purego build tag)
type Status struct {
	// Library is the shared object of libjpeg-turbo that New's decoder
	// decodes JPEGs with, such as "libjpeg.so.62"; empty when New returns
	// the pure-Go decoder.
	Library string
	// Err says why New returns the pure-Go decoder: the program was built
	// without cgo (CGO_ENABLED=0 or the purego build tag) or without
	// libjpeg-turbo's header, or the library cannot be loaded at run time.
	// It is nil when Library is set.
	Err error
}

// Turbo reports whether New returns the libjpeg-turbo decoder.
func (s Status) Turbo() bool { return s.Library != "" }

// String says which decoder New returns, and why not the other.
func (s Status) String() string {
	switch {
	case s.Turbo():
		return fmt.Sprintf("libjpeg-turbo (%s) for JPEGs, pure Go for PNG, GIF and WebP", s.Library)
	case s.Err != nil:
		return "pure Go for every format: " + s.Err.Error()
	}
	return "pure Go for every format"
}

// Available says which decoder [New] returns and why: libjpeg-turbo's, and
// the library it loaded, or the pure-Go one, and why libjpeg-turbo cannot be
// used. It loads the library on its first call.
func Available() Status { return available() }

type unavailableError string

func (e unavailableError) Error() string { return "turbo: libjpeg-turbo unavailable: " + string(e) }
