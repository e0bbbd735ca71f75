"""The version of dptheory, in one place: the package (``dptheory.__version__``), the
command line's ``--version`` and the catalog index's fingerprint read it from here."""

__version__ = "0.1.0"
