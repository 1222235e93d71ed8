//go:build !cgo || purego

package turbo

func available() Status {
	return Status{Err: unavailableError("built without cgo (CGO_ENABLED=0 or the purego build tag)")}
}

func decodeJPEG(data []byte, p plan, out []byte, stride int) (code int, msg string) {
	panic("turbo: decodeJPEG without libjpeg-turbo") // New never makes the decoder then
}
