package subset_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/obskit/obskit/container"
	"github.com/obskit/obskit/subset"
	"github.com/obskit/obskit/tuples"
)

func ExampleGroupKFolds() {
	// Ten recordings of four speakers: no speaker in both sets of a fold.
	speakers := container.FromSlice([]string{"ann", "bob", "ann", "cyd", "bob", "ann", "dan", "cyd", "ann", "bob"})
	data := subset.Iota(10) // the recordings, here their indices
	folds, err := subset.GroupKFolds(data, speakers, 2)
	if err != nil {
		panic(err)
	}
	for train, val := range folds.All() {
		fmt.Println("validate", val.Indices(), container.Collect(subset.Of(speakers, val.Indices())), "train", train.Nobs())
	}
	_, err = subset.GroupKFolds(data, speakers, 5)
	fmt.Println(err)
	// Output:
	// validate [0 2 5 6 8] [ann ann ann dan ann] train 5
	// validate [1 3 4 7 9] [bob cyd bob cyd bob] train 5
	// subset.GroupKFolds: k = 5 folds outside [2, 4] for 4 groups: folds out of range
}

func ExampleStratifiedGroupKFolds() {
	// scikit-learn's StratifiedGroupKFold example: 17 observations, 8 groups.
	y := []int{0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	groups := container.FromSlice([]int{1, 1, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5, 6, 6, 7, 8, 8})
	data, err := tuples.Zip2(subset.Iota(len(y)), container.FromSlice(y))
	if err != nil {
		panic(err)
	}
	folds, err := subset.StratifiedGroupKFolds(data, nil, groups, 3)
	if err != nil {
		panic(err)
	}
	for _, val := range folds.All() {
		fmt.Println(val.Indices(), "labels", tuples.Labels(val))
	}
	// Output:
	// [4 5 6 12 13 14] labels [1 1 1 0 0 0]
	// [0 1 2 3 15 16] labels [0 0 1 1 0 0]
	// [7 8 9 10 11] labels [1 0 0 0 0]
}

func ExampleLeaveOneGroupOut() {
	sessions := container.FromSlice([]int{3, 1, 3, 2, 1})
	folds, err := subset.LeaveOneGroupOut(subset.Iota(5), sessions)
	if err != nil {
		panic(err)
	}
	for train, val := range folds.All() { // sessions 1, 2, 3 in turn
		fmt.Println("validate", val.Indices(), "train", train.Indices())
	}
	// Output:
	// validate [1 4] train [3 0 2]
	// validate [3] train [1 4 0 2]
	// validate [0 2] train [1 4 3]
}

func ExampleLeavePGroupsOut() {
	groups := container.FromSlice([]string{"a", "b", "c", "d", "a", "b"})
	folds, err := subset.LeavePGroupsOut(subset.Iota(6), groups, 2)
	if err != nil {
		panic(err)
	}
	fmt.Println(folds.Len(), "folds: C(4, 2)")
	for _, val := range folds.All() { // {a b} {a c} {a d} {b c} {b d} {c d}
		fmt.Println(container.Collect(subset.Of(groups, val.Indices())))
	}

	// Counts that do not fit an int are refused; large ones are lazy.
	many := subset.Iota(66)
	folds, err = subset.LeavePGroupsOut(many, many, 33)
	fmt.Println(folds.Len(), err)
	_, err = subset.LeavePGroupsOut(subset.Iota(67), subset.Iota(67), 33)
	fmt.Println(err)
	// Output:
	// 6 folds: C(4, 2)
	// [a b a b]
	// [a c a]
	// [a d a]
	// [b c b]
	// [b d b]
	// [c d]
	// 7219428434016265740 <nil>
	// subset.LeavePGroupsOut: C(67, 33) folds, more than the largest int (9223372036854775807): folds out of range
}

func ExampleRepeatedKFolds() {
	// Three repetitions of 2-fold cross-validation, each on its own shuffle.
	folds, err := subset.RepeatedKFolds(subset.Iota(6), 7, 3, 2)
	if err != nil {
		panic(err)
	}
	for _, val := range folds.All() {
		fmt.Print(val.Indices())
	}
	fmt.Println()
	// Repetition r is KFolds with the generator rand.New(rand.NewPCG(seed, r)).
	second, _ := subset.KFolds(subset.Iota(6), rand.New(rand.NewPCG(7, 1)), 2)
	_, val := second.Fold(0)
	fmt.Println(val.Indices())
	// Output:
	// [3 2 0][4 5 1][2 1 0][5 4 3][1 2 0][5 4 3]
	// [2 1 0]
}

func ExampleRepeatedStratifiedKFolds() {
	y := []string{"a", "a", "a", "a", "b", "b"}
	data, err := tuples.Zip2(subset.Iota(6), container.FromSlice(y))
	if err != nil {
		panic(err)
	}
	folds, err := subset.RepeatedStratifiedKFolds(data, 1, 2, 2)
	if err != nil {
		panic(err)
	}
	for _, val := range folds.All() { // each validates on two a's and one b
		fmt.Print(tuples.Labels(val))
	}
	fmt.Println()
	// Output:
	// [a b a][b a a][a a b][a a b]
}

func ExampleShuffleSplits() {
	// Monte Carlo cross-validation: five random 60/20 draws of 10; the last
	// 20% of each draw is in neither set.
	splits, err := subset.ShuffleSplits(subset.Iota(10), 3, 5, 0.6, 0.2)
	if err != nil {
		panic(err)
	}
	for train, test := range splits.All() {
		fmt.Println(train.Indices(), test.Indices())
	}
	// Output:
	// [9 7 1 6 5 3] [4 0]
	// [9 8 4 3 2 0] [5 6]
	// [2 6 1 9 3 0] [8 4]
	// [0 9 5 7 1 3] [8 6]
	// [6 2 0 7 3 5] [4 1]
}

func ExampleStratifiedShuffleSplits() {
	y := []int{0, 0, 0, 0, 0, 0, 1, 1, 1, 1}
	data, err := tuples.Zip2(subset.Iota(10), container.FromSlice(y))
	if err != nil {
		panic(err)
	}
	splits, err := subset.StratifiedShuffleSplits(data, 3, 3, 0.5, 0.5)
	if err != nil {
		panic(err)
	}
	for train, test := range splits.All() { // 3 of class 0 and 2 of class 1 in each
		fmt.Println(tuples.Labels(train), tuples.Labels(test))
	}
	// Output:
	// [1 1 0 0 0] [1 0 0 1 0]
	// [1 1 0 0 0] [0 0 1 1 0]
	// [0 1 0 1 0] [0 1 0 1 0]
}

func ExampleGroupShuffleSplits() {
	// Three draws of 2 of the 4 patients for training, 1 for testing (the
	// fourth is in neither set).
	patients := container.FromSlice([]string{"p1", "p2", "p1", "p3", "p4", "p2", "p4", "p3"})
	splits, err := subset.GroupShuffleSplits(subset.Iota(8), 1, patients, 3, 0.5, 0.25)
	if err != nil {
		panic(err)
	}
	for train, test := range splits.All() {
		fmt.Println(container.Collect(subset.Of(patients, train.Indices())), container.Collect(subset.Of(patients, test.Indices())))
	}
	// Output:
	// [p2 p3 p2 p3] [p1 p1]
	// [p2 p3 p2 p3] [p4 p4]
	// [p3 p4 p4 p3] [p2 p2]
}

func ExampleNewHash() {
	// The rule of a hash split: 80% train, 10% validation, 10% test, by id.
	h, err := subset.NewHash("holdout-v1", 0.8, 0.1, 0.1)
	if err != nil {
		panic(err)
	}
	fmt.Println(h.Parts(), h.Fractions())
	for _, id := range []string{"patient-0001", "patient-0002", "patient-0003"} {
		fmt.Printf("%s: hash %#016x, part %d\n", id, subset.HashSum(h, id), subset.HashPart(h, id))
	}
	// Output:
	// 3 [0.8 0.1 0.1]
	// patient-0001: hash 0x3679ee259c63fdca, part 0
	// patient-0002: hash 0xdf492f5164ab0aa9, part 1
	// patient-0003: hash 0xc52f8021786ac8ee, part 0
}

func ExampleHashSplit() {
	// Records of users: the test part holds every record of its users, and
	// stays put when more records come.
	users := []string{"ann", "bob", "cyd", "dan", "eve", "fay", "gus", "hal", "ann", "bob"}
	h, err := subset.NewHash("holdout-v1", 0.7)
	if err != nil {
		panic(err)
	}
	parts, err := subset.HashSplit(subset.Iota(len(users)), container.FromSlice(users), h)
	if err != nil {
		panic(err)
	}
	fmt.Println("train", parts[0].Indices(), "test", parts[1].Indices())

	grown := append(users, "ivy", "jon", "cyd")
	parts, err = subset.HashSplit(subset.Iota(len(grown)), container.FromSlice(grown), h)
	if err != nil {
		panic(err)
	}
	fmt.Println("train", parts[0].Indices(), "test", parts[1].Indices())
	// Output:
	// train [0 1 3 4 5 7 8 9] test [2 6]
	// train [0 1 3 4 5 7 8 9 10 11] test [2 6 12]
}
