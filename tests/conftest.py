"""Test-wide settings.

Hypothesis's timing checks (the per-example deadline and the "generation is slow" health
check) measure the machine, not the code: on a loaded 2-core CI machine they fail tests
whose properties hold. They are off for the whole suite; every other health check stays.
Performance is measured by `make bench`, never by a test's clock.
"""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "macau-tables", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("macau-tables")
