"""Fast kernels (numpy + numba): the exact enumerators and the simulators.

Never the only definition of a rule: each kernel is checked by tests against the readable
engine in :mod:`macau_tables.games`. Importing this package needs the ``fast`` extra.
"""
