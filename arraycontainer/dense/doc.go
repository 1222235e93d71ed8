// Package dense converts between the kit's arrays and gonum's *mat.Dense without
// copying: [ToArray] sees a matrix as a 2-d float64 array whose rows (obsdim.First,
// as in gonum/stat) or columns (obsdim.Last) are observations, and [FromArray]
// hands a 2-d float64 array, such as a gathered batch, to gonum's linear algebra.
//
// The package is a module of its own (github.com/obskit/obskit/arraycontainer/dense),
// so that the kit's other packages build without gonum and a program that does
// not use gonum does not have it in its build list.
package dense
