from atcron.cli.main import main

raise SystemExit(main())
