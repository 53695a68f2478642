"""Measurement tools run from a checkout, not installed with the package: python -m tools.NAME."""
