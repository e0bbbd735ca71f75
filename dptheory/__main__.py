import sys

from dptheory.cli import main

sys.exit(main())
