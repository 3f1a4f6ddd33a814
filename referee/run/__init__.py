"""This package checks files: one (with or without the z3 invariants), many in processes, or on
a Dask cluster."""
