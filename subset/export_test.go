package subset

// PairwiseSum is pairwiseSum, for TestPairwiseSumNumPy.
var PairwiseSum = pairwiseSum
