"""scikit-learn's splitters beside package subset's (sklearn_test.go).

Prints "ready 1", then answers each line of JSON with one line of JSON:

  {"cv": "GroupKFold", "args": {"n_splits": 3}, "n": 10, "y": [...] or null,
   "groups": [...] or null}
      -> {"folds": [[train, test], ...]}, the index lists of cv.split(X, y,
         groups) for X of n rows
  {"sum": [x, ...]}  -> {"sum": np.sum of the float64 array}
  {"version": true}  -> {"sklearn": "...", "numpy": "..."}

An exception is answered {"error": "..."}.
"""
import json
import sys

import numpy as np
import sklearn
from sklearn import model_selection


def answer(req):
    if "version" in req:
        return {"sklearn": sklearn.__version__, "numpy": np.__version__}
    if "sum" in req:
        return {"sum": float(np.sum(np.array(req["sum"], dtype=np.float64)))}
    cv = getattr(model_selection, req["cv"])(**(req.get("args") or {}))
    X = np.zeros((req["n"], 1))
    y = None if req.get("y") is None else np.array(req["y"])
    groups = None if req.get("groups") is None else np.array(req["groups"])
    folds = [[train.tolist(), np.asarray(test).tolist()] for train, test in cv.split(X, y, groups)]
    return {"folds": folds}


def main():
    print("ready 1", flush=True)
    for line in sys.stdin:
        try:
            out = answer(json.loads(line))
        except Exception as e:  # the test fails with the message
            out = {"error": "%s: %s" % (type(e).__name__, e)}
        print(json.dumps(out), flush=True)


main()
