"""``python -m appliance`` is the ``dicetable`` command."""

from appliance.cli import main

raise SystemExit(main())
