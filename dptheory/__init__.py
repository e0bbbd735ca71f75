"""dptheory: theorems of differentially private non-convex optimization as executable objects.

Layers (imports only go downward): ``simulations -> bounds -> dptheory``.
``dptheory`` knows no paper; it finds catalogs and checks through entry points.
"""

__version__ = "0.1.0"
