"""dptheory's simulations (installed as ``dptheory_simulations``): the numeric side.

What belongs here, one purpose per subpackage:

* ``objectives`` — synthetic families and the papers' ERM losses, with certified constants;
* ``datasets`` — files, arrays and the papers' data sets, with recorded preprocessing;
* ``algorithms`` — one simulator module per paper (common interface in ``base``);
* ``experiments`` — one module per paper holding every check run on it, and the engines.

Imports go ``simulations -> bounds -> dptheory`` and, inside, ``experiments -> algorithms ->
objectives``; ``datasets`` feeds objectives and experiments. Nothing here is imported by
``dptheory`` or ``dptheory_bounds``: they find it through entry points.
"""
