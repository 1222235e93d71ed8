// Package convert turns the kit's batches into what a model eats, on the loop
// path and without allocating per batch: uint8 pixels into scaled or
// standardized floats, integer labels into one-hot rows or another integer type.
//
// # Containers that convert as they gather
//
// The functions that return containers wrap a container and convert each batch
// while it is gathered, into the loop's reused buffer:
//
//   - [Scale]: element-wise v*scale + shift into a float type (uint8 pixels to
//     float32 in [0, 1] with scale 1/255, or any numeric cast to floats);
//   - [Standardize]: per-feature (v - mean) / std with [Stats] computed once over
//     a container by [MeanStd] (scikit-learn's StandardScaler);
//   - [OneHot]: integer labels into rows of classes values, hot at the label;
//   - [Cast]: labels into another numeric type, every value checked once.
//
// They are ordinary containers, so they go anywhere a container goes: into a
// tuple beside the labels (tuples.Zip2(convert.Scale(x, float32(1)/16, 0), y)),
// through splits and folds, into eachobs loops (with prefetching and workers, the
// conversion then runs in the background goroutines) and into providers. Go
// infers every type from the arguments: the target type of Scale is the type of
// scale, that of OneHot the type of the hot value. [Cast] is the exception: it has
// no argument of the target type, so it is the one call that takes a type
// argument, convert.Cast[int32](labels).
//
// # One pass over memory
//
// When the wrapped container is an array with contiguous observations, or a
// subset, split or fold of one, a batch is read straight from the array's memory
// and converted as it is copied: the gather and the conversion are one pass,
// with no intermediate batch of the source type. 8-bit sources with one scale and
// shift go through a 256-entry table. Any other container is gathered first into
// a buffer of its own type (kept from batch to batch) and then converted.
//
// # Batches in hand
//
// [ScaleInto], [OneHotInto] and [CastInto] convert a batch already gathered, into
// a reused buffer: for loop bodies and for stream.Map.
//
// # Errors
//
// A conversion never changes a value silently: [Cast] and [CastInto] refuse a
// value the target type cannot hold, [OneHot] a label outside [0, classes), with an
// error wrapping [ErrRange] that names the value and its index, found when the
// container is wrapped (labels are read once then) or when the batch is converted.
// [Standardize] and [MeanStd] need the observation axis first (obsdim.First, the
// kit's default); otherwise they return an error wrapping
// arraycontainer.ErrLayout.
package convert
