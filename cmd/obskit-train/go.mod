module github.com/obskit/obskit/cmd/obskit-train

go 1.26.5

replace (
	github.com/obskit/obskit => ../../
	github.com/obskit/obskit/cmd => ../
	github.com/obskit/obskit/columnar => ../../columnar
	github.com/obskit/obskit/gomlx => ../../gomlx
)

require (
	github.com/gomlx/gomlx v0.28.2
	github.com/obskit/obskit v0.0.0
	github.com/obskit/obskit/cmd v0.0.0-00010101000000-000000000000
	github.com/obskit/obskit/gomlx v0.0.0-00010101000000-000000000000
	gonum.org/v1/plot v0.17.0
)

require github.com/clipperhouse/uax29/v2 v2.7.0 // indirect

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/VividCortex/ewma v1.2.0 // indirect
	github.com/acarl005/stripansi v0.0.0-20180116102854-5a71ef0e047d // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/go-logr/logr v1.4.3 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/gomlx/compute v0.1.3
	github.com/google/uuid v1.6.0 // indirect
	github.com/mattn/go-runewidth v0.0.21 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/vbauerster/mpb/v8 v8.9.3 // indirect
	golang.org/x/exp v0.0.0-20260410095643-746e56fc9e2f // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
	golang.org/x/term v0.40.0 // indirect
	golang.org/x/text v0.35.0 // indirect
	k8s.io/klog/v2 v2.140.0 // indirect
)
