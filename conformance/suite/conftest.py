"""Nothing to load here: the fixtures and hooks of this package's items (``conformance_item``,
``conformance_session``) come from the plugin ``conformance.run.pytest_plugin``, which pytest loads
through its ``pytest11`` entry point (``conformance run`` also names it with ``-p``). A
``pytest_plugins`` line here would only work when this folder is pytest's rootdir."""
