package main

// Example runs the README's program and checks what it prints.
func Example() {
	main()
	// Output:
	// train: 120 test: 30
	// batch 0 [50 4] labels [2 2 1 0 2 1 0 1] ...
	// batch 1 [50 4] labels [2 2 2 0 2 1 1 0] ...
	// batch 2 [20 4] labels [2 2 1 0 1 2 2 2] ...
}
