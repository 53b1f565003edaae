import sys

from conformance.cli.main import main

sys.exit(main())
